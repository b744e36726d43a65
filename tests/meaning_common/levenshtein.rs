//! The edit distance both meaning tests measure with (the generator's, and
//! `tests/meaning_public.rs`'s).

/// Levenshtein distance on chars (a swap of neighbours costs two).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != b[j])).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}
