//! The citation pipeline's commands (spec 004, part 1: the stages without
//! an LLM).
//!
//! ```text
//! evidence-validator numeric --claim TEXT --evidence TEXT [--config FILE]
//! evidence-validator metrics --input FILE
//! evidence-validator cite --input FILE [--config FILE]
//! ```
//!
//! Each prints JSON on stdout. `numeric`: stage 6 on two texts (`verdict`,
//! `match_score`, the components of each side); exit 1 when CONTRADICTED.
//! `metrics`: the evaluation metrics of the parts of the input file.
//! `cite`: stages 1, 3, 5 and 6 on `{query, sources, claims}`. `--config`:
//! the pipeline's configuration (Appendix B toggles and stage settings).
//! Bad input is exit 2 with one line on stderr naming the code and where.

use super::{parse_json, read_text, write_stdout, Failure};
use clap::Args;
use evidence_validator::cite::{self, metrics, CiteConfig, CiteInput, Verdict};
use evidence_validator::host::SystemClock;
use evidence_validator::ErrorKind;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `numeric`.
#[derive(Args, Debug)]
pub struct NumericArgs {
    /// The claim holding a number.
    #[arg(long)]
    claim: String,
    /// The evidence to compare it with.
    #[arg(long)]
    evidence: String,
    /// The pipeline's configuration (JSON): `numeric_qa_verification`,
    /// `enable_numeric_qa_verification`.
    #[arg(long)]
    config: Option<PathBuf>,
}

/// Arguments of `metrics`.
#[derive(Args, Debug)]
pub struct MetricsArgs {
    /// JSON with any of `ranking`, `binary`, `classes`, `raters`,
    /// `calibration`, `citations`.
    #[arg(long)]
    input: PathBuf,
}

/// Arguments of `cite`.
#[derive(Args, Debug)]
pub struct CiteArgs {
    /// JSON `{query, sources: [{id, title, url, content}], claims: [{text, citations}]}`.
    #[arg(long)]
    input: PathBuf,
    /// The pipeline's configuration (JSON).
    #[arg(long)]
    config: Option<PathBuf>,
}

pub(crate) fn config(path: Option<&PathBuf>) -> Result<CiteConfig, Failure> {
    let value = match path {
        Some(p) => {
            parse_json(&read_text(p, ErrorKind::Configuration)?, &p.display().to_string(), ErrorKind::Configuration)?
        }
        None => Value::Null,
    };
    Ok(CiteConfig::from_json(&value)?)
}

fn print<T: Serialize>(value: &T) -> Result<(), Failure> {
    let json = serde_json::to_string_pretty(value).map_err(|e| Failure::Output(e.to_string()))?;
    write_stdout(&format!("{json}\n"))
}

/// `numeric`.
pub fn run_numeric(args: NumericArgs) -> Result<ExitCode, Failure> {
    let config = config(args.config.as_ref())?;
    let result = cite::verify_numeric(&args.claim, &args.evidence, &config)?;
    print(&result)?;
    Ok(if result.verdict == Verdict::Supported { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `metrics`.
pub fn run_metrics(args: MetricsArgs) -> Result<ExitCode, Failure> {
    let name = args.input.display().to_string();
    let input = parse_json(&read_text(&args.input, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
    let deadline = CiteConfig::default().deadline(&SystemClock);
    print(&metrics::evaluate(&input, &deadline)?)?;
    Ok(ExitCode::SUCCESS)
}

/// `cite`.
pub fn run_cite(args: CiteArgs) -> Result<ExitCode, Failure> {
    let config = config(args.config.as_ref())?;
    let name = args.input.display().to_string();
    let input = parse_json(&read_text(&args.input, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
    let input = CiteInput::from_json(&input)?;
    let deadline = config.deadline(&SystemClock);
    print(&cite::run(&input, &config, None, &deadline)?)?;
    Ok(ExitCode::SUCCESS)
}
