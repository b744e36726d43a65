//! Step 2 against CPython: for 1200 generated (document, cited range,
//! quote) cases, the judge's own pipeline (step 1's search area, the
//! judge's normalization, the score) must give exactly what CPython 3's
//! `re` + `difflib` give on the same input, bit for bit, with `autojunk`
//! off (the default) and on. One `python3` process computes every case;
//! the test fails where `python3` is absent (the oracle is required).
//!
//! The generator mixes case, Python-only whitespace (U+001C..U+001F),
//! Unicode whitespace (NBSP, U+3000, U+2028), line tags and near-tags
//! (`[L12]`, `[l3-L4]`, `[L]`, `[L5-]`), letters with special case
//! mappings (`İ`, `Σ` at word ends, `ẞ`), CJK and emoji, quotes copied
//! from the area with edits, and unrelated quotes; areas of 200+
//! characters are common, so autojunk matters.

use crate::judge::quote::{normalize, quote_score};
use crate::judge::{ClaimRequest, JudgeConfig, Verification};
use crate::test_rng::{run_python, SplitMix64};
use serde_json::{json, Value};

type Rng = SplitMix64;

const WORDS: &[&str] = &[
    "the",
    "The",
    "THE",
    "committee",
    "approved",
    "budget",
    "Budget",
    "bridge",
    "river",
    "vote",
    "votes",
    "five",
    "four",
    "majority",
    "narrow",
    "Mayor",
    "council",
    "Council",
    "said",
    "fees",
    "will",
    "not",
    "rise",
    "year",
    "İstanbul",
    "ΟΔΟΣ",
    "ΣΑΣ",
    "straẞe",
    "Straße",
    "café",
    "naïve",
    "中文",
    "字",
    "😀",
    "15%",
    "$500M",
    "2024",
    "L12",
    "[L12]",
    "[l3-L4]",
    "[L]",
    "[L5-]",
    "[L77-78]",
    "a",
    "of",
    "to",
    "on",
    "ÄÖÜ",
    "Ωmega",
];
const SPACES: &[&str] =
    &[" ", " ", " ", " ", "  ", "\t", "\u{a0}", "\u{3000}", "\u{1c}", "\u{1f}", "\u{2028}", " \u{b} ", "\r"];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push_str(rng.pick(SPACES));
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

/// Copies of `text` with edits: case flips, whitespace changes, dropped or changed chars.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match rng.below(40) {
            0 => {}
            1 => out.push('x'),
            2 => out.extend(c.to_uppercase()),
            3 if c == ' ' => out.push_str(rng.pick(SPACES)),
            _ => out.push(c),
        }
    }
    out
}

/// (document, start, end, quote, context lines)
fn case(rng: &mut Rng) -> (String, usize, usize, String, usize) {
    let n_lines = 1 + rng.below(25);
    let lines: Vec<String> = (0..n_lines)
        .map(|_| {
            let w = rng.below(14);
            sentence(rng, w)
        })
        .collect();
    let mut doc = lines.join("\n");
    if rng.below(2) == 0 {
        doc.push('\n');
    }
    let start = 1 + rng.below(n_lines);
    let end = (start + rng.below(3)).min(n_lines);
    let context = [0, 1, 2, 5, 5, 5, 8][rng.below(7)];
    let from = start.saturating_sub(context).max(1);
    let region: Vec<char> = lines[from - 1..end].join("\n").chars().collect();
    let quote = match rng.below(5) {
        0 => {
            let w = 1 + rng.below(10);
            sentence(rng, w)
        }
        1 => String::new(),
        _ if region.is_empty() => sentence(rng, 3),
        k => {
            let a = rng.below(region.len());
            let len = 1 + rng.below((region.len() - a).min(90));
            let piece: String = region[a..a + len].iter().collect();
            if k == 2 {
                piece
            } else {
                mutate(rng, &piece)
            }
        }
    };
    (doc, start, end, quote, context)
}

const PY: &str = r#"
import sys, json, re, difflib
TAG = re.compile(r'\[[Ll][0-9]+(?:-[Ll]?[0-9]+)?\]')
def norm(s):
    return re.sub(r'\s+', ' ', TAG.sub(' ', s).lower()).strip()
