//! `judge` and `verify-report` (spec 002 "CLI usage"): one claim against
//! the cited lines of a canonical file, or every citation of a markdown
//! report.
//!
//! ```text
//! evidence-validator judge CLAIM QUOTE FILENAME START_LINE END_LINE
//!     [--canonical-dir DIR] [--judge NAME[=URL][,model=M][,timeout=S][,key_env=VAR]]...
//!     [--no-jury] [--dry-run] [--threshold 0.8] [--context-lines 5] [--autojunk] [--score-only]
//!     [--timeout SECONDS] [--log-dir DIR] [--log-name NAME] [--output FILE] [--strict]
//! evidence-validator verify-report REPORT.md [same jury options] [--output-dir DIR] [--strict]
//! ```
//!
//! The jury (issue 13: nothing leaves the machine unless asked): the
//! `--judge` values if any; else the local jurors (spec 002: "Local LLM (LM
//! Studio/Ollama)"): `local` at `LOCAL_LLM_BASE_URL` when it is set, else
//! both usual local addresses, `local` (LM Studio, `http://localhost:1234/v1`)
//! and `ollama` (`OLLAMA_HOST`, default `http://localhost:11434`, + `/v1`);
//! an unreachable one is that juror's logged error, and when every juror
//! fails the verdict is `LLM_ERROR`; none with `--no-jury`. **An API key in the environment never
//! adds a juror**: `GOOGLE_API_KEY` and `OPENAI_API_KEY` are only read when
//! `--judge gemini` (gemma-3-27b-it on Google's OpenAI-compatible endpoint)
//! or `--judge openai` (gpt-4o-mini) names that juror. Every juror is an
//! OpenAI-compatible chat completion endpoint (LM Studio, Ollama's `/v1`,
//! llama.cpp server), asked on its own thread with its own timeout. With no
//! juror, steps 1 and 2 run and the result says the jury was not convened
//! (verdict `JURY_NOT_CONVENED` when the quote is found). `--dry-run`
//! prints the jury (each juror's URL, model, whether it is remote) and
//! exits without reading a file or asking anyone.
//!
//! Cited files are read from the canonical directory only
//! ([`evidence_validator::judge::canonical`]): a name or symlink resolving
//! outside it is refused (`judge`: exit 2 with the typed error;
//! `verify-report`: that citation is `FILE_NOT_FOUND`, its error says why).
//! `verify-report` reads each file once, and reports citations with a wrong
//! range (`L7-L5`, `L0`, a number too large) in `invalid_citations`;
//! `--strict` fails on them.
//!
//! Every prompt and raw response goes to
//! `<log-dir>/<report>/<judge>_NNNN.txt` (default log dir
//! `debug_output/llm_logs`), numbered on from the files already there.
//!
//! Exit codes: 0 result written; 1 `--strict` and not verified (every
//! citation, for `verify-report`, and no invalid citation); 2 bad arguments
//! or a refused file; 3 output not written.

