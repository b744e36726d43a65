//! The meaning guard's accuracy on a generated set (issue 12): VALIDATED
//! must mean the source says this.
//!
//! 320 pairs a class, made deterministically (a seeded xorshift) from
//! sentences of `benches/data/rust-book.md` by `tests/meaning_common`: each
//! quote is its sentence with exactly one change of its class, validated
//! against the sentence's paragraph (or ~1,500 bytes around it) with the
//! default configuration (`{}`), as a `direct_quote` (shuffled sentences as
//! a `paraphrase`). A refused class's pair is dropped when its quote occurs
//! verbatim (case-insensitively; as whole words for partial-word edges) in
//! its passage.
//!
//! Thresholds:
//! - typos (1–3 slips inside a content word of five or more letters whose
//!   result is in neither Debian's `wamerican` nor `wbritish` word list nor
//!   the passage) must be VALIDATED in at least **95 %** of pairs;
//! - cosmetic noise (curly/straight quotes, dashes, no-break spaces, soft
//!   hyphens, ligatures, case, doubled spaces and line breaks, a hyphen
//!   against a space or nothing, dropped punctuation, line-break
//!   hyphenation) in at least **99 %**;
//! - every substitution class (function words, number words, digits inside
//!   tokens, scale words and units, names/acronyms/ordinals, prefixes and
//!   antonyms, partial-word edges, shuffled sentences) must be refused in
//!   **100 %** of pairs.
//!
//! Regenerate the table (and the leaking examples on stderr) with
//! `cargo test --release --test meaning_accuracy -- --nocapture`.

#![cfg(not(target_arch = "wasm32"))]

mod meaning_common;

use evidence_validator::host::FixedClock;
use evidence_validator::validate::validate_evidence;
use meaning_common::{
    closed_word, collapse, is_scale_or_unit, is_word_pair, letters, levenshtein, lexicon, number_value,
    occurs_as_words, split_token, words_of, Class, Lexicon, Pair, FUNCTION_GROUPS, ORDINALS,
};
use serde_json::json;
use std::collections::BTreeMap;

const PER_CLASS: usize = 320;

/// `(validation_status, match_type)` of the pair's quote against its source.
fn validate(pair: &Pair) -> (String, String) {
    let claims = json!({ "source_metadata": { "format": "plain_text" }, "claims": [
        { "id": "EV001", "task_id": "P1.T001", "quote": pair.quote, "evidence_type": pair.class.evidence_type() }
    ]});
    let report = validate_evidence(&pair.source, &claims, &json!({}), &FixedClock(0.0)).expect("valid input");
    let report = serde_json::to_value(report).expect("serializable");
    let claim = &report["validated_claims"][0];
    let status = claim["validation_status"].as_str().unwrap_or("?").to_string();
    let kind = claim["match_details"]["match_type"].as_str().unwrap_or("none").to_string();
    (status, kind)
}

fn shown(s: &str) -> String {
    let s = collapse(s);
    if s.chars().count() > 220 {
        format!("{}…", s.chars().take(220).collect::<String>())
    } else {
        s
    }
}

