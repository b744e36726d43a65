//! Tamper evidence (issue 20): every change of a report's hashed content
//! changes its `contentHash`, and every change of a Finding's span fails its
//! hash check.
//!
//! The report: the bundled sample's report, whose `contentHash` is first
//! recomputed from its documented definition (SHA-256 of the canonical JSON
//! of `failed_claims`, `validated_claims`, `validation_summary`:
//! `invariants::content_hash_of`), so the library hashes exactly those
//! bytes. Then every byte of the report as the CLI writes it (pretty JSON)
//! is flipped, one bit at a time for two bits; each flip that still parses
//! and changes the hashed part must recompute to another hash, each that
//! changes only the rest (timestamp, metadata) must not. The typed side:
//! every field of every result, changed through the library's own
//! `content_hash`, changes it.
#![cfg(not(target_arch = "wasm32"))]

#[path = "invariants/mod.rs"]
mod invariants;

use evidence_validator::finding::{compute_hash, Finding, FindingError};
use evidence_validator::host::FixedClock;
use evidence_validator::validate::{content_hash, Status};
use evidence_validator::validate_evidence;
use serde_json::Value;

const HASHED: [&str; 3] = ["failed_claims", "validated_claims", "validation_summary"];

fn sample_report() -> evidence_validator::Report {
    let root = env!("CARGO_MANIFEST_DIR");
    let source = std::fs::read_to_string(format!("{root}/samples/incident-review.md")).expect("sample source");
    let claims: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{root}/samples/claims.json")).expect("sample claims"))
            .expect("sample claims JSON");
    validate_evidence(&source, &claims, &Value::Null, &FixedClock(0.0)).expect("the sample validates")
}

#[test]
fn every_byte_flip_of_the_hashed_content_changes_the_content_hash() {
    let report = sample_report();
    let json = report.to_json();
    let recorded = report.generated.content_hash.clone();
    assert_eq!(invariants::content_hash_of(&json), recorded, "contentHash is not the documented recomputation");
    let text = serde_json::to_string_pretty(&json).expect("report JSON");
    let bytes = text.as_bytes();
    let (mut detected, mut unparsable, mut outside) = (0usize, 0usize, 0usize);
    let mut missed = Vec::new();
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x20] {
            let mut t = bytes.to_vec();
            t[i] ^= bit;
            let Ok(v) = serde_json::from_slice::<Value>(&t) else {
                unparsable += 1; // not JSON (or not UTF-8): no report at all
                continue;
            };
            let hashed_changed = HASHED.iter().any(|k| v.get(*k) != json.get(*k));
            let rehash = invariants::content_hash_of(&v);
            if hashed_changed {
                if rehash == recorded {
                    missed.push(format!(
                        "byte {i} ^ {bit:#04x}: {:?}",
                        String::from_utf8_lossy(&t[i.saturating_sub(30)..(i + 30).min(t.len())])
                    ));
                } else {
                    detected += 1;
                }
            } else {
                outside += 1;
                assert_eq!(rehash, recorded, "byte {i} ^ {bit:#04x} outside the hashed part changed the hash");
            }
        }
    }
    assert!(missed.is_empty(), "{} undetected changes:\n{}", missed.len(), missed.join("\n"));
    // the flips really reach the content: most of them still parse
    assert!(
        detected > bytes.len(),
        "only {detected} detected flips of {} bytes ({unparsable} unparsable, {outside} outside)",
        bytes.len()
    );
}

#[test]
fn every_field_of_every_result_is_in_the_librarys_hash() {
    let report = sample_report();
    let (results, failed, summary) = (&report.validated_claims, &report.failed_claims, &report.validation_summary);
    let base = content_hash(results, failed, summary).expect("a hashable report");
    assert_eq!(base, report.generated.content_hash);
    let mut changes = 0;
    for i in 0..results.len() {
        let mut variants = Vec::new();
        let r = &results[i];
        let mut v = results.clone();
        v[i].claim_id.push('x');
        variants.push(("claim_id", v));
        let mut v = results.clone();
        v[i].task_id.push('x');
        variants.push(("task_id", v));
        let mut v = results.clone();
        v[i].confidence_score = f64::from_bits(r.confidence_score.to_bits() ^ 1);
        variants.push(("confidence_score (last bit)", v));
        let mut v = results.clone();
        v[i].validation_status = if r.validation_status == Status::Failed { Status::Validated } else { Status::Failed };
        variants.push(("validation_status", v));
        if let Some(m) = &r.match_details {
            for field in 0..9 {
                let mut v = results.clone();
                let l = &mut v[i].match_details.as_mut().expect("match").location;
                let slot = [
                    &mut l.start_position,
                    &mut l.end_position,
                    &mut l.utf16_start,
                    &mut l.utf16_end,
                    &mut l.byte_start,
                    &mut l.byte_end,
                    &mut l.line_number,
                    &mut l.column,
                    &mut l.end_line_number,
                ];
                if let Some(x) = slot.into_iter().nth(field) {
                    *x += 1;
                }
                variants.push(("match location", v));
            }
            for (k, _) in m.matched_text.char_indices() {
                let mut v = results.clone();
                let t = &mut v[i].match_details.as_mut().expect("match").matched_text;
                let c = t[k..].chars().next().expect("char");
                let other = char::from_u32(c as u32 ^ 1).unwrap_or('?');
                t.replace_range(k..k + c.len_utf8(), &other.to_string());
                variants.push(("matched_text", v));
            }
        }
        for (what, v) in variants {
            changes += 1;
            assert_ne!(
                content_hash(&v, failed, summary).expect("a hashable report"),
                base,
                "claim {i}: a change of {what} keeps the hash"
            );
        }
    }
    let mut s = summary.clone();
    s.total_claims += 1;
    assert_ne!(content_hash(results, failed, &s).expect("a hashable report"), base, "summary total_claims");
    if let Some(f) = failed.first() {
        let mut v = failed.clone();
        v[0].suggestions.push(String::new());
        assert_ne!(
            content_hash(results, &v, summary).expect("a hashable report"),
            base,
            "failed_claims[0] ({}) suggestions",
            f.claim_id
        );
    }
    assert!(changes > 100, "only {changes} changes tried");
}

