//! `eval`: the evaluation runner of spec 004 Part VII on a published
//! dataset (the core is `evidence_validator::cite::eval`; this reads the
//! files and prints).
//!
//! ```text
//! evidence-validator eval --dataset fever    --input shared_task_dev.jsonl --sources wiki-001.jsonl [--sources …]
//! evidence-validator eval --dataset ragtruth --input response.jsonl --sources source_info.jsonl
//! evidence-validator eval --dataset alce     --input asqa_result.json
//!                         [--config FILE] [--format table|json]
//! ```
//!
//! Prints the per-stage metrics with every toggle on and the toggle
//! ablation (§7.5), as a table (default) or JSON. Exit 0 printed; 2 bad
//! input (one line on stderr naming the file, line and field); 3 the output
//! could not be written. FEVER's pages files are read line by line (each
//! wiki-NNN.jsonl of the dump can be given; only the pages the claims name
//! are kept, and reading stops once all are found), each line at most
//! [`PAGE_LINE_LIMIT`] bytes.

use super::{cite::config, read_text, write_stdout, Failure};
use clap::Args;
use evidence_validator::cite::eval::{self, alce, fever, ragtruth, Dataset, EvalReport};
use evidence_validator::host::{Deadline, SystemClock};
use evidence_validator::{Error, ErrorKind};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Longest line of a FEVER pages file, in bytes.
pub const PAGE_LINE_LIMIT: u64 = 16 << 20;

/// Arguments of `eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// fever, ragtruth or alce.
    #[arg(long)]
    dataset: String,
    /// FEVER claims (JSONL), RAGTruth response.jsonl, or an ALCE data or
    /// result file (JSON).
    #[arg(long)]
    input: PathBuf,
    /// FEVER: wiki-pages JSONL files (repeat the flag); RAGTruth:
    /// source_info.jsonl; ALCE: none.
    #[arg(long)]
    sources: Vec<PathBuf>,
    /// The pipeline's configuration (JSON); the ablation's toggles are set
    /// by the runner.
    #[arg(long)]
    config: Option<PathBuf>,
    /// table (default) or json.
    #[arg(long, default_value = "table")]
    format: String,
}

fn bad_flag(message: String) -> Failure {
    Failure::Input(Error::new(ErrorKind::Configuration, message))
}