use super::Failure;
use clap::Args;
use evidence_validator::host::{rfc3339, Clock, SystemClock};
use evidence_validator::judge::blocking::{self, Juror};
use evidence_validator::judge::canonical::{self, SourceError};
use evidence_validator::judge::citations::{parse_report, BatchReport, CitationResult, CitedFiles, Lookup};
use evidence_validator::judge::lines::{parse_line_number, LineIndex};
use evidence_validator::judge::log::{safe_file_stem, LogBook, LogEntry};
use evidence_validator::judge::{
    check_juror_names, ClaimRequest, JudgeCall, JudgeConfig, JudgeOptions, MAX_TIMEOUT_MS,
};
use evidence_validator::{Error, ErrorKind};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Where and how to judge: shared by both subcommands.
#[derive(Args, Debug)]
pub struct JuryArgs {
    /// Directory of the canonical ("baked") source files.
    #[arg(long, default_value = "data/canonical/")]
    canonical_dir: PathBuf,
    /// A juror: NAME=URL of an OpenAI-compatible endpoint (e.g.
    /// local=http://localhost:1234/v1), with optional ,model=M ,timeout=SECONDS
    /// ,key_env=VAR (the variable holding a bearer token). `local`, `gemini`
    /// and `openai` alone name presets. Repeat for a jury. Without any, the
    /// local juror alone is asked (LOCAL_LLM_BASE_URL, default
    /// http://localhost:1234/v1) and nothing leaves the machine: remote
    /// jurors (`--judge openai`, `--judge gemini`, a remote URL) are opt-in,
    /// and OPENAI_API_KEY or GOOGLE_API_KEY in the environment never adds
    /// one.
    #[arg(long = "judge", value_name = "NAME[=URL][,model=M]")]
    judges: Vec<String>,
    /// No jury at all: steps 1 and 2 only, no juror is asked (also
    /// --no-env-judges, its former name).
    #[arg(long, alias = "no-env-judges")]
    no_jury: bool,
    /// Print the jury (each juror's name, URL, model, whether it is
    /// remote) as JSON and exit: no file is read and no juror asked.
    #[arg(long)]
    dry_run: bool,
    /// Step 2 passes at this score (0 to 1; default 0.8).
    #[arg(long)]
    threshold: Option<f64>,
    /// Lines of context before and after the cited lines (default 5).
    #[arg(long)]
    context_lines: Option<u64>,
    /// Use CPython's autojunk heuristic in step 2 (off by default: it makes
    /// the score meaningless on areas of 200+ characters).
    #[arg(long)]
    autojunk: bool,
    /// Step 2 by the spec's score alone: do not refuse a quote that passes
    /// the threshold but changes a number, negation or word of the cited
    /// text (compared word by word by default).
    #[arg(long)]
    score_only: bool,
    /// Seconds each juror may take (unless its own timeout= says otherwise;
    /// default 120).
    #[arg(long)]
    timeout: Option<f64>,
    /// Root of the prompt/response logs.
    #[arg(long, default_value = "debug_output/llm_logs")]
    log_dir: PathBuf,
}

/// `judge`: the spec's single-claim arguments.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The claim being made.
    claim: String,
    /// The quote used as evidence.
    quote: String,
    /// The cited file, in the canonical directory.
    filename: String,
    /// First cited line (13326 or L13326).
    start_line: String,
    /// Last cited line.
    end_line: String,
    #[command(flatten)]
    jury: JuryArgs,
    /// Name of the log subdirectory.
    #[arg(long, default_value = "judge")]
    log_name: String,
    /// Write the result here (stdout when absent).
    #[arg(long)]
    output: Option<PathBuf>,
    /// Exit with status 1 unless the verdict is VALID.
    #[arg(long)]
    strict: bool,
}

/// `verify-report`: every citation of a markdown report.
#[derive(Args, Debug)]
pub struct VerifyReportArgs {
    /// The markdown report.
    report: PathBuf,
    #[command(flatten)]
    jury: JuryArgs,
    /// Where to write `<report>_verification.json` and `.md`.
    #[arg(long, default_value = "reports/verification_reports/")]
    output_dir: PathBuf,
    /// Exit with status 1 unless every citation is VALID; a citation with
    /// a bad range (L7-L5, L0, a number too large) is never VALID.
    #[arg(long)]
    strict: bool,
}

/// A juror behind an OpenAI-compatible chat completion endpoint (and the
/// citation pipeline's `--llm`).
pub(crate) struct HttpJuror {
    name: String,
    url: String,
    model: String,
    api_key: Option<String>,
    timeout: Option<Duration>,
    agent: ureq::Agent,
}

impl Juror for HttpJuror {
    fn name(&self) -> &str {
        &self.name
    }

    /// POSTs the chat request; the raw response body is the answer (the
    /// core unwraps `choices[0].message.content`, and the log keeps the raw
    /// JSON as the spec asks).
    fn ask(&self, system: &str, prompt: &str) -> Result<String, String> {
        self.post(system, prompt).map_err(|f| f.message)
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }
}

/// Why a chat request gave no answer.
pub(crate) struct HttpFailure {
    /// The HTTP status, when the server answered.
    pub(crate) status: Option<u16>,
    /// The request timed out.
    pub(crate) timed_out: bool,
    /// What went wrong.
    pub(crate) message: String,
}

impl HttpJuror {
    /// A chat endpoint at `base` (`http://host/v1` or the whole
    /// `…/chat/completions` URL) asking `model`, each call at most
    /// `timeout` (the citation pipeline's `--llm`).
    pub(crate) fn endpoint(base: &str, model: &str, timeout: Duration) -> Result<HttpJuror, Failure> {
        let agent: ureq::Agent =
            ureq::Agent::config_builder().timeout_global(Some(timeout)).http_status_as_error(false).build().into();
        Ok(HttpJuror {
            name: model.to_string(),
            url: completions_url(base)?,
            model: model.to_string(),
            api_key: None,
            timeout: Some(timeout),
            agent,
        })
    }