/// A valid finding whose span has CJK, an emoji, combining marks, curly
/// quotes and a CRLF (every byte of each is flipped).
fn finding() -> Finding {
    let span = "Revenue grew 15% in Q3 \u{2014} \u{201C}caf\u{0065}\u{0301}\u{201D} 中文 😀\r\nacross all regions.";
    let f = Finding {
        category: "market_intelligence".into(),
        title: "Revenue growth".into(),
        content: "Revenue grew.".into(),
        source_url: "https://example.com/q3".into(),
        extracted_at: "2025-01-31T12:00:00Z".into(),
        extraction_span: span.into(),
        extraction_span_hash: compute_hash(span),
        char_offsets: None,
        relevance_score: 8,
        recency_score: 9,
        trust_score: 2,
    };
    assert_eq!(f.validate(), Ok(()));
    f
}

/// Whitespace runs as one space, trimmed: written here from spec 003's
/// `" ".join(span.split())`, not taken from the library. Python's
/// `str.split()` splits at `str.isspace()` chars: Unicode's White_Space
/// (Rust's `char::is_whitespace`) and the four information separators
/// U+001C..U+001F (bidirectional class B or S).
fn python_split_join(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_byte_flip_of_a_findings_span_or_hash_fails_validation() {
    let f = finding();
    let span = f.extraction_span.as_bytes().to_vec();
    let (mut detected, mut same_words) = (0, 0);
    for i in 0..span.len() {
        for bit in [0x01u8, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
            let mut t = span.clone();
            t[i] ^= bit;
            let Ok(tampered) = String::from_utf8(t) else { continue };
            let g = Finding { extraction_span: tampered.clone(), ..f.clone() };
            if python_split_join(&tampered) == python_split_join(&f.extraction_span) {
                // a whitespace char for another: the spec hashes words, not spacing
                same_words += 1;
                assert_eq!(g.validate(), Ok(()), "byte {i} ^ {bit:#04x}");
            } else {
                detected += 1;
                assert_eq!(g.validate(), Err(FindingError::HashMismatch), "byte {i} ^ {bit:#04x}: {tampered:?}");
            }
        }
    }
    assert!(detected > 4 * span.len(), "{detected} detected flips of {} bytes", span.len());
    assert!(same_words < 12, "{same_words} whitespace-only flips");
    let hash = f.extraction_span_hash.as_bytes().to_vec();
    for i in 0..hash.len() {
        for bit in [0x01u8, 0x02, 0x04] {
            let mut t = hash.clone();
            t[i] ^= bit;
            let g = Finding { extraction_span_hash: String::from_utf8_lossy(&t).into_owned(), ..f.clone() };
            assert_eq!(g.validate(), Err(FindingError::HashMismatch), "hash byte {i} ^ {bit:#04x}");
        }
    }
}

/// `invariants::content_hash_of` serializes the hashed parts by reference
/// into the hasher; the definition it replaces copied them into an object
/// and hashed its text. Both agree on the sample report, on every tenth
/// one-bit flip of it that still parses, and with parts missing.
#[test]
fn content_hash_of_is_the_hash_of_the_copied_parts() {
    use sha2::{Digest, Sha256};
    let copied = |report: &Value| -> String {
        let mut hashed = serde_json::Map::new();
        for key in HASHED {
            hashed.insert(key.to_string(), report.get(key).cloned().unwrap_or(Value::Null));
        }
        Sha256::digest(Value::Object(hashed).to_string().as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    };
    let json = sample_report().to_json();
    assert_eq!(invariants::content_hash_of(&json), copied(&json));
    let text = serde_json::to_string_pretty(&json).expect("report JSON");
    let mut compared = 0;
    for i in (0..text.len()).step_by(10) {
        let mut t = text.as_bytes().to_vec();
        t[i] ^= 0x01;
        if let Ok(v) = serde_json::from_slice::<Value>(&t) {
            assert_eq!(invariants::content_hash_of(&v), copied(&v), "flip at byte {i}");
            compared += 1;
        }
    }
    assert!(compared > text.len() / 20, "only {compared} flips parsed");
    for missing in HASHED {
        let mut v = json.clone();
        if let Value::Object(o) = &mut v {
            o.remove(missing);
        }
        assert_eq!(invariants::content_hash_of(&v), copied(&v), "without {missing}");
    }
    assert_eq!(invariants::content_hash_of(&Value::Null), copied(&Value::Null));
}
