//! The citation pipeline's commands (spec 004): the stages without an LLM
//! (part 1), and `cite --llm`, the whole pipeline with an OpenAI-compatible
//! endpoint as its LLM (part 2).
//!
//! ```text
//! evidence-validator numeric --claim TEXT --evidence TEXT [--config FILE]
//! evidence-validator metrics --input FILE
//! evidence-validator cite --input FILE [--config FILE] [--llm URL --model NAME] [--stream]
//! ```
//!
//! Each prints JSON on stdout. `numeric`: stage 6 on two texts (`verdict`,
//! `match_score`, the components of each side); exit 1 when CONTRADICTED.
//! `metrics`: the evaluation metrics of the parts of the input file.
//! `cite`: the whole pipeline (part 2, [`evidence_validator::cite::pipeline`])
//! on `{query, sources, claims, outline?}`: claims in the input skip stage 2;
//! without `--llm` stage 4 is the deterministic verifier and the input must
//! hold claims. `--llm URL --model NAME`: an OpenAI-compatible
//! `/v1/chat/completions` (the judge's HTTP client, shared) answers stages
//! 2, 4 and 6; nothing leaves the machine without it. `--stream`: one JSON
//! line per event (`{"event":"claim",…}`, `{"event":"verified",…}`) as the
//! claims are produced and verified, then `{"event":"report","report":…}`.
//! `--config`: the pipeline's configuration (Appendix B toggles and stage
//! settings, `llm_calls`).
//! Bad input is exit 2 with one line on stderr naming the code and where.

use super::{parse_json, read_text, write_stdout, Failure};
use clap::Args;
use evidence_validator::cite::pipeline::{self, Event, LlmFailure, LlmHost, LlmRequest, Pipeline};
use evidence_validator::cite::{self, metrics, CiteConfig, CiteInput, Verdict};
use evidence_validator::host::SystemClock;
use evidence_validator::ErrorKind;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
    /// JSON `{query, sources: [{id, title, url, content}], claims: [{text,
    /// citations}], outline: [section]}` (claims given skip stage 2).
    #[arg(long)]
    input: PathBuf,
    /// The pipeline's configuration (JSON).
    #[arg(long)]
    config: Option<PathBuf>,
    /// An OpenAI-compatible endpoint (`http://localhost:8080/v1`) for stages
    /// 2, 4 and 6. Without it nothing leaves the machine.
    #[arg(long, requires = "model")]
    llm: Option<String>,
    /// The model the endpoint is asked for.
    #[arg(long, requires = "llm")]
    model: Option<String>,
    /// Print one JSON line per claim and verdict as they come, then the report.
    #[arg(long)]
    stream: bool,
}

/// The CLI's LLM: the judge's HTTP client, one user message per request.
struct ChatHost(super::judge::HttpJuror);

impl LlmHost for ChatHost {
    fn complete(&self, request: &LlmRequest, timeout: Duration) -> Result<String, LlmFailure> {
        // the pipeline's limit: `call_timeout_seconds`, shortened to the time left in the run
        let body = self.0.post_within("", &request.prompt, Some(timeout)).map_err(|f| match f.status {
            _ if f.timed_out => LlmFailure::TimedOut,
            None => LlmFailure::Transient(f.message),
            Some(s) if s == 429 || s >= 500 => LlmFailure::Transient(f.message),
            Some(_) => LlmFailure::Failed(f.message),
        })?;
        chat_content(&body).map_err(LlmFailure::Failed)
    }
}

/// `choices[0].message.content` of a chat completion.
fn chat_content(body: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| format!("the answer is not JSON: {e}"))?;
    value
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| "the answer has no choices[0].message.content".to_string())
}

fn line<T: Serialize>(value: &T) -> Result<(), Failure> {
    let json = serde_json::to_string(value).map_err(|e| Failure::Output(e.to_string()))?;
    write_stdout(&format!("{json}\n"))
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
    let raw = parse_json(&read_text(&args.input, ErrorKind::Validation)?, &name, ErrorKind::Validation)?;
    let (input, outline) = CiteInput::from_pipeline_json(&raw)?;
    let deadline = config.deadline(&SystemClock);
    let host = match (&args.llm, &args.model) {
        (Some(url), Some(model)) => {
            let timeout = Duration::from_secs_f64(config.llm_calls.call_timeout_seconds);
            let juror = super::judge::HttpJuror::endpoint(url, model, timeout)?;
            if super::judge::is_remote(juror.url()) {
                eprintln!("note: the claims and their evidence are sent to {}", juror.url());
            }
            Some(ChatHost(juror))
        }
        _ => None,
    };
    let pipeline = Pipeline::new(input, outline, config, host.is_some(), &deadline)?;
    let mut failed = None;
    let mut emit = |e: &Event| {
        if args.stream && failed.is_none() {
            failed = line(e).err();
        }
    };
    let report = match &host {
        Some(h) => pipeline::run_blocking(pipeline, h, None, &AtomicBool::new(false), &deadline, &mut emit)?,
        None => pipeline::run_sequential(
            pipeline,
            &mut |_| Err(LlmFailure::Failed("no LLM".into())),
            None,
            &deadline,
            &mut emit,
        )?,
    };
    if let Some(f) = failed {
        return Err(f);
    }
    if args.stream {
        line(&serde_json::json!({"event": "report", "report": report}))?;
    } else {
        print(&report)?;
    }
    Ok(ExitCode::SUCCESS)
}
