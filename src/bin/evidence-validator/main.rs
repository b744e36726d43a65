//! The native command line (spec 000 §1.2).
//!
//! ```text
//! evidence-validator validate --source FILE --evidence FILE [--output FILE]
//!                             [--config FILE] [--format F] [--verbose] [--strict]
//! evidence-validator --source FILE --evidence FILE [--output FILE] …   # spec 000 §1.2: the same as validate
//! evidence-validator validate            # the bundled sample
//! evidence-validator find --source FILE QUOTE [--max-edit-distance N]
//! evidence-validator reanchor …   # saved selectors found again in an edited source
//! evidence-validator judge | verify-report …   # spec 002 (judge.rs)
//! evidence-validator transcript …   # spec 001 (transcript.rs)
//! evidence-validator finding validate|verify|hash …   # spec 003 (finding.rs)
//! evidence-validator numeric | metrics | cite …   # spec 004, see cite.rs
//! evidence-validator eval --dataset fever|ragtruth|alce --input FILE …   # spec 004 §7, see eval.rs
//! ```
//!
//! Exit codes: 0 report written; 1 `--strict` and some claim is not
//! VALIDATED; 2 bad input (one line on stderr naming the error code and
//! where; with `--output`, `validate` also writes a report there with
//! `ok: false` and the error in `errors[]`); 3 the report could not be
//! written.
//!
//! Untrusted files: every file is read through [`read_text_limited`], at
//! most its limit plus one byte (a source: the configuration's
//! `max_document_size_mb`, default 50; evidence, configuration, transcript,
//! items and report files: [`INPUT_FILE_LIMIT_MB`]); past it the file is
//! refused with a `DOCUMENT_PARSING_ERROR` naming it and the limit, so
//! `--source /dev/zero` ends at once. Output goes through [`write_stdout`]
//! (and [`write_output`]): a closed stdout (`| head -c1`) ends the writing
//! quietly, with no panic and the command's own exit code.

mod cite;
mod error_report;
mod eval;
mod finding;
mod judge;
mod spec_form;
mod transcript;

use clap::{Parser, Subcommand};
use evidence_validator::host::SystemClock;
use evidence_validator::validate::{self, ClaimSet, Config, Status};
use evidence_validator::{Document, Error, ErrorKind, Format};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Largest evidence, configuration, transcript, items or report file read,
/// in MiB (a source document is bounded by `max_document_size_mb` instead).
pub const INPUT_FILE_LIMIT_MB: u64 = 64;

/// The bundled sample, used when `validate` is given no files.
const SAMPLE_SOURCE: &str = include_str!("../../../samples/incident-review.md");
const SAMPLE_CLAIMS: &str = include_str!("../../../samples/claims.json");

