//! `finding` (spec 003): the `Finding` checks at the command line.
//!
//! ```text
//! evidence-validator finding validate FINDING.json
//! evidence-validator finding verify FINDING.json --source SOURCE
//! evidence-validator finding hash [SPAN]          # SPAN, else stdin
//! ```
//!
//! A finding file is one JSON object with the spec's fields. Without
//! `extraction_span_hash` it is built as `Finding.create_with_hash` builds
//! it (the hash computed); with one, as the `Finding(...)` constructor (the
//! hash as given, checked). `validate` runs `Finding.validate()`, `verify`
//! runs `FindingVerifier.verify_finding()` against the source file (read
//! as the validator reads a source: at most `max_document_size_mb`). Both
//! print `{"valid", "reason", "confidence"}` (the spec's
//! `VerificationResult`) and exit 0 when valid, 1 when the finding is
//! refused, 2 on bad input (a file that cannot be read, not JSON, or
//! fields of the wrong type). `hash` prints `Finding._compute_hash(SPAN)`.

use super::{parse_json, read_source, read_text, write_stdout, Failure};
use clap::{Args, Subcommand};
use evidence_validator::finding::{compute_hash, Finding, FindingVerifier, NewFinding, VerificationResult};
use evidence_validator::validate::Config;
use evidence_validator::{Error, ErrorKind};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `finding`.
#[derive(Args, Debug)]
pub struct FindingArgs {
    #[command(subcommand)]
    command: FindingCommand,
}

#[derive(Subcommand, Debug)]
enum FindingCommand {
    /// Run Finding.validate() on a finding (JSON).
    Validate {
        /// The finding: one JSON object with the spec's fields.
        finding: PathBuf,
    },
    /// Run FindingVerifier.verify_finding() on a finding against its source.
    Verify {
        /// The finding: one JSON object with the spec's fields.
        finding: PathBuf,
        /// The source content (raw text, markdown or HTML).
        #[arg(long)]
        source: PathBuf,
    },
    /// Print the SHA-256 of a whitespace-normalized span (Finding._compute_hash).
    Hash {
        /// The span; read from stdin when absent.
        span: Option<String>,
    },
}

/// Runs `finding`.
pub fn run(args: FindingArgs) -> Result<ExitCode, Failure> {
    match args.command {
        FindingCommand::Validate { finding } => {
            let f = read_finding(&finding)?;
            let result = match f.validate() {
                Ok(()) => VerificationResult { valid: true, reason: "All checks passed".into(), confidence: 1.0 },
                Err(e) => VerificationResult { valid: false, reason: e.to_string(), confidence: 1.0 },
            };
            print_result(&result)
        }
        FindingCommand::Verify { finding, source } => {
            let f = read_finding(&finding)?;
            let text = read_source(&source, Config::default().performance_limits.max_document_size_mb)?;
            print_result(&FindingVerifier::new().verify_finding(&f, &text))
        }
        FindingCommand::Hash { span } => {
            let span = match span {
                Some(s) => s,
                None => read_stdin()?,
            };
            write_stdout(&format!("{}\n", compute_hash(&span)))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A finding file: with `extraction_span_hash` as given, without it with
/// the hash computed (`create_with_hash`).
fn read_finding(path: &Path) -> Result<Finding, Error> {
    let name = path.display().to_string();
    let value = parse_json(&read_text(path, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
    match &value {
        Value::Object(o) if o.contains_key("extraction_span_hash") => Finding::from_json(&value),
        Value::Object(_) => NewFinding::from_json(&value).map(Finding::create_with_hash),
        _ => Err(Error::new(ErrorKind::Validation, format!("{name}: a finding is a JSON object"))
            .with_detail("json_path", Value::from("$"))),
    }
}

fn print_result(result: &VerificationResult) -> Result<ExitCode, Failure> {
    let json = serde_json::to_string_pretty(result).map_err(|e| Failure::Output(e.to_string()))?;
    write_stdout(&format!("{json}\n"))?;
    Ok(if result.valid { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The span from stdin, at most the input file limit.
fn read_stdin() -> Result<String, Error> {
    let limit = super::INPUT_FILE_LIMIT_MB * 1024 * 1024;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::new(ErrorKind::Validation, format!("cannot read stdin: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(ErrorKind::Validation, "the span on stdin is larger than the input file limit"));
    }
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::Validation, "the span on stdin is not UTF-8"))
}