def area(doc, start, end, ctx):
    if doc == '':
        return None
    body = doc[:-1] if doc.endswith('\n') else doc
    lines = [l[:-1] if l.endswith('\r') else l for l in body.split('\n')]
    if start > len(lines):
        return None
    tagged = lambda r: '\n'.join('[L%d] %s' % (n, lines[n - 1]) for n in r)
    before = tagged(range(max(1, start - ctx), start))
    # lines[start - 1:end], as the spec's Python slices: a range ending past the file cites what exists
    cited = tagged(range(start, min(end, len(lines)) + 1))
    return before + '\n' + cited if before else cited
with open(sys.argv[1], encoding='utf-8') as f:
    cases = json.load(f)
out = []
for c in cases:
    a = area(c['doc'], c['start'], c['end'], c['context'])
    q, h = norm(c['quote']), norm(a) if a is not None else ''
    scores = []
    for aj in (False, True):
        m = difflib.SequenceMatcher(None, q, h, aj).find_longest_match(0, len(q), 0, len(h))
        scores.append(repr(m.size / len(q) if q else 0.0))
    out.append({'area': a, 'nq': q, 'narea': h, 'scores': scores})
with open(sys.argv[2], 'w', encoding='utf-8') as f:
    json.dump(out, f, ensure_ascii=False)
print(sys.version.split()[0])
"#;

#[test]
fn step_two_equals_cpython_difflib() {
    let mut rng = SplitMix64(0x00D1_FF11_B0CA_5E02);
    let cases: Vec<(String, usize, usize, String, usize)> = (0..1200).map(|_| case(&mut rng)).collect();
    let payload: Vec<Value> = cases
        .iter()
        .map(|(doc, s, e, q, c)| json!({"doc": doc, "start": s, "end": e, "quote": q, "context": c}))
        .collect();
    let (results, version) = run_python("judge_difflib", PY, &Value::from(payload));
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), cases.len());

    let (mut compared, mut autojunk_differs, mut long_areas, mut partial) = (0, 0, 0, 0);
    for (k, ((doc, start, end, quote, context), py)) in cases.iter().zip(results).enumerate() {
        let ctx = || format!("case {k}: doc={doc:?} lines {start}-{end} context {context} quote={quote:?}");
        assert_eq!(normalize(quote), py["nq"].as_str().unwrap(), "normalized quote, {}", ctx());
        for (i, autojunk) in [false, true].into_iter().enumerate() {
            let config = JudgeConfig { context_lines: *context, autojunk, ..JudgeConfig::default() };
            let request = ClaimRequest::new("claim", quote.clone(), "doc.txt", *start, *end);
            let v = Verification::new(request, Ok(doc.as_str()), &config, Vec::new()).unwrap();
            match (v.passage(), py["area"].as_str()) {
                (Ok(p), Some(area)) => {
                    assert_eq!(p.search_area(), area, "search area, {}", ctx());
                    assert_eq!(normalize(area), py["narea"].as_str().unwrap(), "normalized area, {}", ctx());
                    let want: f64 = py["scores"][i].as_str().unwrap().parse().unwrap();
                    let got = v.quote_match().unwrap().score;
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "score (autojunk {autojunk}) {got} vs CPython {want}, {}",
                        ctx()
                    );
                    assert_eq!(quote_score(quote, area, autojunk).to_bits(), want.to_bits(), "{}", ctx());
                    compared += 1;
                    if autojunk && py["scores"][0] != py["scores"][1] {
                        autojunk_differs += 1;
                    }
                    if !autojunk && py["narea"].as_str().unwrap().chars().count() >= 200 {
                        long_areas += 1;
                    }
                    if !autojunk && want > 0.0 && want < 1.0 {
                        partial += 1;
                    }
                }
                (Err(_), None) => assert_eq!(py["narea"], "", "{}", ctx()),
                (p, a) => panic!("step 1 disagrees ({p:?} vs {a:?}), {}", ctx()),
            }
        }
    }
    println!("python {}: {compared} scores equal ({long_areas} areas of 200+ chars, {partial} partial scores, autojunk changed {autojunk_differs})", version);
    assert!(compared >= 2000, "only {compared} comparisons");
    assert!(
        long_areas > 100 && partial > 100 && autojunk_differs > 20,
        "generator too easy: {long_areas} {partial} {autojunk_differs}"
    );
}