#[test]
fn meaning_accuracy_per_class() {
    let lex = lexicon();
    let pairs = meaning_common::generate(PER_CLASS, &lex);
    // class → (pairs, validated)
    let mut counts: BTreeMap<Class, (usize, usize)> = BTreeMap::new();
    let mut leaks: BTreeMap<Class, Vec<String>> = BTreeMap::new();
    for p in &pairs {
        let (status, kind) = validate(p);
        let validated = status == "VALIDATED";
        let e = counts.entry(p.class).or_default();
        e.0 += 1;
        e.1 += usize::from(validated);
        if validated != p.class.accepted() {
            let list = leaks.entry(p.class).or_default();
            if list.len() < 6 {
                list.push(format!(
                    "  - [{}] {status} / {kind}: {:?} → {:?}\n    quote:  {}\n    source: {}",
                    p.how,
                    p.from,
                    p.to,
                    shown(&p.quote),
                    shown(&p.source_sentence)
                ));
            }
        }
    }
    println!("| class | pairs | VALIDATED | not VALIDATED | expected | pass rate |");
    println!("|---|---:|---:|---:|---|---:|");
    let mut failures = Vec::new();
    for class in Class::ALL {
        let (n, ok) = counts.get(&class).copied().unwrap_or_default();
        let right = if class.accepted() { ok } else { n - ok };
        let rate = 100.0 * right as f64 / n.max(1) as f64;
        let expected = if class.accepted() { "VALIDATED" } else { "not VALIDATED" };
        println!("| {} | {n} | {ok} | {} | {expected} | {rate:.1} % |", class.name(), n - ok);
        let floor = match class {
            Class::Typo => 95.0,
            Class::Noise => 99.0,
            _ => 100.0,
        };
        if rate < floor {
            failures.push(format!("{}: {rate:.1} % < {floor} %", class.name()));
        }
    }
    for (class, list) in &leaks {
        eprintln!(
            "{} (expected {}), first failing pairs:",
            class.name(),
            if class.accepted() { "VALIDATED" } else { "refused" }
        );
        eprintln!("{}", list.join("\n"));
    }
    assert!(failures.is_empty(), "below the thresholds:\n{}", failures.join("\n"));
}

/// The one token of the quote that differs from the source sentence:
/// `(source token, quote token)`, or `None` when more or fewer differ.
fn one_token_changed<'a>(source: &'a str, quote: &'a str) -> Option<(&'a str, &'a str)> {
    let a: Vec<&str> = source.split_whitespace().collect();
    let b: Vec<&str> = quote.split_whitespace().collect();
    if a.len() != b.len() {
        return None;
    }
    let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    (diff.len() == 1).then(|| (a[diff[0]], b[diff[0]]))
}

fn capitalized_name(w: &str) -> bool {
    w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && w.chars().skip(1).all(|c| c.is_ascii_lowercase())
}

