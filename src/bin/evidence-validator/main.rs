//! The native command line (spec 000 §1.2).
//!
//! ```text
//! evidence-validator validate --source FILE --evidence FILE [--output FILE]
//!                             [--config FILE] [--format F] [--verbose] [--strict]
//! evidence-validator validate            # the bundled sample
//! evidence-validator find --source FILE QUOTE [--max-edit-distance N]
//! ```
//!
//! Exit codes: 0 report written; 1 `--strict` and some claim is not
//! VALIDATED; 2 bad input (one line on stderr naming the error code and
//! where); 3 the report could not be written.

mod judge;
mod transcript;

use clap::{Parser, Subcommand};
use evidence_validator::host::SystemClock;
use evidence_validator::text::Profile;
use evidence_validator::validate::{self, ClaimSet, Config, Status};
use evidence_validator::{Document, Error, ErrorKind, Format};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
        /// Largest edit distance for fuzzy matches when there is no exact one.
        #[arg(long, default_value_t = 3)]
        max_edit_distance: usize,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(Failure::Input(e)) => {
            eprintln!("evidence-validator: {}", one_line(&e.to_string()));
            ExitCode::from(2)
        }
        Err(Failure::Output(msg)) => {
            eprintln!("evidence-validator: {msg}");
            ExitCode::from(3)
        }
    }
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
            let (source_text, claims_text, claims_name) = match (source, evidence) {
                (Some(s), Some(e)) => (
                    read_text(&s, ErrorKind::DocumentParsing)?,
                    read_text(&e, ErrorKind::Validation)?,
                    e.display().to_string(),
                ),
                _ => {
                    eprintln!("evidence-validator: no --source/--evidence given; validating the bundled sample (samples/incident-review.md, samples/claims.json)");
                    (SAMPLE_SOURCE.to_string(), SAMPLE_CLAIMS.to_string(), "samples/claims.json".to_string())
                }
            };
            let claims_json = parse_json(&claims_text, &claims_name, ErrorKind::Validation)?;
            let config_json = match &config {
                Some(p) => parse_json(
                    &read_text(p, ErrorKind::Configuration)?,
                    &p.display().to_string(),
                    ErrorKind::Configuration,
                )?,
                None => Value::Null,
            };
            let config = Config::from_json(&config_json)?;
            let mut claims = ClaimSet::from_json(&claims_json)?;
            if let Some(f) = format {
                claims.format = Some(parse_format(&f)?);
            }
            validate::check_document(&source_text, &config)?;
            let doc = Document::new(source_text, claims.format)?;
            let report = validate::validate_document(&doc, &claims.claims, &config, &SystemClock)?;
            if verbose {
                for r in &report.validated_claims {
                    let place = r.match_details.as_ref().map_or(String::new(), |m| {
                        format!(" line {} col {} ({:?})", m.location.line_number, m.location.column, m.match_type)
                    });
                    eprintln!("{} {:?} {:.3}{}", r.claim_id, r.validation_status, r.confidence_score, place);
                }
                for w in &report.warnings {
                    eprintln!("warning {}: {}", w.code, w.message);
                }
            }
            let json = serde_json::to_string_pretty(&report).map_err(|e| Failure::Output(e.to_string()))?;
            write_output(output.as_deref(), &json)?;
            let all_validated =
                report.ok && report.validated_claims.iter().all(|r| r.validation_status == Status::Validated);
            Ok(if strict && !all_validated { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
        Command::Find { source, quote, max_edit_distance, format } => {
            let text = read_text(&source, ErrorKind::DocumentParsing)?;
            let format = format.map(|f| parse_format(&f)).transpose()?;
            let doc = Document::new(text, format)?;
            let found = validate::find_quote(&doc, &quote, Profile::default(), max_edit_distance);
            let json = serde_json::to_string_pretty(&found).map_err(|e| Failure::Output(e.to_string()))?;
            write_output(None, &json)?;
            Ok(if found.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
        Command::Judge(args) => judge::run_judge(args),
        Command::VerifyReport(args) => judge::run_verify_report(args),
        Command::Transcript(args) => transcript::run(args),
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

fn read_text(path: &Path, kind: ErrorKind) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::new(kind, format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::new(kind, format!("{} is not valid UTF-8 (invalid byte at offset {at})", path.display()))
            .with_detail("byte_offset", Value::from(at))
    })
}

fn parse_json(text: &str, name: &str, kind: ErrorKind) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| {
        Error::new(kind, format!("{name} is not valid JSON: {e}"))
            .with_detail("line", Value::from(e.line()))
            .with_detail("column", Value::from(e.column()))
    })
}

fn write_output(path: Option<&Path>, json: &str) -> Result<(), Failure> {
    match path {
        Some(p) => std::fs::write(p, format!("{json}\n"))
            .map_err(|e| Failure::Output(format!("cannot write {}: {e}", p.display()))),
        None => {
            println!("{json}");
            Ok(())
        }
    }
}
