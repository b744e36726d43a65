#![cfg(not(target_arch = "wasm32"))]
//! Differential test of `sequence_matcher` against CPython's `difflib`.
//!
//! Generates deterministic pairs with a seeded PRNG, has ONE `python3`
//! process compute `find_longest_match`, `get_matching_blocks` and `ratio`
//! for each pair, and compares the results exactly with the Rust port.

use crate::matching::sequence_matcher::{longest_match_score, Block, SequenceMatcher};
use crate::test_rng::{run_python, SplitMix64};
use serde_json::{json, Value};

type Rng = SplitMix64;

const ALPHABETS: &[&str] = &[
    "ab",
    "ab ",
    "abc",
    "a",
    "abcdefghij ",
    "abcdefghijklmnopqrstuvwxyz     .,",
    "éa 中文😀e",
    "😀😁 é",
    "The quick brown fox jumps over the lazy dog 0123456789 ÄÖÜ 中文字 😀🎉",
];

/// Random string over `alphabet` with a length in `lo..=hi`.
fn random_string(rng: &mut Rng, alphabet: &[char], lo: usize, hi: usize) -> Vec<char> {
    let len = rng.range(lo, hi);
    (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect()
}

/// Apply a few random edits (substitute / insert / delete) to `s`.
fn mutate(rng: &mut Rng, s: &[char], alphabet: &[char], edits: usize) -> Vec<char> {
    let mut v = s.to_vec();
    for _ in 0..edits {
        let op = rng.below(3);
        let pos = if v.is_empty() { 0 } else { rng.below(v.len()) };
        let c = alphabet[rng.below(alphabet.len())];
        match op {
            0 if !v.is_empty() => v[pos] = c,
            1 => v.insert(pos, c),
            _ if !v.is_empty() => {
                v.remove(pos);
            }
            _ => v.push(c),
        }
    }
    v
}

fn gen_pair(rng: &mut Rng, idx: usize) -> (Vec<char>, Vec<char>) {
    let alphabet: Vec<char> = ALPHABETS[rng.below(ALPHABETS.len())].chars().collect();
    // Length class: short, medium, >= 200 (autojunk territory), long.
    let (la_max, lb_max) = match idx % 8 {
        0 | 1 => (12, 12),
        2 | 3 => (60, 80),
        4 | 5 => (150, 450),
        6 => (40, 700),
        _ => (300, 1500),
    };
    // Keep small-alphabet long cases bounded so CPython stays fast.
    let lb_max = if alphabet.len() <= 3 { lb_max.min(600) } else { lb_max };
    match rng.below(6) {
        // Independent random strings (possibly empty).
        0 => {
            let a = random_string(rng, &alphabet, 0, la_max);
            let b = random_string(rng, &alphabet, 0, lb_max);
            (a, b)
        }
        // Quote-like: a is a (mutated) slice of b.
        1 | 2 => {
            let b = random_string(rng, &alphabet, 0, lb_max);
            if b.is_empty() {
                return (random_string(rng, &alphabet, 0, 5), b);
            }
            let start = rng.below(b.len());
            let len = rng.range(0, (b.len() - start).min(la_max));
            let slice = &b[start..start + len];
            let edits = rng.below(4);
            (mutate(rng, slice, &alphabet, edits), b)
        }
        // Repeated substrings on both sides.
        3 => {
            let unit = random_string(rng, &alphabet, 1, 7);
            let ra = rng.range(0, la_max / unit.len() + 1);
            let rb = rng.range(0, lb_max / unit.len() + 1);
            let mut a: Vec<char> = unit.iter().cycle().take(unit.len() * ra).copied().collect();
            let mut b: Vec<char> = unit.iter().cycle().take(unit.len() * rb).copied().collect();
            let e1 = rng.below(3);
            let e2 = rng.below(5);
            a = mutate(rng, &a, &alphabet, e1);
            b = mutate(rng, &b, &alphabet, e2);
            (a, b)
        }
        // b >= 200 dominated by one popular char, a mixes it with rare chars.
        4 => {
            let pop = alphabet[rng.below(alphabet.len())];
            let nb = rng.range(195, 420);
            let mut b: Vec<char> =
                (0..nb).map(|_| if rng.below(10) < 8 { pop } else { alphabet[rng.below(alphabet.len())] }).collect();
            let rare = ['x', 'Z', '文', '🎉'][rng.below(4)];
            let p = rng.below(b.len() + 1);
            b.insert(p, rare);
            let na = rng.range(0, 30);
            let a: Vec<char> = (0..na)
                .map(|_| match rng.below(4) {
                    0 => rare,
                    1 => alphabet[rng.below(alphabet.len())],
                    _ => pop,
                })
                .collect();
            (a, b)
        }
        // Swap roles: a long, b short or both equal.
        _ => {
            let a = random_string(rng, &alphabet, 0, lb_max.min(400));
            let b = if rng.below(3) == 0 {
                a.clone()
            } else {
                let e = rng.below(6);
                mutate(rng, &a, &alphabet, e)
            };
            (a, b)
        }
    }
}

const PY: &str = r#"
import sys, json, difflib
with open(sys.argv[1], encoding="utf-8") as f:
    cases = json.load(f)
out = []
for c in cases:
    a, b, aj = c["a"], c["b"], c["autojunk"]
    s = difflib.SequenceMatcher(None, a, b, aj)
    m = s.find_longest_match(0, len(a), 0, len(b))
    alo, ahi, blo, bhi = c["sub"]
    sm = s.find_longest_match(alo, ahi, blo, bhi)
    out.append({
        "lm": list(m),
        "sub": list(sm),
        "mb": [list(x) for x in s.get_matching_blocks()],
        "ratio": repr(s.ratio()),
        "score": repr(m.size / len(a) if a else 0.0),
        "popular": "".join(sorted(s.bpopular)),
    })
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False)
print(sys.version)
"#;