/// `eval`.
pub fn run(args: EvalArgs) -> Result<ExitCode, Failure> {
    let dataset = Dataset::from_name(&args.dataset)
        .ok_or_else(|| bad_flag(format!("unknown --dataset {:?}; expected fever, ragtruth or alce", args.dataset)))?;
    let json = match args.format.as_str() {
        "table" => false,
        "json" => true,
        other => return Err(bad_flag(format!("unknown --format {other:?}; expected table or json"))),
    };
    let wanted = match dataset {
        Dataset::Fever => "one or more wiki-pages JSONL files",
        Dataset::Ragtruth => "exactly one source_info.jsonl",
        Dataset::Alce => "none",
    };
    let sources_ok = match dataset {
        Dataset::Fever => !args.sources.is_empty(),
        Dataset::Ragtruth => args.sources.len() == 1,
        Dataset::Alce => args.sources.is_empty(),
    };
    if !sources_ok {
        return Err(bad_flag(format!("--dataset {} takes --sources: {wanted}", args.dataset.to_lowercase())));
    }
    let config = config(args.config.as_ref())?;
    let clock = SystemClock;
    let deadline = eval::deadline(&clock);
    let name = |p: &Path| p.display().to_string();
    let input = read_text(&args.input, ErrorKind::Validation)?;
    let cases = match dataset {
        Dataset::Fever => {
            let claims = fever::read_claims(&input, &name(&args.input), &deadline)?;
            let mut pages = fever::WikiPages::new(&claims);
            for path in &args.sources {
                if pages.missing() == 0 {
                    break;
                }
                read_pages(path, &mut pages, &deadline)?;
            }
            pages.cases(&claims, &deadline)?
        }
        Dataset::Ragtruth => {
            let responses = ragtruth::read_responses(&input, &name(&args.input), &deadline)?;
            let path = &args.sources[0];
            let sources = ragtruth::read_sources(&read_text(path, ErrorKind::Validation)?, &name(path), &deadline)?;
            ragtruth::cases(&responses, &sources, &deadline)?
        }
        Dataset::Alce => alce::read(&input, &name(&args.input), &deadline)?,
    };
    let report = eval::evaluate(dataset, &cases, &config, &deadline)?;
    let text = if json {
        let mut s = serde_json::to_string_pretty(&report).map_err(|e| Failure::Output(e.to_string()))?;
        s.push('\n');
        s
    } else {
        table(&report)
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Feeds `path`'s lines to `pages`, stopping once every page is found.
fn read_pages(path: &Path, pages: &mut fever::WikiPages, deadline: &Deadline) -> Result<(), Error> {
    let name = path.display().to_string();
    let cannot = |e: std::io::Error| Error::new(ErrorKind::Validation, format!("cannot read {name}: {e}"));
    let mut reader = std::io::BufReader::new(std::fs::File::open(path).map_err(cannot)?);
    let mut buf = Vec::new();
    for line in 1.. {
        buf.clear();
        let n = (&mut reader).take(PAGE_LINE_LIMIT + 1).read_until(b'\n', &mut buf).map_err(cannot)?;
        if n == 0 {
            break;
        }
        if buf.len() as u64 > PAGE_LINE_LIMIT {
            return Err(Error::new(
                ErrorKind::Validation,
                format!("{name} line {line} is longer than {PAGE_LINE_LIMIT} bytes"),
            ));
        }
        let text = std::str::from_utf8(&buf)
            .map_err(|e| Error::new(ErrorKind::Validation, format!("{name} line {line} is not valid UTF-8 ({e})")))?;
        pages.add_line(&name, line, text.trim_end_matches(['\n', '\r']), deadline)?;
        if pages.missing() == 0 {
            break;
        }
    }
    Ok(())
}

fn value(v: Option<f64>) -> String {
    v.map_or_else(|| "n/a".to_string(), |x| format!("{x:.4}"))
}

/// The report as text: each stage's metrics, then the ablation with one
/// column per configuration.
fn table(r: &EvalReport) -> String {
    let mut out = format!(
        "{}: {} items, {} claims; k = {}; verdicts: {}\n",
        r.dataset.title(),
        r.items,
        r.claims,
        r.k,
        r.verdicts
    );
    for s in &r.stages {
        out.push_str(&format!("\nstage {} (gold: {}; {} scored)\n", s.stage, s.gold, s.evaluated));
        for m in &s.metrics {
            out.push_str(&format!("  {:<28} {:>8}\n", m.name, value(m.value)));
        }
    }
    out.push_str("\nablation (§7.5): each toggle off in turn\n");
    let short: Vec<String> = r
        .ablation
        .iter()
        .map(|a| match a.configuration.strip_prefix("enable_").and_then(|c| c.strip_suffix(" off")) {
            Some(t) => format!("-{}", t.split('_').next().unwrap_or(t)),
            None => a.configuration.clone(),
        })
        .collect();
    out.push_str(&format!("  {:<28}", "metric"));
    for s in &short {
        out.push_str(&format!(" {s:>12}"));
    }
    out.push('\n');
    if let Some(first) = r.ablation.first() {
        for (i, m) in first.metrics.iter().enumerate() {
            out.push_str(&format!("  {:<28}", m.name));
            for row in &r.ablation {
                out.push_str(&format!(" {:>12}", value(row.metrics.get(i).and_then(|x| x.value))));
            }
            out.push('\n');
        }
    }
    // the spec's test of each configuration against all on (§7.5)
    let tests: Vec<Option<&evidence_validator::cite::eval::AblationTest>> =
        r.ablation.iter().map(|a| a.significance.as_ref()).collect();
    type Cell = fn(&evidence_validator::cite::eval::AblationTest) -> String;
    let rows: [(&str, Cell); 6] = [
        ("test", |t| t.result.test.to_string()),
        ("statistic", |t| match (t.result.statistic, t.mcnemar) {
            (Some(s), _) => format!("{s:.4}"),
            (None, Some(_)) => "-".to_string(),
            (None, None) => "inf".to_string(),
        }),
        ("df", |t| t.result.df.map_or_else(|| "-".to_string(), |d| format!("{d}"))),
        ("p_value", |t| format!("{:.4}", t.result.p_value)),
        ("mcnemar_b_c", |t| {
            t.mcnemar.map_or_else(|| "-".to_string(), |m| format!("{}/{}", m.first_only, m.second_only))
        }),
        ("mean_on_off", |t| t.means.map_or_else(|| "-".to_string(), |(a, b)| format!("{a:.3}/{b:.3}"))),
    ];
    for (name, cell) in rows {
        out.push_str(&format!("  {name:<28}"));
        for t in &tests {
            out.push_str(&format!(" {:>12}", t.map_or_else(|| "-".to_string(), cell)));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "  (mcnemar: b right with all on only, c with the toggle off only, exact (no df) below 25 discordant claims; mcnemar and paired_t_test on {}; t_test on stage 4's LLM calls per claim with an LLM; chi2 on the verdict counts; statistic inf: no variance and the means differ)\n",
        r.outcome
    ));
    out.push_str("\nnotes:\n");
    for n in &r.notes {
        out.push_str(&format!("  - {n}\n"));
    }
    out
}