/// Whether the pair's change is one of its class, as the class says.
fn check(p: &Pair, lex: &Lexicon) -> Result<(), String> {
    if !p.source.contains(&p.source_sentence) {
        return Err("the sentence is not in its passage".into());
    }
    if p.source.len() > 2200 {
        return Err(format!("passage of {} bytes", p.source.len()));
    }
    let sentence = collapse(&p.source_sentence);
    let (from, to) = (p.from.as_str(), p.to.as_str());
    let single = || -> Result<(), String> {
        let (a, b) = one_token_changed(&sentence, &p.quote).ok_or("not exactly one word changed")?;
        if split_token(a).1 != split_token(from).1 || split_token(b).1 != split_token(to).1 {
            return Err(format!("changed {a:?} → {b:?}, said {from:?} → {to:?}"));
        }
        if from == to {
            return Err("no change".into());
        }
        Ok(())
    };
    let verbatim = collapse(&p.source).to_lowercase().contains(&collapse(&p.quote).to_lowercase());
    match p.class {
        Class::Typo => {
            single()?;
            let d = levenshtein(from, to);
            let ok = from.len() >= 5
                && from.bytes().all(|b| b.is_ascii_lowercase())
                && !closed_word(from)
                && (1..=3).contains(&d)
                && !lex.words.contains(to)
                && !words_of(&p.source).contains(to)
                && !to.bytes().any(|b| b.is_ascii_digit());
            ok.then_some(()).ok_or(format!("not a typo: {from} → {to} ({d} edits)"))
        }
        Class::Noise => {
            let changed = collapse(&p.quote) != sentence || p.quote != sentence;
            if !changed {
                return Err("no noise".into());
            }
            (letters(&p.quote) == letters(&p.source_sentence))
                .then_some(())
                .ok_or(format!("a letter changed: {:?} vs {:?}", p.quote, p.source_sentence))
        }
        Class::FunctionWord => {
            single()?;
            let closed = |w: &str| FUNCTION_GROUPS.iter().any(|g| g.contains(&w.to_lowercase().as_str()));
            (closed(from) && closed(to) && !verbatim).then_some(()).ok_or(format!("{from} → {to}"))
        }
        Class::NumberWord => {
            single()?;
            let word = number_value(from).is_some() && from.chars().all(char::is_alphabetic);
            (word && number_value(to).is_some() && number_value(from) != number_value(to) && !verbatim)
                .then_some(())
                .ok_or(format!("{from} → {to}"))
        }
        Class::DigitsInToken => {
            single()?;
            let (a, b) = (from.as_bytes(), to.as_bytes());
            let diff: Vec<usize> = (0..a.len().min(b.len())).filter(|&i| a[i] != b[i]).collect();
            let ok =
                a.len() == b.len() && diff.len() == 1 && a[diff[0]].is_ascii_digit() && b[diff[0]].is_ascii_digit();
            (ok && !verbatim).then_some(()).ok_or(format!("{from} → {to}"))
        }
        Class::ScaleOrUnit => {
            single()?;
            (is_scale_or_unit(from) && is_scale_or_unit(to) && !verbatim).then_some(()).ok_or(format!("{from} → {to}"))
        }
        Class::NameOrAcronym => {
            single()?;
            let ordinal = |w: &str| ORDINALS.contains(&w.to_lowercase().as_str());
            let acronym = |w: &str| w.bytes().all(|b| b.is_ascii_uppercase());
            let hamming = from.bytes().zip(to.bytes()).filter(|(a, b)| a != b).count();
            let ok = (ordinal(from) && ordinal(to))
                || (from.contains('.') && to.contains('.'))
                || (acronym(from) && acronym(to) && from.len() == to.len() && hamming == 1)
                || (capitalized_name(from) && capitalized_name(to) && from.len() == to.len());
            (ok && !verbatim).then_some(()).ok_or(format!("{from} → {to}"))
        }
        Class::PrefixOrAntonym => {
            single()?;
            (is_word_pair(from, to) && !verbatim).then_some(()).ok_or(format!("{from} → {to}"))
        }
        Class::PartialWord => {
            if occurs_as_words(&p.source, &p.quote) {
                return Err("the quote is in the source as whole words".into());
            }
            if p.how == "first word for another's tail" {
                let q: Vec<&str> = p.quote.split_whitespace().collect();
                let rest = q[1..].join(" ");
                let ok = split_token(q[0]).1 == to
                    && from.ends_with(|c: char| c.is_alphabetic())
                    && to.len() < from.len()
                    && !from.ends_with(to)
                    && sentence.contains(&format!("{from}{} {rest}", split_token(q[0]).2));
                return ok.then_some(()).ok_or(format!("{from} → {to}"));
            }
            // cut out of the source, inside a word or number at an edge
            collapse(&p.source)
                .contains(&collapse(&p.quote))
                .then_some(())
                .ok_or_else(|| "the quote is not cut out of the source".to_string())
        }
        Class::Shuffled => {
            let mut a: Vec<String> = sentence.split_whitespace().map(|w| split_token(w).1.to_string()).collect();
            let mut b: Vec<String> = p.quote.split_whitespace().map(|w| split_token(w).1.to_string()).collect();
            a.retain(|w| !w.is_empty());
            b.retain(|w| !w.is_empty());
            let same_order = a == b;
            a.sort();
            b.sort();
            (a == b && !same_order && !verbatim).then_some(()).ok_or("not a reordering of the sentence".into())
        }
    }
}

#[test]
fn the_generator_makes_one_change_of_its_class() {
    let lex = lexicon();
    let pairs = meaning_common::generate(PER_CLASS, &lex);
    let mut bad = Vec::new();
    for class in Class::ALL {
        let n = pairs.iter().filter(|p| p.class == class).count();
        assert!(n >= 300, "{}: {n} pairs", class.name());
    }
    for p in &pairs {
        if let Err(e) = check(p, &lex) {
            bad.push(format!(
                "{} [{}]: {e}\n  quote:  {:?}\n  source: {:?}",
                p.class.name(),
                p.how,
                p.quote,
                p.source_sentence
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} malformed pairs, e.g.:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_word_lists_tell_typos_from_words() {
    let lex = lexicon();
    for w in ["receive", "management", "the", "war", "art", "founder"] {
        assert!(lex.words.contains(w), "{w}");
    }
    for t in ["recieve", "managment", "teh"] {
        assert!(!lex.words.contains(t), "{t}");
    }
}