fn as_block(v: &Value) -> Block {
    let arr = v.as_array().expect("block array");
    let n = |i: usize| arr[i].as_u64().expect("int") as usize;
    Block { a: n(0), b: n(1), size: n(2) }
}

#[test]
fn differential_against_cpython_difflib() {
    let mut rng = SplitMix64(0x5EED_D1FF_11B5_2024);
    let n_base = 700;
    let mut cases: Vec<(String, String, bool, [usize; 4])> = Vec::new();
    for idx in 0..n_base {
        let (a, b) = gen_pair(&mut rng, idx);
        let (sa, sb): (String, String) = (a.iter().collect(), b.iter().collect());
        for aj in [true, false] {
            // A random (valid) sub-range query as well.
            let alo = rng.range(0, a.len());
            let ahi = rng.range(alo, a.len());
            let blo = rng.range(0, b.len());
            let bhi = rng.range(blo, b.len());
            cases.push((sa.clone(), sb.clone(), aj, [alo, ahi, blo, bhi]));
        }
    }

    let payload: Vec<Value> =
        cases.iter().map(|(a, b, aj, sub)| json!({"a": a, "b": b, "autojunk": aj, "sub": sub})).collect();
    let (results, version) = run_python("seqmatch_diff", PY, &Value::from(payload));
    println!("python: {version}");
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), cases.len());

    let mut with_popular = 0;
    let mut autojunk_changed_score = 0;
    for (k, ((a, b, aj, sub), r)) in cases.iter().zip(results).enumerate() {
        let ac: Vec<char> = a.chars().collect();
        let bc: Vec<char> = b.chars().collect();
        let sm = SequenceMatcher::new(&ac, &bc, *aj);
        let ctx = || format!("case {k}: a={a:?} b={b:?} autojunk={aj}");

        let popular: String = sm.popular().iter().collect();
        assert_eq!(popular, r["popular"].as_str().unwrap(), "popular, {}", ctx());
        if !popular.is_empty() {
            with_popular += 1;
        }

        let lm = sm.find_longest_match(0, ac.len(), 0, bc.len());
        assert_eq!(lm, as_block(&r["lm"]), "find_longest_match, {}", ctx());

        let s = sm.find_longest_match(sub[0], sub[1], sub[2], sub[3]);
        assert_eq!(s, as_block(&r["sub"]), "sub-range {sub:?}, {}", ctx());

        let mb: Vec<Block> = r["mb"].as_array().unwrap().iter().map(as_block).collect();
        assert_eq!(sm.matching_blocks(), mb, "matching_blocks, {}", ctx());

        let py_ratio: f64 = r["ratio"].as_str().unwrap().parse().unwrap();
        assert_eq!(sm.ratio().to_bits(), py_ratio.to_bits(), "ratio, {}", ctx());

        let py_score: f64 = r["score"].as_str().unwrap().parse().unwrap();
        let score = longest_match_score(a, b, *aj);
        assert_eq!(score.to_bits(), py_score.to_bits(), "score, {}", ctx());
        if *aj && score != longest_match_score(a, b, false) {
            autojunk_changed_score += 1;
        }
    }
    println!(
        "compared {} cases ({} with popular elements, {} where autojunk changed the score)",
        cases.len(),
        with_popular,
        autojunk_changed_score
    );
    assert!(cases.len() >= 1000);
    assert!(with_popular > 50, "too few autojunk-relevant cases: {with_popular}");
    assert!(autojunk_changed_score > 10, "autojunk rarely mattered: {autojunk_changed_score}");
}