    /// The URL asked.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// POSTs one chat request (`system` left out when empty); the raw
    /// response body on a 2xx status.
    pub(crate) fn post(&self, system: &str, prompt: &str) -> Result<String, HttpFailure> {
        self.post_within(system, prompt, None)
    }

    /// [`HttpJuror::post`] within `timeout` when given (instead of the
    /// agent's own): the citation pipeline's calls, shortened to the time
    /// left in its run.
    pub(crate) fn post_within(
        &self,
        system: &str,
        prompt: &str,
        timeout: Option<Duration>,
    ) -> Result<String, HttpFailure> {
        let mut messages = Vec::new();
        if !system.is_empty() {
            messages.push(json!({"role": "system", "content": system}));
        }
        messages.push(json!({"role": "user", "content": prompt}));
        let body = json!({"model": self.model, "messages": messages, "temperature": 0, "stream": false});
        let mut request = self.agent.post(&self.url).header("Content-Type", "application/json");
        if let Some(t) = timeout {
            request = request.config().timeout_global(Some(t)).build();
        }
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let fail = |status, timed_out, message| HttpFailure { status, timed_out, message };
        let mut response = request.send(body.to_string()).map_err(|e| {
            let timed_out = matches!(e, ureq::Error::Timeout(_));
            fail(None, timed_out, format!("POST {}: {e}", self.url))
        })?;
        let status = response.status();
        let text = response.body_mut().read_to_string().map_err(|e| {
            let timed_out = matches!(e, ureq::Error::Timeout(_));
            fail(Some(status.as_u16()), timed_out, format!("reading the response of {}: {e}", self.url))
        })?;
        if !status.is_success() {
            let short: String = text.chars().take(500).collect();
            return Err(fail(Some(status.as_u16()), false, format!("HTTP {status} from {}: {short}", self.url)));
        }
        Ok(text)
    }
}

fn config_error(message: String) -> Failure {
    Failure::Input(Error::new(ErrorKind::Configuration, message))
}

/// `https://host/v1` → `https://host/v1/chat/completions` (kept when it
/// already ends so).
fn completions_url(base: &str) -> Result<String, Failure> {
    let base = base.trim();
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        return Err(config_error(format!("juror URL {base:?} must start with http:// or https://")));
    }
    if base.trim_end_matches('/').ends_with("/chat/completions") {
        return Ok(base.trim_end_matches('/').to_string());
    }
    Ok(format!("{}/chat/completions", base.trim_end_matches('/')))
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The model asked of the default `ollama` juror (`--judge ollama,model=M`
/// for another; Ollama answers 404 for a model it has not pulled, which is
/// that juror's logged error).
const OLLAMA_MODEL: &str = "llama3.2";

/// Ollama's OpenAI-compatible base URL: `OLLAMA_HOST` (Ollama's own
/// variable: `host:port` or a URL) + `/v1`, default `http://localhost:11434/v1`.
fn ollama_base_url() -> String {
    let host = env("OLLAMA_HOST").unwrap_or_else(|| "localhost:11434".into());
    let host = host.trim().trim_end_matches('/');
    let with_scheme = if host.starts_with("http://") || host.starts_with("https://") {
        host.to_string()
    } else {
        format!("http://{host}")
    };
    format!("{with_scheme}/v1")
}

/// (url, model, key env) of a preset juror name.
fn preset(name: &str) -> Option<(String, &'static str, Option<&'static str>)> {
    match name {
        "local" => {
            Some((env("LOCAL_LLM_BASE_URL").unwrap_or_else(|| "http://localhost:1234/v1".into()), "local-model", None))
        }
        "gemini" => Some((
            "https://generativelanguage.googleapis.com/v1beta/openai".into(),
            "gemma-3-27b-it",
            Some("GOOGLE_API_KEY"),
        )),
        "openai" => Some(("https://api.openai.com/v1".into(), "gpt-4o-mini", Some("OPENAI_API_KEY"))),
        "ollama" => Some((ollama_base_url(), OLLAMA_MODEL, None)),
        _ => None,
    }
}

/// One `--judge` value.
fn parse_juror(spec: &str, default_timeout: Duration) -> Result<HttpJuror, Failure> {
    let mut parts = spec.split(',');
    let head = parts.next().unwrap_or("").trim();
    let (name, url) = match head.split_once('=') {
        Some((n, u)) => (n.trim().to_string(), Some(u.trim().to_string())),
        None => (head.to_string(), None),
    };
    if name.is_empty() {
        return Err(config_error(format!("--judge {spec:?}: the juror needs a name (NAME=URL)")));
    }
    let known = preset(&name);
    let (mut model, mut key_env) = match &known {
        Some((_, m, k)) => (m.to_string(), k.map(str::to_string)),
        None => ("local-model".to_string(), None),
    };
    let url = match (url, &known) {
        (Some(u), _) => u,
        (None, Some((u, _, _))) => u.clone(),
        (None, None) => {
            return Err(config_error(format!(
                "--judge {spec:?}: give a URL (NAME=URL); only local, gemini and openai have defaults"
            )))
        }
    };
    let mut timeout = None;
    for part in parts {
        let (k, v) = part.split_once('=').map(|(k, v)| (k.trim(), v.trim())).unwrap_or((part.trim(), ""));
        match k {
            "model" if !v.is_empty() => model = v.to_string(),
            "key_env" if !v.is_empty() => key_env = Some(v.to_string()),
            "timeout" => match v.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s * 1000.0 <= MAX_TIMEOUT_MS as f64 => {
                    timeout = Some(Duration::from_secs_f64(s))
                }
                _ => {
                    return Err(config_error(format!(
                        "--judge {spec:?}: timeout must be seconds above 0 and at most {}, got {v:?}",
                        MAX_TIMEOUT_MS / 1000
                    )))
                }
            },
            _ => {
                return Err(config_error(format!(
                    "--judge {spec:?}: unknown option {part:?}; expected model=M, timeout=SECONDS or key_env=VAR"
                )))
            }
        }
    }
    let api_key = match &key_env {
        Some(var) => {
            Some(env(var).ok_or_else(|| config_error(format!("juror {name}: environment variable {var} is not set")))?)
        }
        None => None,
    };
    let limit = timeout.unwrap_or(default_timeout) + Duration::from_secs(1);
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(limit)).http_status_as_error(false).build().into();
    Ok(HttpJuror { name, url: completions_url(&url)?, model, api_key, timeout, agent })
}