#[derive(Parser)]
#[command(
    name = "evidence-validator",
    version,
    about = "Proves an LLM's evidence is real: checks cited quotes against their source."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate evidence claims against a source document (spec 000).
    /// Without --source and --evidence, runs on the bundled sample.
    Validate {
        /// The source document (markdown, HTML or plain text).
        #[arg(long, requires = "evidence")]
        source: Option<PathBuf>,
        /// The evidence claims (JSON, spec 000 §2.1).
        #[arg(long, requires = "source")]
        evidence: Option<PathBuf>,
        /// Where to write the report (stdout when absent).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Configuration overrides (JSON, spec 000 §1.3).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Source format, overriding detection: markdown, html, plain_text.
        #[arg(long)]
        format: Option<String>,
        /// Print one line per claim on stderr.
        #[arg(long, short)]
        verbose: bool,
        /// Exit with status 1 when any claim is not VALIDATED (for CI).
        #[arg(long)]
        strict: bool,
    },
    /// Find every place a quote occurs in a source (exact, else fuzzy).
    Find {
        /// The source document.
        #[arg(long)]
        source: PathBuf,
        /// The quote to look for.
        quote: String,
        /// Largest edit distance for fuzzy matches when there is no exact one
        /// (default 3, at most 2000).
        #[arg(long)]
        max_edit_distance: Option<u64>,
        /// Most matches printed (default 1000, at most 100000); the rest are
        /// counted in `omitted`.
        #[arg(long)]
        max_results: Option<u64>,
        /// Source format, overriding detection.
        #[arg(long)]
        format: Option<String>,
    },
    /// Find saved selectors again in an edited source (issue 18): each
    /// annotation's status (unchanged, moved, changed, orphaned) and new span.
    Reanchor {
        /// The edited source document.
        #[arg(long)]
        source: PathBuf,
        /// The saved annotations: a JSON list of {id, selectors}
        /// (selectors as match_details.selectors gives them).
        #[arg(long)]
        selectors: PathBuf,
        /// Source format, overriding detection.
        #[arg(long)]
        format: Option<String>,
    },
    /// Judge one claim against cited lines of a canonical file (spec 002):
    /// lines exist, quote matches, and a jury of LLMs agrees.
    Judge(judge::JudgeArgs),
    /// Judge every [file:Lx-Ly](path) citation of a markdown report (spec 002).
    VerifyReport(judge::VerifyReportArgs),
    /// Check a speech evaluation's evidence against the speaker's transcript (spec 001).
    Transcript(transcript::TranscriptArgs),
    /// Validate, verify or hash a research finding (spec 003).
    Finding(finding::FindingArgs),
    /// Compare a claim's number with the evidence's (spec 004 stage 6).
    Numeric(cite::NumericArgs),
    /// Evaluation metrics: ranking, AUROC, Brier, macro-F1, kappa, ECE, citations (spec 004 §7).
    Metrics(cite::MetricsArgs),
    /// The citation pipeline's deterministic stages 1, 3, 5, 6 (spec 004).
    Cite(cite::CiteArgs),
    /// Per-stage metrics and the toggle ablation on FEVER, RAGTruth or ALCE (spec 004 §7).
    Eval(eval::EvalArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(spec_form::with_subcommand(std::env::args_os()));
    let error_report_to = error_report::destination(&cli.command);
    match run(cli.command) {
        Ok(code) => code,
        Err(Failure::Input(e)) => {
            if let Some(path) = &error_report_to {
                error_report::write(path, &e);
            }
            note(&one_line(&e.to_string()));
            ExitCode::from(2)
        }
        Err(Failure::Output(msg)) => {
            note(&msg);
            ExitCode::from(3)
        }
    }
}

/// One `evidence-validator: …` line on stderr; a closed stderr is ignored
/// (`eprintln!` would panic).
pub(crate) fn note(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "evidence-validator: {line}");
}