/// Whether a juror's URL leaves the machine (any host but localhost,
/// 127.0.0.0/8 and ::1).
pub(crate) fn is_remote(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.to_ascii_lowercase();
    let loopback_v4 = host.strip_prefix("127.").is_some_and(|r| {
        let parts: Vec<&str> = r.split('.').collect();
        parts.len() == 3 && parts.iter().all(|p| p.parse::<u8>().is_ok())
    });
    !(host == "localhost" || host.ends_with(".localhost") || host == "::1" || loopback_v4)
}

/// The jury (see the module documentation): the `--judge` values, else the
/// local jurors (the one at `LOCAL_LLM_BASE_URL`, or LM Studio and Ollama
/// at their usual addresses), none with `--no-jury`. The environment's API keys are
/// read only for the presets named with `--judge`.
fn jurors(args: &JuryArgs, config: &JudgeConfig) -> Result<Vec<HttpJuror>, Failure> {
    let default_timeout = Duration::from_millis(config.timeout_ms);
    if args.no_jury {
        if !args.judges.is_empty() {
            return Err(config_error("--no-jury and --judge contradict each other".into()));
        }
        return Ok(Vec::new());
    }
    let out: Vec<HttpJuror> = if args.judges.is_empty() && env("LOCAL_LLM_BASE_URL").is_some() {
        vec![parse_juror("local", default_timeout)?]
    } else if args.judges.is_empty() {
        // LM Studio's and Ollama's usual addresses: whichever runs answers
        vec![parse_juror("local", default_timeout)?, parse_juror("ollama", default_timeout)?]
    } else {
        args.judges.iter().map(|s| parse_juror(s, default_timeout)).collect::<Result<_, _>>()?
    };
    let names: Vec<String> = out.iter().map(|j| j.name.clone()).collect();
    check_juror_names(&names)?;
    Ok(out)
}

/// The jury as JSON (`--dry-run`, and the line on stderr).
fn jury_plan(jurors: &[HttpJuror]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = jurors
        .iter()
        .map(|j| {
            json!({
                "name": j.name, "url": j.url, "model": j.model, "remote": is_remote(&j.url),
                "sends_api_key": j.api_key.is_some(),
            })
        })
        .collect();
    json!({
        "jurors": list,
        "leaves_machine": jurors.iter().any(|j| is_remote(&j.url)),
    })
}

/// Says on stderr who will be asked (and warns when a document leaves the machine).
fn announce(jurors: &[HttpJuror]) {
    if jurors.is_empty() {
        eprintln!("evidence-validator: --no-jury: steps 1 and 2 only, the jury is not convened");
        return;
    }
    let list: Vec<String> = jurors.iter().map(|j| format!("{} ({}, {})", j.name, j.url, j.model)).collect();
    eprintln!("evidence-validator: jury: {}", list.join("; "));
    for j in jurors.iter().filter(|j| is_remote(&j.url)) {
        eprintln!(
            "evidence-validator: juror {} is remote: the cited lines and their context are sent to {}",
            j.name, j.url
        );
    }
}

/// Builds the jury; with `--dry-run`, prints it and says to stop.
fn convene(args: &JuryArgs, config: &JudgeConfig) -> Result<Option<Vec<Arc<dyn Juror>>>, Failure> {
    let list = jurors(args, config)?;
    if args.dry_run {
        let text = serde_json::to_string_pretty(&jury_plan(&list)).map_err(|e| Failure::Output(e.to_string()))?;
        super::write_output(None, &text)?;
        return Ok(None);
    }
    announce(&list);
    Ok(Some(list.into_iter().map(|j| Arc::new(j) as Arc<dyn Juror>).collect()))
}

/// The flags through the one options parser (its defaults and bounds):
/// `--timeout` in seconds is its `timeoutMs`.
fn judge_config(args: &JuryArgs) -> Result<JudgeConfig, Failure> {
    let mut flags = serde_json::Map::new();
    if let Some(t) = args.threshold {
        flags.insert("threshold".into(), json!(t));
    }
    if let Some(n) = args.context_lines {
        flags.insert("contextLines".into(), json!(n));
    }
    if args.autojunk {
        flags.insert("autojunk".into(), json!(true));
    }
    if args.score_only {
        flags.insert("compareWords".into(), json!(false));
    }
    if let Some(seconds) = args.timeout {
        if !seconds.is_finite() {
            return Err(config_error(format!("--timeout must be a number of seconds, got {seconds}")));
        }
        flags.insert("timeoutMs".into(), json!(seconds * 1000.0));
    }
    let options = JudgeOptions::from_json(&serde_json::Value::Object(flags), JudgeCall::Jury)?;
    Ok(options.config)
}

/// The text of `name` in the canonical directory, or why not
/// ([`canonical::read`]: names and symlinks leaving the directory are
/// refused).
fn read_canonical(dir: &Path, name: &str) -> Result<String, SourceError> {
    let (text, lossy) = canonical::read(dir, name)?;
    if lossy {
        eprintln!("evidence-validator: warning: {name} is not valid UTF-8; invalid bytes replaced");
    }
    Ok(text)
}

/// Writes log entries under `<root>/<report>/`, numbering on from the files
/// already there.
struct LogWriter {
    dir: PathBuf,
    warned: bool,
}

impl LogWriter {
    /// The writer and the book numbering its entries.
    fn new(root: &Path, report: &str, jurors: &[Arc<dyn Juror>]) -> (LogWriter, LogBook) {
        let dir = root.join(safe_file_stem(report));
        let mut book = LogBook::new();
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let files: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
            for j in jurors {
                let prefix = format!("{}_", safe_file_stem(j.name()));
                let last = files
                    .iter()
                    .filter_map(|f| f.strip_prefix(&prefix)?.strip_suffix(".txt")?.parse::<u32>().ok())
                    .max();
                if let Some(last) = last {
                    book.resume_after(j.name(), last);
                }
            }
        }
        (LogWriter { dir, warned: false }, book)
    }

    fn write(&mut self, entry: &LogEntry) {
        let result = std::fs::create_dir_all(&self.dir)
            .and_then(|_| std::fs::write(self.dir.join(&entry.file_name), &entry.text));
        if let Err(e) = result {
            if !self.warned {
                eprintln!("evidence-validator: warning: cannot write logs to {}: {e}", self.dir.display());
                self.warned = true;
            }
        }
    }
}

fn line_arg(value: &str, what: &str) -> Result<usize, Failure> {
    parse_line_number(value).ok_or_else(|| {
        Failure::Input(Error::new(
            ErrorKind::Validation,
            format!("{what} must be a line number like 13326 or L13326, got {value:?}"),
        ))
    })
}