enum Failure {
    Input(Error),
    Output(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Input(e)
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn run(command: Command) -> Result<ExitCode, Failure> {
    match command {
        Command::Validate { source, evidence, output, config, format, verbose, strict } => {
            // The configuration first: it bounds how much of the source is read.
            let config_json = match &config {
                Some(p) => parse_json(
                    &read_text(p, ErrorKind::Configuration)?,
                    &p.display().to_string(),
                    ErrorKind::Configuration,
                )?,
                None => Value::Null,
            };
            let config = Config::from_json(&config_json)?;
            let (source_bytes, source_name, claims_text, claims_name) = match (source, evidence) {
                (Some(s), Some(e)) => (
                    read_source_bytes(&s, config.performance_limits.max_document_size_mb)?,
                    s.display().to_string(),
                    read_text(&e, ErrorKind::Validation)?,
                    e.display().to_string(),
                ),
                _ => {
                    note("no --source/--evidence given; validating the bundled sample (samples/incident-review.md, samples/claims.json)");
                    let sample = SAMPLE_SOURCE.as_bytes().to_vec();
                    (
                        sample,
                        "samples/incident-review.md".into(),
                        SAMPLE_CLAIMS.to_string(),
                        "samples/claims.json".into(),
                    )
                }
            };
            let claims_json = parse_json(&claims_text, &claims_name, ErrorKind::Validation)?;
            let mut claims = ClaimSet::from_json(&claims_json)?;
            // the source's bytes as its source_metadata.encoding says (default UTF-8)
            let source_text = validate::decode_source(&source_bytes, claims.encoding).map_err(|e| {
                let named = Error::new(e.kind(), format!("{source_name}: {}", e.message()));
                e.details().iter().fold(named, |n, (k, v)| n.with_detail(k, v.clone()))
            })?;
            if let Some(f) = format {
                claims.format = Some(parse_format(&f)?);
            }
            validate::check_document(&source_text, &config)?;
            let doc = Document::new(source_text, claims.format)?;
            let report = validate::validate_set_with(&doc, &claims, &config, &SystemClock, None)?;
            if verbose {
                let mut lines = String::new();
                for r in &report.validated_claims {
                    let place = r.match_details.as_ref().map_or(String::new(), |m| {
                        format!(" line {} col {} ({:?})", m.location.line_number, m.location.column, m.match_type)
                    });
                    lines.push_str(&format!(
                        "{} {:?} {:.3}{}\n",
                        r.claim_id, r.validation_status, r.confidence_score, place
                    ));
                }
                for w in &report.warnings {
                    lines.push_str(&format!("warning {}: {}\n", w.code, w.message));
                }
                let _ = std::io::stderr().lock().write_all(lines.as_bytes());
            }
            let json = serde_json::to_string_pretty(&report).map_err(|e| Failure::Output(e.to_string()))?;
            write_output(output.as_deref(), &json)?;
            let all_validated =
                report.ok && report.validated_claims.iter().all(|r| r.validation_status == Status::Validated);
            Ok(if strict && !all_validated { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
        Command::Find { source, quote, max_edit_distance, max_results, format } => {
            // the flags go through the one options parser: its defaults and bounds
            let mut flags = serde_json::Map::new();
            if let Some(n) = max_edit_distance {
                flags.insert("maxEditDistance".into(), Value::from(n));
            }
            if let Some(n) = max_results {
                flags.insert("maxResults".into(), Value::from(n));
            }
            let options = validate::FindOptions::from_json(&Value::Object(flags))?;
            let text = read_source(&source, Config::default().performance_limits.max_document_size_mb)?;
            let format = format.map(|f| parse_format(&f)).transpose()?;
            let doc = Document::new(text, format)?;
            let found = validate::find(&doc, &quote, &options, &SystemClock);
            let json = serde_json::to_string_pretty(&found).map_err(|e| Failure::Output(e.to_string()))?;
            write_output(None, &json)?;
            Ok(if found.matches.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
        Command::Reanchor { source, selectors, format } => {
            let text = read_source(&source, Config::default().performance_limits.max_document_size_mb)?;
            let saved = parse_json(
                &read_text(&selectors, ErrorKind::Validation)?,
                &selectors.display().to_string(),
                ErrorKind::Validation,
            )?;
            let format = format.map(|f| parse_format(&f)).transpose()?;
            let doc = Document::new(text, format)?;
            let found = validate::reanchor(&doc, &saved, &SystemClock)?;
            for r in &found {
                let at = r.span.as_ref().map_or("-".to_string(), |s| {
                    format!("{}..{} (line {})", s.start_position, s.end_position, s.line_number)
                });
                let status = serde_json::to_value(r.status).ok();
                note(&format!("{} {} {at}", r.id, status.as_ref().and_then(Value::as_str).unwrap_or("?")));
            }
            let json = serde_json::to_string_pretty(&found).map_err(|e| Failure::Output(e.to_string()))?;
            write_output(None, &json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Judge(args) => judge::run_judge(args),
        Command::VerifyReport(args) => judge::run_verify_report(args),
        Command::Transcript(args) => transcript::run(args),
        Command::Finding(args) => finding::run(args),
        Command::Numeric(args) => cite::run_numeric(args),
        Command::Metrics(args) => cite::run_metrics(args),
        Command::Cite(args) => cite::run_cite(args),
        Command::Eval(args) => eval::run(args),
    }
}

fn parse_format(name: &str) -> Result<Format, Error> {
    Format::from_name(name).ok_or_else(|| {
        Error::new(
            ErrorKind::Configuration,
            format!("unknown --format {name:?}; expected markdown, html or plain_text"),
        )
    })
}

/// An evidence, configuration, transcript, items or report file: at most
/// [`INPUT_FILE_LIMIT_MB`].
pub(crate) fn read_text(path: &Path, kind: ErrorKind) -> Result<String, Error> {
    read_text_limited(path, kind, INPUT_FILE_LIMIT_MB as f64, "the input file limit")
}

/// A source document: at most `max_document_size_mb` (the configuration's).
pub(crate) fn read_source(path: &Path, max_document_size_mb: f64) -> Result<String, Error> {
    read_text_limited(path, ErrorKind::DocumentParsing, max_document_size_mb, "max_document_size_mb")
}

/// A source document's bytes, to be decoded as its declared encoding: at
/// most `max_document_size_mb`.
fn read_source_bytes(path: &Path, max_document_size_mb: f64) -> Result<Vec<u8>, Error> {
    read_bytes_limited(path, ErrorKind::DocumentParsing, max_document_size_mb, "max_document_size_mb")
}

/// The one way the CLI reads a file: at most `limit_mb` MiB plus one byte
/// (never the whole of `/dev/zero` or a runaway file); longer is a
/// `DOCUMENT_PARSING_ERROR` naming the file and the limit (`limit_name`).
/// A file that cannot be opened or read, or is not UTF-8, is an error of
/// `kind`.
pub(crate) fn read_text_limited(
    path: &Path,
    kind: ErrorKind,
    limit_mb: f64,
    limit_name: &str,
) -> Result<String, Error> {
    let bytes = read_bytes_limited(path, kind, limit_mb, limit_name)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::new(kind, format!("{} is not valid UTF-8 (invalid byte at offset {at})", path.display()))
            .with_detail("byte_offset", Value::from(at))
    })
}

/// [`read_text_limited`]'s reading, without the UTF-8 check.
fn read_bytes_limited(path: &Path, kind: ErrorKind, limit_mb: f64, limit_name: &str) -> Result<Vec<u8>, Error> {
    let limit = if limit_mb.is_finite() && limit_mb > 0.0 { (limit_mb * 1024.0 * 1024.0) as u64 } else { 0 };
    let cannot = |e: std::io::Error| Error::new(kind, format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(cannot)?;
    // The size on disk is only a hint (0 for /dev/zero, a pipe or /proc).
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0).min(limit.saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::DocumentParsing,
            format!(
                "{} is larger than {limit_name} ({limit_mb} MB = {limit} bytes): refused after reading {limit} bytes and one more",
                path.display()
            ),
        )
        .with_detail("file", Value::String(path.display().to_string()))
        .with_detail("constraint", Value::from(limit_name))
        .with_detail("limit_bytes", Value::from(limit)));
    }
    Ok(bytes)
}

/// JSON text of a file named `name`: strict (a duplicate key is an error
/// naming its path; a byte order mark is skipped).
fn parse_json(text: &str, name: &str, kind: ErrorKind) -> Result<Value, Error> {
    evidence_validator::json::parse(text, kind, name)
}

/// Writes the report (and a newline) to `path`, or to stdout when `None`.
pub(crate) fn write_output(path: Option<&Path>, json: &str) -> Result<(), Failure> {
    match path {
        Some(p) => std::fs::write(p, format!("{json}\n"))
            .map_err(|e| Failure::Output(format!("cannot write {}: {e}", p.display()))),
        None => write_stdout(&format!("{json}\n")),
    }
}

/// The one way the CLI writes to stdout. A reader that went away (`| head
/// -c1`: a broken pipe) is not an error: the rest is dropped quietly and the
/// command keeps its exit code; any other write error is exit 3.
pub(crate) fn write_stdout(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Output(format!("cannot write to stdout: {e}"))),
    }
}