/// `evidence-validator judge ...`
pub fn run_judge(args: JudgeArgs) -> Result<ExitCode, Failure> {
    let config = judge_config(&args.jury)?;
    let start = line_arg(&args.start_line, "START_LINE")?;
    let end = line_arg(&args.end_line, "END_LINE")?;
    let Some(jurors) = convene(&args.jury, &config)? else {
        return Ok(ExitCode::SUCCESS);
    };
    let source = match read_canonical(&args.jury.canonical_dir, &args.filename) {
        Ok(text) => Ok(text),
        Err(SourceError::Refused(e)) => return Err(Failure::Input(e)),
        Err(SourceError::Missing(m)) => Err(m),
    };
    let request = ClaimRequest::new(args.claim, args.quote, args.filename, start, end);
    let (mut logs, mut book) = LogWriter::new(&args.jury.log_dir, &args.log_name, &jurors);
    let lines = LineIndex::new(source.as_deref().unwrap_or_default());
    let result = blocking::verify_claim(
        request,
        source.as_deref().map(|text| (text, &lines)).map_err(Clone::clone),
        &config,
        &jurors,
        &mut book,
        &mut |e| logs.write(e),
    )?;
    let text = serde_json::to_string_pretty(&result).map_err(|e| Failure::Output(e.to_string()))?;
    super::write_output(args.output.as_deref(), &text)?;
    Ok(if args.strict && !result.verified { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `evidence-validator verify-report ...`
pub fn run_verify_report(args: VerifyReportArgs) -> Result<ExitCode, Failure> {
    let config = judge_config(&args.jury)?;
    let markdown = super::read_text(&args.report, ErrorKind::DocumentParsing)?;
    let Some(jurors) = convene(&args.jury, &config)? else {
        return Ok(ExitCode::SUCCESS);
    };
    let name = args.report.file_stem().map_or_else(|| "report".to_string(), |s| s.to_string_lossy().into_owned());
    let (mut logs, mut book) = LogWriter::new(&args.jury.log_dir, &name, &jurors);
    let parsed = parse_report(&markdown);
    eprintln!(
        "evidence-validator: {} citation(s) in {}{}",
        parsed.citations.len(),
        args.report.display(),
        if parsed.invalid.is_empty() { String::new() } else { format!(", {} invalid", parsed.invalid.len()) }
    );
    for c in &parsed.invalid {
        eprintln!("  invalid citation {} (report line {}): {}", c.markdown, c.report_line, c.problem);
    }
    // each file read once, however many citations name it
    let mut files = CitedFiles::new();
    let mut results = Vec::with_capacity(parsed.citations.len());
    for c in parsed.citations {
        let (resolved, source) = files.resolve(&c, |name| match read_canonical(&args.jury.canonical_dir, name) {
            Ok(text) => Lookup::Found(text),
            Err(e @ SourceError::Refused(_)) => Lookup::Refused(e.message()),
            Err(e) => Lookup::Missing(e.message()),
        });
        let result = blocking::verify_claim(c.request(), source, &config, &jurors, &mut book, &mut |e| logs.write(e))?;
        eprintln!("  {}. {} {} -> {}", c.index, c.file, result.cited_lines, result.verdict.as_str());
        results.push(CitationResult { citation: c, resolved_file: resolved, result });
    }
    let report = BatchReport::new(name.clone(), rfc3339(SystemClock.now_ms()), results).with_invalid(parsed.invalid);
    let out_err = |p: &Path, e: std::io::Error| Failure::Output(format!("cannot write {}: {e}", p.display()));
    std::fs::create_dir_all(&args.output_dir).map_err(|e| out_err(&args.output_dir, e))?;
    let stem = safe_file_stem(&name);
    let json_path = args.output_dir.join(format!("{stem}_verification.json"));
    let md_path = args.output_dir.join(format!("{stem}_verification.md"));
    let json_text = serde_json::to_string_pretty(&report).map_err(|e| Failure::Output(e.to_string()))?;
    std::fs::write(&json_path, format!("{json_text}\n")).map_err(|e| out_err(&json_path, e))?;
    std::fs::write(&md_path, report.to_markdown()).map_err(|e| out_err(&md_path, e))?;
    let summary = json!({
        "report": name,
        "summary": report.summary,
        "invalid_citations": report.invalid_citations,
        "json_report": json_path.display().to_string(),
        "markdown_report": md_path.display().to_string(),
    });
    let text = serde_json::to_string_pretty(&summary).map_err(|e| Failure::Output(e.to_string()))?;
    super::write_output(None, &text)?;
    Ok(if args.strict && !report.all_verified() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
