//! Token-level similarity for paraphrases and concept references: the
//! passages (windows of a few more tokens than the quote) that hold most of
//! the quote's content words.
//!
//! Score = share of the quote's content words (stop words dropped, one entry
//! per stem) present in the window; a word present only as another form of
//! the same stem (`authenticate` for `authentication`) counts 0.9. The
//! reported range runs from the first to the last matched token. Windows are
//! found by one sweep over the merged postings of the quote's stems, so the
//! cost is linear in the number of occurrences of the quote's words.

use super::index::TokenIndex;
use crate::host::Deadline;
use crate::text::tokens::{self, stem};

/// The quote as the token matcher sees it.
#[derive(Debug, Clone)]
pub struct TokenQuery {
    /// (stem id, surface id) in the document for each distinct content stem;
    /// `None` when the document does not have it.
    terms: Vec<(Option<u32>, Option<u32>)>,
    /// All tokens of the quote, stop words included (sets the window width).
    token_count: usize,
}

impl TokenQuery {
    /// Prepares a normalized quote against a document's token index.
    pub fn new(normalized_quote: &str, index: &TokenIndex) -> TokenQuery {
        let words: Vec<&str> = tokens::tokenize(normalized_quote).iter().map(|t| t.text(normalized_quote)).collect();
        let content: Vec<&str> = words.iter().copied().filter(|w| !tokens::is_stop_word(w)).collect();
        let chosen = if content.is_empty() { &words } else { &content };
        // a stem seen: by its id when the text has it, else by its text
        // (a stem is in the text or not, so both tell stems apart as their
        // texts do); a word the text has as a surface takes the stem id
        // the index stemmed that surface to, without stemming it again
        #[derive(PartialEq)]
        enum Seen<'q> {
            Id(u32),
            Text(&'q str),
        }
        let mut seen_stems: Vec<Seen> = Vec::new();
        let mut terms = Vec::new();
        for w in chosen {
            let surface_id = index.surface_id(w);
            let (seen, stem_id) = match surface_id.and_then(|s| index.surface_stem(s)) {
                Some(id) => (Seen::Id(id), Some(id)),
                None => {
                    let s = stem(w);
                    let id = index.stem_id(s);
                    (id.map_or(Seen::Text(s), Seen::Id), id)
                }
            };
            if seen_stems.contains(&seen) {
                continue;
            }
            seen_stems.push(seen);
            terms.push((stem_id, surface_id));
        }
        TokenQuery { terms, token_count: words.len() }
    }
}

/// A passage holding the quote's words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenMatch {
    /// Index of the first matched token.
    pub first_token: usize,
    /// Index of the last matched token.
    pub last_token: usize,
    /// Byte range in the normalized text.
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// Share of content words present (0.9 weight for stem-only matches).
    pub score: f64,
}

/// Up to `limit` non-overlapping passages with score at least `floor`, best
/// first (ties: shorter, then earlier).
/// Stops early when `deadline` passes (the answer is then incomplete:
/// callers ask `deadline.expired()`).
pub fn find(query: &TokenQuery, index: &TokenIndex, floor: f64, limit: usize, deadline: &Deadline) -> Vec<TokenMatch> {
    let n = query.terms.len();
    if n == 0 || limit == 0 {
        return Vec::new();
    }
    let width = query.token_count + (query.token_count / 2).max(2);
    let hits = match fewest_terms(n, floor) {
        Some(m) if m > 1 => {
            match block_hits(query, index, m, width) {
                // the surface flags read only for the hits kept
                Some(hits) => {
                    let mut hits = in_rich_windows(&hits, n, m, width, deadline);
                    with_surfaces(query, index, &mut hits);
                    hits
                }
                None => in_rich_windows(&merged_hits(query, index, floor, width), n, m, width, deadline),
            }
        }
        _ => merged_hits(query, index, floor, width),
    };
    sweep(query, index, &hits, width, floor, limit, deadline)
}

/// A hit: an occurrence of one of the query's terms, packed as a number
/// (token position above term above whether the token has the term's
/// surface form), so that hits sort by position as numbers and the sweep
/// reads the surface flag without asking the index again.
type Hit = u64;

/// Bits of a [`Hit`] below the position.
const POSITION_SHIFT: u32 = 32;

fn hit(position: usize, term: usize, surface: bool) -> Hit {
    (position as u64) << POSITION_SHIFT | (term as u64 & 0x7fff_ffff) << 1 | u64::from(surface)
}

fn hit_position(h: Hit) -> usize {
    (h >> POSITION_SHIFT) as usize
}

fn hit_term(h: Hit) -> usize {
    ((h >> 1) & 0x7fff_ffff) as usize
}

fn hit_surface(h: Hit) -> u32 {
    (h & 1) as u32
}

/// [`find`] over `hits`, the occurrences by position.
fn sweep(
    query: &TokenQuery,
    index: &TokenIndex,
    hits: &[Hit],
    width: usize,
    floor: f64,
    limit: usize,
    deadline: &Deadline,
) -> Vec<TokenMatch> {
    let n = query.terms.len();
    // the least numerator scoring `floor`, by the score's own division
    // (none: no window can)
    let top = 10 * n as u32;
    let Some(need) = (0..=top).find(|&num| num as f64 / (10 * n) as f64 >= floor) else {
        return Vec::new();
    };
    let mut sweep = Sweep { counts: vec![(0u32, 0u32); n], numerator: 0 };
    // (numerator, first, last), at most one a hit
    let mut candidates: Vec<(u32, usize, usize)> = Vec::with_capacity(hits.len());
    let mut left = 0;
    for (right, &h) in hits.iter().enumerate() {
        if deadline.expired() {
            return Vec::new();
        }
        sweep.add(h);
        let at = hit_position(h);
        // left <= right always: the hit at `right` is never past itself
        while let Some(&old) = hits.get(left).filter(|&&o| hit_position(o) + width <= at) {
            sweep.remove(old);
            left += 1;
        }
        // tighten from the left while the score does not drop
        while let Some(&old) = hits.get(left).filter(|&&o| left < right && sweep.removal_keeps_score(o)) {
            sweep.remove(old);
            left += 1;
        }
        if let (true, Some(&first)) = (sweep.numerator >= need, hits.get(left)) {
            candidates.push((sweep.numerator, hit_position(first), at));
        }
    }
    choose(index, n, &candidates, limit, deadline)
}

/// Up to `limit` of `candidates` (numerator, first, last token), best
/// first: numerator down, then width, then start; each overlapping none
/// chosen before it.
///
/// Each is the best of the candidates overlapping none chosen before it
/// (what a walk of all of them sorted best first keeps: one it skips
/// overlaps one chosen earlier, and chosen ones are never dropped), found
/// by a scan of those left: `limit` scans instead of a sort of them all.
fn choose(
    index: &TokenIndex,
    n: usize,
    candidates: &[(u32, usize, usize)],
    limit: usize,
    deadline: &Deadline,
) -> Vec<TokenMatch> {
    // best first as one u128 key per candidate (positions are token
    // indices, u32), the least best (the keys are distinct: `last`
    // differs between candidates)
    let mut left: Vec<u128> = candidates.iter().map(|&(num, first, last)| choice_key(num, first, last)).collect();
    let mut chosen: Vec<TokenMatch> = Vec::new();
    while chosen.len() < limit && !deadline.expired() {
        let Some((at, &key)) = left.iter().enumerate().min_by_key(|&(_, k)| k) else {
            break;
        };
        left.swap_remove(at);
        let (num, first, last) = choice_of(key);
        let (Some(a), Some(b)) = (index.token(first), index.token(last)) else {
            continue;
        };
        chosen.push(TokenMatch {
            first_token: first,
            last_token: last,
            start: a.start as usize,
            end: b.end as usize,
            score: num as f64 / (10 * n) as f64,
        });
        // those overlapping it can never be chosen
        left.retain(|&k| {
            let (_, f, l) = choice_of(k);
            l < first || last < f
        });
    }
    chosen
}

/// A candidate's key in [`choose`]'s order (numerator down, then width,
/// then start; the last token decides nothing between distinct candidates
/// but makes the key theirs), as a number.
#[inline]
fn choice_key(num: u32, first: usize, last: usize) -> u128 {
    u128::from(u32::MAX - num) << 96
        | ((last - first) as u128 & 0xffff_ffff) << 64
        | (first as u128 & 0xffff_ffff) << 32
        | (last as u128 & 0xffff_ffff)
}

/// The (numerator, first, last token) of a [`choice_key`].
#[inline]
fn choice_of(key: u128) -> (u32, usize, usize) {
    (u32::MAX - (key >> 96) as u32, (key >> 32) as u32 as usize, key as u32 as usize)
}

/// The occurrences of the query's stems that a passage scoring `floor`
/// can hold, as [`Hit`]s by position.
///
/// Such a passage holds at least `m` distinct terms (each adds at most 10
/// to the numerator), so at least one of the `n - m + 1` rarest terms: its
/// occurrences are the anchors, and only hits within `width - 1` tokens of
/// an anchor are kept. Lossless: a window of the sweep ([`find`]) that
/// holds an anchor keeps every hit it had (it lies within `width - 1` of
/// the anchor), so its state and score are the same (the sweep's left edge
/// after tightening depends only on the hits in the window); a window
/// without an anchor holds at most `m - 1` terms and scored below `floor`
/// anyway. On quotes of common words (paraphrases, shuffled sentences) this
/// drops most hits of the few most frequent stems before the merge.
fn merged_hits(query: &TokenQuery, index: &TokenIndex, floor: f64, width: usize) -> Vec<Hit> {
    let n = query.terms.len();
    let lists: Vec<&[u32]> =
        query.terms.iter().map(|(stem_id, _)| stem_id.map_or(&[][..], |id| index.postings(id))).collect();
    let Some(m) = fewest_terms(n, floor) else {
        return Vec::new();
    };
    let mut order: Vec<usize> = (0..n).collect();
    crate::sort::sort_by(&mut order, |&a, &b| {
        lists.get(a).map_or(0, |l| l.len()).cmp(&lists.get(b).map_or(0, |l| l.len())).then(a.cmp(&b))
    });
    let (rare, common) = order.split_at(n - (m - 1));
    // hits as numbers (see `Hit`; terms are fewer than a quote's words, at
    // most MAX_QUOTE_CHARS, so they fit 31 bits), merged as numbers: the
    // positions are distinct (a token has one stem and the terms have
    // distinct stems), so the merge's order is the one order by position
    if n >= 1 << 31 {
        return Vec::new();
    }
    // the hits of term `t`: its surface id looked up once a term
    let keys_of = |t: usize| {
        let surface_id = query.terms.get(t).and_then(|&(_, s)| s);
        move |p: usize| hit(p, t, surface_id.is_some_and(|s| index.surface(p) == s))
    };
    // one ascending run a term (postings ascend, and a hit's position is
    // its high bits), merged shortest first
    let mut runs: Vec<Vec<Hit>> = rare
        .iter()
        .map(|&t| {
            let key = keys_of(t);
            lists.get(t).copied().unwrap_or_default().iter().map(|&p| key(p as usize)).collect()
        })
        .collect();
    let anchors = merge_runs(&mut runs);
    if common.is_empty() || anchors.is_empty() {
        return anchors;
    }
    let intervals = reaches(anchors.iter().map(|&h| hit_position(h)), width.saturating_sub(1));
    runs.push(anchors);
    for &t in common {
        let (key, postings) = (keys_of(t), lists.get(t).copied().unwrap_or_default());
        let mut near = Vec::with_capacity(postings.len());
        near_anchors(&intervals, postings, |p| near.push(key(p)));
        runs.push(near);
    }
    merge_runs(&mut runs)
}

/// The occurrences of the query's stems that a window holding `m` distinct
/// terms can hold, and others near them, as [`Hit`]s by position; `None`
/// where the blocks do not apply (`m < 2`, more than [`BLOCK_TERMS`]
/// terms, windows wider than `2^MAX_BLOCK_SHIFT` tokens), for
/// [`merged_hits`] to answer.
///
/// The text is cut into blocks of `2^shift >= width` tokens, and each
/// block gets the set of terms it holds (a bit a term). A window of `width`
/// tokens lies within two neighbouring blocks, so one holding `m` distinct
/// terms lies in a pair whose sets' union has `m` terms or more: the hits
/// in blocks of no such pair are in no such window, and are dropped. What
/// [`in_rich_windows`] keeps of these hits is what it keeps of all of them
/// (or of [`merged_hits`]'s, which keeps every hit of such a window too):
/// every hit of a window with `m` terms is here, and a window of a subset
/// holds no more terms. The hits kept are put in order by a counting sort
/// on their block and a sort of each block's few hits, not by merging the
/// terms' runs (comparing hits of interleaved runs, a merge mispredicts a
/// branch about every other hit). The hits' surface flags are left clear:
/// [`find`] reads them ([`with_surfaces`]) only for the hits that
/// [`in_rich_windows`] keeps of these (on the shuffled sentences' near
/// misses, about two in five).
fn block_hits(query: &TokenQuery, index: &TokenIndex, m: usize, width: usize) -> Option<Vec<Hit>> {
    let n = query.terms.len();
    let shift = width.max(1).next_power_of_two().trailing_zeros();
    if n > BLOCK_TERMS || m < 2 || shift > MAX_BLOCK_SHIFT {
        return None;
    }
    let lists: Vec<&[u32]> =
        query.terms.iter().map(|(stem_id, _)| stem_id.map_or(&[][..], |id| index.postings(id))).collect();
    let total: usize = lists.iter().map(|l| l.len()).sum();
    // a block past the last one, so that every block has a right neighbour
    let blocks = (index.len() >> shift) + 2;
    // the cells kept between calls (all zero), or new ones where they are
    // in use (not on this thread's stack of calls: `find` does not recurse)
    let hits = CELLS.try_with(|kept| match kept.try_borrow_mut() {
        Ok(mut kept) => {
            if kept.len() < blocks {
                kept.resize(blocks, 0);
            }
            kept.get_mut(..blocks).map(|cells| block_hits_in(m, shift, &lists, total, cells))
        }
        Err(_) => None,
    });
    Some(match hits {
        Ok(Some(hits)) => hits,
        _ => block_hits_in(m, shift, &lists, total, &mut vec![0u64; blocks]),
    })
}

thread_local! {
    /// [`block_hits`]'s cells, kept from call to call all zero (each call
    /// clears those it set), so that a call costs its hits, not a pass
    /// over a new vector of the text's blocks (43 KB for 1 MB of text,
    /// about the size of all the hits' work).
    static CELLS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`block_hits`] with `cells`, one a block of `2^shift` tokens (and one
/// past the last), all zero; left all zero.
fn block_hits_in(m: usize, shift: u32, lists: &[&[u32]], total: usize, cells: &mut [u64]) -> Vec<Hit> {
    let blocks = cells.len();
    // each block's cell: its terms (a bit each) and number of hits; the
    // blocks with a hit, each written to `touched` where its first hit
    // comes and counted only then (no branch on whether a block is new,
    // which is as random as the postings)
    let mut touched = vec![0u32; total + 1];
    let mut touched_count = 0;
    for (t, list) in lists.iter().enumerate() {
        let bit = 1u64 << t;
        for &p in list.iter() {
            let b = p >> shift;
            if let (Some(cell), Some(slot)) = (cells.get_mut(b as usize), touched.get_mut(touched_count)) {
                *slot = b;
                touched_count += usize::from(*cell == 0);
                *cell = (*cell | bit) + CELL_HIT;
            }
        }
    }
    let touched = touched.get(..touched_count).unwrap_or_default();
    // the pairs whose union holds `m` terms or more, a bit each (at the
    // pair's left block). A block with hits is in such a pair with its
    // right neighbour, or with its left one; that one has hits too (or the
    // pair's union is the block's own set, in its pair with its right
    // neighbour), so it asks for that pair as its own right pair: one pair
    // a block with hits
    let mut live = vec![0u64; blocks.div_ceil(64) + 1];
    let terms_of = |b: usize| cells.get(b).map_or(0, |&c| c & CELL_TERMS);
    for &b in touched {
        let b = b as usize;
        if let Some(word) = live.get_mut(b >> 6) {
            *word |= u64::from(at_least(terms_of(b) | terms_of(b + 1), m)) << (b & 63);
        }
    }
    // the blocks of those pairs: each pair's left block and its right one
    // (the next bit, the top bit carried into the next word, which exists:
    // the last word's bits are past the last block)
    let mut carry = 0;
    for word in live.iter_mut() {
        let pairs = *word;
        *word = pairs | pairs << 1 | carry;
        carry = pairs >> 63;
    }
    // each live block's cell becomes its cursor: the flag and its first
    // place among the hits kept, in block order, after the one place (0)
    // that the dead blocks' hits all overwrite (a dead block's cell keeps
    // its count and terms, without the flag)
    let mut kept = 1u64;
    for (w, &word) in live.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            if let Some(cell) = cells.get_mut(w << 6 | bits.trailing_zeros() as usize) {
                (*cell, kept) = (CELL_LIVE | kept, kept + (*cell >> CELL_COUNT_SHIFT));
            }
            bits &= bits - 1;
        }
    }
    let mut hits = vec![0 as Hit; kept as usize];
    for (t, list) in lists.iter().enumerate() {
        for &p in list.iter() {
            if let Some(cell) = cells.get_mut((p >> shift) as usize) {
                // 0 for a dead block, without a branch
                let is_live = *cell >> 63;
                if let Some(place) = hits.get_mut(((*cell & CELL_PLACE) * is_live) as usize) {
                    *place = hit(p as usize, t, false);
                }
                // a live block's cursor moves on; a dead block's cell is
                // cleared (read again only here, where 0 is a dead block)
                *cell = (*cell + 1) & 0u64.wrapping_sub(is_live);
            }
        }
    }
    // each live block's hits (its terms' runs one after another) in order
    // (its cursor is now its end), and its cell cleared: with the dead
    // blocks' cells, cleared by the pass above (each has a hit), every
    // cell set is zero again
    let mut from = 1;
    let mut scratch = [0 as Hit; 64];
    for (w, &word) in live.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let to = cells.get_mut(w << 6 | bits.trailing_zeros() as usize).map_or(from, |c| {
                let to = (*c & CELL_PLACE) as usize;
                *c = 0;
                to
            });
            sort_block(hits.get_mut(from..to).unwrap_or_default(), shift, &mut scratch);
            from = to.max(from);
            bits &= bits - 1;
        }
    }
    hits.remove(0);
    hits
}

/// Sets the surface flag of `hits` (theirs cleared): whether the token
/// has the term's surface form.
fn with_surfaces(query: &TokenQuery, index: &TokenIndex, hits: &mut [Hit]) {
    let surfaces: Vec<Option<u32>> = query.terms.iter().map(|&(_, s)| s).collect();
    for h in hits.iter_mut() {
        let surface = surfaces.get(hit_term(*h)).copied().flatten();
        *h |= Hit::from(surface.is_some_and(|s| index.surface(hit_position(*h)) == s));
    }
}

/// The most terms [`block_hits`] takes: a block's cell holds them in its
/// low bits.
const BLOCK_TERMS: usize = 48;

/// The widest block [`block_hits`] uses, as a power of two: its count of
/// hits (at most one a token) fits the cell's 15 bits.
const MAX_BLOCK_SHIFT: u32 = 14;

/// A block's cell in [`block_hits`]: its terms in the low [`BLOCK_TERMS`]
/// bits, its hits counted from bit [`CELL_COUNT_SHIFT`]; then, for a
/// live block, [`CELL_LIVE`] and its cursor in the low 32 bits.
const CELL_TERMS: u64 = (1 << BLOCK_TERMS) - 1;
const CELL_COUNT_SHIFT: u32 = 48;
const CELL_HIT: u64 = 1 << CELL_COUNT_SHIFT;
const CELL_LIVE: u64 = 1 << 63;
const CELL_PLACE: u64 = 0xffff_ffff;

/// Whether `set` has `m` bits or more (`m` ≥ 1): its lowest `m - 1`
/// cleared, one is left (a few steps for the small `m` of the near misses,
/// where a count of all 64 bits without the CPU's instruction is a dozen).
#[inline]
fn at_least(mut set: u64, m: usize) -> bool {
    for _ in 1..m {
        set &= set.wrapping_sub(1);
    }
    set != 0
}

/// Sorts the hits of one block of `2^shift` tokens by position: up to 64
/// tokens, each hit written where its offset in the block says (in
/// `scratch`, of which only the places written are read) and read back in
/// order of a bit a token (positions are distinct); wider blocks by
/// insertion.
fn sort_block(run: &mut [Hit], shift: u32, scratch: &mut [Hit; 64]) {
    if run.len() < 2 {
        return;
    }
    if shift > 6 {
        return insertion_sort(run);
    }
    let mut present = 0u64;
    for &h in run.iter() {
        let offset = hit_position(h) & 63;
        if let Some(place) = scratch.get_mut(offset) {
            *place = h;
        }
        present |= 1 << offset;
    }
    for place in run.iter_mut() {
        if let Some(&h) = scratch.get(present.trailing_zeros() as usize) {
            *place = h;
        }
        present &= present.wrapping_sub(1);
    }
}

/// Sorts a few hits in place.
fn insertion_sort(run: &mut [Hit]) {
    for i in 1..run.len() {
        let mut j = i;
        while let (Some(&a), Some(&b)) = (j.checked_sub(1).and_then(|k| run.get(k)), run.get(j)) {
            if a <= b {
                break;
            }
            run.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The ascending merge of `runs` (each ascending), which it empties: the
/// two shortest merged first, as a Huffman code joins the two rarest
/// symbols, so that each hit is copied about as many times as its run's
/// depth in that tree (the runs' lengths vary a hundredfold: the rarest
/// terms' runs meet each other before they meet the commonest's).
fn merge_runs(runs: &mut Vec<Vec<Hit>>) -> Vec<Hit> {
    runs.retain(|r| !r.is_empty());
    loop {
        let Some(a) = take_shortest(runs) else {
            return Vec::new();
        };
        let Some(b) = take_shortest(runs) else {
            return a;
        };
        runs.push(merge_two(&a, &b));
    }
}

/// Removes and returns the shortest of `runs` (the first of equals).
fn take_shortest(runs: &mut Vec<Vec<Hit>>) -> Option<Vec<Hit>> {
    let at = runs.iter().enumerate().min_by_key(|(i, r)| (r.len(), *i)).map(|(i, _)| i)?;
    Some(runs.swap_remove(at))
}

/// The ascending merge of two ascending runs.
fn merge_two(mut a: &[Hit], mut b: &[Hit]) -> Vec<Hit> {
    // one hit a step, as many steps as hits: a map over a range, which
    // `collect` writes into a vector of the exact size without a check a
    // hit (the range's length is known)
    (0..a.len() + b.len())
        .map(|_| match (a, b) {
            ([x, rest_a @ ..], [y, ..]) if x <= y => {
                a = rest_a;
                *x
            }
            (_, [y, rest_b @ ..]) => {
                b = rest_b;
                *y
            }
            ([x, rest_a @ ..], []) => {
                a = rest_a;
                *x
            }
            // not reached: the steps are as many as the hits
            ([], []) => 0,
        })
        .collect()
}

/// The anchors' reaches `[p - reach, p + reach]` for ascending anchor
/// positions `p`, merged where they touch: ascending, disjoint.
fn reaches(anchors: impl Iterator<Item = usize>, reach: usize) -> Vec<(usize, usize)> {
    let mut intervals: Vec<(usize, usize)> = Vec::with_capacity(anchors.size_hint().0);
    // the last interval, held apart until the next one cannot join it
    let mut open: Option<(usize, usize)> = None;
    for p in anchors {
        let (lo, hi) = (p.saturating_sub(reach), p.saturating_add(reach));
        open = match open {
            Some((a, b)) if lo <= b.saturating_add(1) => Some((a, b.max(hi))),
            Some(last) => {
                intervals.push(last);
                Some((lo, hi))
            }
            None => Some((lo, hi)),
        };
    }
    intervals.extend(open);
    intervals
}

/// Calls `keep` with each of `postings` inside one of `intervals`: one
/// walk along both (both ascend), linear in the two.
fn near_anchors(intervals: &[(usize, usize)], postings: &[u32], mut keep: impl FnMut(usize)) {
    // `rest`: the intervals not wholly before the current posting
    let mut rest = intervals;
    for &p in postings {
        let p_at = p as usize;
        while let [(_, hi), later @ ..] = rest {
            if *hi >= p_at {
                break;
            }
            rest = later;
        }
        match rest.first() {
            Some(&(lo, _)) if lo <= p_at => keep(p_at),
            Some(_) => {}
            None => break,
        }
    }
}

/// The fewest distinct terms of `n` whose full weight reaches `floor`
/// (as [`sweep`] computes the score): a window with fewer scores below
/// `floor` (its numerator is at most `10 * (m - 1)`, which by this
/// minimum does not reach it). `None` when no window can.
fn fewest_terms(n: usize, floor: f64) -> Option<usize> {
    (1..=n).find(|&d| (10 * d) as f64 / (10 * n) as f64 >= floor)
}

/// Hits between two askings of the deadline in [`in_rich_windows`] (the
/// deadline itself reads the clock every `DEADLINE_STRIDE` askings).
const DEADLINE_HITS: usize = 16;

/// The hits (by position) that lie in a window `(at - width, at]` ending
/// at a hit `at` and holding at least `m` distinct terms, the others
/// dropped before the sweep. Lossless: a window of the sweep ending at a
/// hit is the hits of such a span (its left edge after tightening depends
/// only on them); one holding `m` terms or more keeps every hit, so its
/// state and score are the same; one holding fewer scored below `floor`
/// ([`fewest_terms`]), and with hits dropped it holds no more terms. On the
/// shuffled sentences' near misses this keeps about a fifth of the hits.
fn in_rich_windows(hits: &[Hit], n: usize, m: usize, width: usize, deadline: &Deadline) -> Vec<Hit> {
    let mut counts = vec![0u32; n];
    let mut distinct = 0usize;
    // the window's hits are `hits[left..=right]`; `trail` is `hits[left..]`
    let mut trail = hits.iter();
    // the hits before `decided` are kept or dropped for good: later
    // windows start at or after `left`; those in `pending..decided` are
    // kept and not yet copied (copied a run at a time, not a window at a
    // time)
    let (mut pending, mut decided) = (0, 0);
    let mut kept: Vec<Hit> = Vec::with_capacity(hits.len());
    for (right, &h) in hits.iter().enumerate() {
        // the deadline asked every DEADLINE_HITS hits (a hit costs a few
        // dozen instructions: its countdown was a sixth of them)
        if right % DEADLINE_HITS == 0 && deadline.expired() {
            return Vec::new();
        }
        if let Some(c) = counts.get_mut(hit_term(h)) {
            distinct += usize::from(*c == 0);
            *c += 1;
        }
        let at = hit_position(h);
        while let Some(&old) = trail.as_slice().first().filter(|&&o| hit_position(o) + width <= at) {
            if let Some(c) = counts.get_mut(hit_term(old)) {
                *c -= 1;
                distinct -= usize::from(*c == 0);
            }
            trail.next();
        }
        if distinct >= m {
            let left = hits.len() - trail.len();
            if left > decided {
                kept.extend_from_slice(hits.get(pending..decided).unwrap_or_default());
                pending = left;
            }
            decided = right + 1;
        }
    }
    kept.extend_from_slice(hits.get(pending..decided).unwrap_or_default());
    kept
}

/// Counts of each term in the current window: (any form, exact surface).
struct Sweep {
    counts: Vec<(u32, u32)>,
    /// Sum over present terms of 10 (surface present) or 9 (stem only).
    numerator: u32,
}

/// 0 for a term absent from the window, 9 present only in other forms of
/// its stem, 10 present in its own form (without branches: the sweep asks
/// it several times a hit).
#[inline]
fn weight(c: (u32, u32)) -> u32 {
    u32::from(c.0 != 0) * (9 + u32::from(c.1 != 0))
}

impl Sweep {
    #[inline]
    fn add(&mut self, h: Hit) {
        if let Some(c) = self.counts.get_mut(hit_term(h)) {
            self.numerator -= weight(*c);
            *c = (c.0 + 1, c.1 + hit_surface(h));
            self.numerator += weight(*c);
        }
    }

    #[inline]
    fn remove(&mut self, h: Hit) {
        if let Some(c) = self.counts.get_mut(hit_term(h)) {
            self.numerator -= weight(*c);
            *c = (c.0.saturating_sub(1), c.1.saturating_sub(hit_surface(h)));
            self.numerator += weight(*c);
        }
    }

    #[inline]
    fn removal_keeps_score(&self, h: Hit) -> bool {
        self.counts.get(hit_term(h)).is_some_and(|&c| weight(c) == weight((c.0 - 1, c.1 - hit_surface(h))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::normalize_str;
    use crate::text::Profile;

    fn run(doc: &str, quote: &str) -> Vec<(String, f64)> {
        let doc = normalize_str(doc, Profile::default());
        let idx = TokenIndex::new(&doc);
        let q = TokenQuery::new(&normalize_str(quote, Profile::default()), &idx);
        find(&q, &idx, 0.5, 5, &Deadline::never())
            .into_iter()
            .map(|m| (doc[m.start..m.end].to_string(), m.score))
            .collect()
    }

    #[test]
    fn paraphrase_of_spec_5_2() {
        let got = run(
            "The application needs to support user authentication using OAuth 2.0.",
            "application must implement OAuth 2.0 authentication",
        );
        assert_eq!(got, vec![("application needs to support user authentication using oauth 2.0".to_string(), 0.8)]);
    }

    #[test]
    fn stem_only_matches_weigh_less() {
        let got = run("Users need to authenticate. Authentication must be secure.", "authentication");
        assert_eq!(got, vec![("authentication".to_string(), 1.0), ("authenticate".to_string(), 0.9)]);
    }

    /// Every hit of the query's stems, by position (what `merged_hits`
    /// filters).
    fn all_hits(query: &TokenQuery, index: &TokenIndex) -> Vec<(usize, usize)> {
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for (t, (stem_id, _)) in query.terms.iter().enumerate() {
            if let Some(id) = stem_id {
                hits.extend(index.postings(*id).iter().map(|&p| (p as usize, t)));
            }
        }
        hits.sort();
        hits
    }

    /// [`all_hits`] packed as [`Hit`]s.
    fn all_packed(query: &TokenQuery, index: &TokenIndex) -> Vec<Hit> {
        all_hits(query, index)
            .into_iter()
            .map(|(p, t)| hit(p, t, query.terms[t].1.is_some_and(|s| index.surface(p) == s)))
            .collect()
    }

    /// The sweep as it was before hits were packed: (position, term)
    /// pairs, the index asked for each hit's surface form at every step,
    /// the score compared with `floor` as a float (the oracle of `sweep`).
    fn sweep_reference(
        query: &TokenQuery,
        index: &TokenIndex,
        hits: &[(usize, usize)],
        width: usize,
        floor: f64,
        limit: usize,
    ) -> Vec<TokenMatch> {
        let n = query.terms.len();
        let weight_ref = |c: (u32, u32)| match c {
            (0, _) => 0,
            (_, 0) => 9,
            _ => 10,
        };
        let surface = |h: (usize, usize)| query.terms[h.1].1.is_some_and(|s| index.surface(h.0) == s) as u32;
        let mut counts = vec![(0u32, 0u32); n];
        let mut numerator = 0u32;
        let mut step = |counts: &mut Vec<(u32, u32)>, h: (usize, usize), add: bool| {
            let c = &mut counts[h.1];
            numerator -= weight_ref(*c);
            *c = if add { (c.0 + 1, c.1 + surface(h)) } else { (c.0 - 1, c.1 - surface(h)) };
            numerator += weight_ref(*c);
            numerator
        };
        let mut candidates: Vec<(u32, usize, usize)> = Vec::new();
        let mut left = 0;
        for right in 0..hits.len() {
            let h = hits[right];
            let mut num = step(&mut counts, h, true);
            while hits[left].0 + width <= h.0 {
                num = step(&mut counts, hits[left], false);
                left += 1;
            }
            while left < right && {
                let (old, c) = (hits[left], counts[hits[left].1]);
                weight_ref(c) == weight_ref((c.0 - 1, c.1 - surface(old)))
            } {
                num = step(&mut counts, hits[left], false);
                left += 1;
            }
            if num as f64 / (10 * n) as f64 >= floor {
                candidates.push((num, hits[left].0, h.0));
            }
        }
        choose_by_sort(index, n, &candidates, limit)
    }

    /// The anchor filter of `merged_hits` changes no answer, and the packed
    /// sweep answers what the sweep over (position, term) pairs did: random
    /// texts over a small vocabulary (so that words repeat at every
    /// distance, and stems in several forms), random quotes, several floors
    /// and limits, against the sweeps over every hit.
    #[test]
    fn filtered_hits_find_what_all_hits_find() {
        let vocab = [
            "type",
            "types",
            "data",
            "memory",
            "the",
            "of",
            "borrow",
            "borrowing",
            "checker",
            "value",
            "values",
            "owner",
            "heap",
            "stack",
            "thread",
            "lifetime",
            "rust",
            "code",
            "compile",
            "compiler",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x5eed_70c3);
        let mut compared = 0;
        for _ in 0..300 {
            let len = 20 + rng.below(400);
            let words: Vec<&str> = (0..len).map(|_| vocab[rng.below(vocab.len())]).collect();
            let doc = words.join(" ");
            let idx = TokenIndex::new(&doc);
            for _ in 0..5 {
                let qlen = 1 + rng.below(14);
                let quote: Vec<&str> = (0..qlen).map(|_| vocab[rng.below(vocab.len())]).collect();
                let q = TokenQuery::new(&quote.join(" "), &idx);
                let width = q.token_count + (q.token_count / 2).max(2);
                for floor in [0.0, 0.3, 0.5, 0.75, 1.0] {
                    for limit in [1, 3, 50] {
                        let all = sweep(&q, &idx, &all_packed(&q, &idx), width, floor, limit, &Deadline::never());
                        assert_eq!(find(&q, &idx, floor, limit, &Deadline::never()), all, "{doc:?} / {quote:?}");
                        let reference = sweep_reference(&q, &idx, &all_hits(&q, &idx), width, floor, limit);
                        assert_eq!(all, reference, "{doc:?} / {quote:?}");
                        compared += all.len();
                    }
                }
            }
        }
        assert!(compared > 1000, "the cases found too few passages to compare: {compared}");
    }

    /// The window filter (`in_rich_windows`) changes no answer where it
    /// drops hits: sparse random texts (a larger vocabulary, so that most
    /// windows hold few of a quote's terms), quotes with repeated words,
    /// stop words only, and words the text lacks; against the sweeps over
    /// every hit, and the filter keeps every hit of each window holding
    /// `m` distinct terms (checked by brute force).
    #[test]
    fn rich_windows_keep_every_passage() {
        let content: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
        let forms = ["types", "borrowing", "compiler", "values"];
        let stop = ["the", "of", "and", "to", "is"];
        let absent = ["zebra", "quokka"];
        let mut rng = crate::test_rng::SplitMix64(0x0f11_7e25);
        let (mut dropped, mut compared) = (0, 0);
        for case in 0..400 {
            let len = 30 + rng.below(600);
            let pick = |rng: &mut crate::test_rng::SplitMix64| match rng.below(10) {
                0..=5 => content[rng.below(content.len())].clone(),
                6 => forms[rng.below(forms.len())].to_string(),
                _ => stop[rng.below(stop.len())].to_string(),
            };
            let words: Vec<String> = (0..len).map(|_| pick(&mut rng)).collect();
            let doc = words.join(" ");
            let idx = TokenIndex::new(&doc);
            let qlen = 1 + rng.below(16);
            let quote: Vec<String> = match case % 4 {
                // stop words only: the query keeps them as its terms
                0 => (0..qlen).map(|_| stop[rng.below(stop.len())].to_string()).collect(),
                // some words repeated, some absent from the text
                1 => (0..qlen)
                    .map(|i| match i % 3 {
                        0 => absent[rng.below(absent.len())].to_string(),
                        _ => words[rng.below(4).min(words.len() - 1)].clone(),
                    })
                    .collect(),
                // a passage of the text with words replaced
                _ => {
                    let at = rng.below(words.len());
                    (0..qlen).map(|i| words.get(at + i).cloned().unwrap_or_else(|| pick(&mut rng))).collect()
                }
            };
            let q = TokenQuery::new(&quote.join(" "), &idx);
            let n = q.terms.len();
            let width = q.token_count + (q.token_count / 2).max(2);
            let all = all_packed(&q, &idx);
            for floor in [0.0, 0.3, 0.5, 0.8, 1.0] {
                let Some(m) = fewest_terms(n, floor) else {
                    continue;
                };
                let kept = in_rich_windows(&all, n, m, width, &Deadline::never());
                // brute force: every window ending at a hit with `m` terms
                // or more has all its hits kept, and every kept hit lies
                // in such a window
                let rich: Vec<bool> = (0..all.len())
                    .map(|j| {
                        let at = hit_position(all[j]);
                        (0..all.len()).any(|r| {
                            let end = hit_position(all[r]);
                            let window: Vec<usize> = all
                                .iter()
                                .filter(|&&h| hit_position(h) + width > end && hit_position(h) <= end)
                                .map(|&h| hit_term(h))
                                .collect();
                            let mut terms = window.clone();
                            terms.sort();
                            terms.dedup();
                            at + width > end && at <= end && terms.len() >= m
                        })
                    })
                    .collect();
                let expected: Vec<Hit> = all.iter().zip(&rich).filter(|(_, &r)| r).map(|(&h, _)| h).collect();
                assert_eq!(kept, expected, "{doc:?} / {quote:?} / {floor}");
                dropped += all.len() - kept.len();
                for limit in [1, 3, 50] {
                    let every = sweep(&q, &idx, &all, width, floor, limit, &Deadline::never());
                    assert_eq!(find(&q, &idx, floor, limit, &Deadline::never()), every, "{doc:?} / {quote:?}");
                    let reference = sweep_reference(&q, &idx, &all_hits(&q, &idx), width, floor, limit);
                    assert_eq!(every, reference, "{doc:?} / {quote:?}");
                    compared += every.len();
                }
            }
        }
        assert!(dropped > 10_000, "the filter dropped too few hits to test it: {dropped}");
        assert!(compared > 1000, "the cases found too few passages to compare: {compared}");
    }

    /// `merge_runs` gives exactly the sort of all its runs' keys: random
    /// ascending runs (empty ones, one run, none, duplicates within and
    /// across runs, runs of very different lengths), and it empties them.
    #[test]
    fn merged_runs_are_the_sorted_keys() {
        let mut rng = crate::test_rng::SplitMix64(0x6d65_7267_6521);
        for case in 0..3000 {
            let count = match case % 5 {
                0 => rng.below(2),
                _ => rng.below(20),
            };
            // a small key range in some cases, so that keys repeat
            let range: Hit = if case % 3 == 0 { 8 } else { 1 << 40 };
            let mut runs: Vec<Vec<Hit>> = (0..count)
                .map(|_| {
                    let len = match rng.below(4) {
                        0 => 0,
                        1 => rng.below(3),
                        2 => rng.below(40),
                        _ => rng.below(400),
                    };
                    let mut run: Vec<Hit> = (0..len).map(|_| rng.next_u64() % range).collect();
                    run.sort();
                    run
                })
                .collect();
            let mut expected: Vec<Hit> = runs.concat();
            expected.sort();
            assert_eq!(merge_runs(&mut runs), expected, "case {case}");
            assert!(runs.is_empty(), "case {case}");
        }
    }

    /// `choose` as it was: every candidate sorted best first (numerator
    /// down, then width, then start, by a comparator, not `choice_key`),
    /// walked in that order, one kept when it overlaps none kept before it
    /// and its tokens exist (the oracle of the scans and of the sweep).
    fn choose_by_sort(
        index: &TokenIndex,
        n: usize,
        candidates: &[(u32, usize, usize)],
        limit: usize,
    ) -> Vec<TokenMatch> {
        let mut sorted = candidates.to_vec();
        sorted.sort_by(|a, b| b.0.cmp(&a.0).then((a.2 - a.1).cmp(&(b.2 - b.1))).then(a.1.cmp(&b.1)));
        let mut chosen: Vec<TokenMatch> = Vec::new();
        for (num, first, last) in sorted {
            if chosen.len() >= limit {
                break;
            }
            if chosen.iter().any(|c| first <= c.last_token && c.first_token <= last) {
                continue;
            }
            let (Some(a), Some(b)) = (index.token(first), index.token(last)) else {
                continue;
            };
            chosen.push(TokenMatch {
                first_token: first,
                last_token: last,
                start: a.start as usize,
                end: b.end as usize,
                score: num as f64 / (10 * n) as f64,
            });
        }
        chosen
    }

    /// `choose`'s scans keep what the sort and walk kept: random texts
    /// (emoji, CJK, combining marks, CRLF, empty, long), candidates as the
    /// sweep makes them (a distinct last token each, the first at or
    /// before it, numerators that repeat) and some past the last token,
    /// limits from 0 to 6.
    #[test]
    fn chosen_passages_are_the_sorted_walks() {
        let pool = [
            "alpha",
            "beta",
            "gamma",
            "caf\u{e9}",
            "e\u{301}t\u{e9}",
            "\u{1f600}",
            "\u{1f468}\u{200d}\u{1f469}",
            "\u{4e2d}\u{6587}",
            "\r\n",
            "don't",
            "2.5",
            "\u{5b57}",
            "word",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x6368_6f6f_7365);
        for case in 0..3000 {
            let words = match case % 4 {
                0 => rng.below(3),
                1 => rng.below(30),
                2 => rng.below(300),
                _ => rng.below(3000),
            };
            let doc: Vec<&str> = (0..words).map(|_| pool[rng.below(pool.len())]).collect();
            let doc = normalize_str(&doc.join(" "), Profile::default());
            let index = TokenIndex::new(&doc);
            let span = index.len() + 3;
            let n = 1 + rng.below(12);
            let mut candidates: Vec<(u32, usize, usize)> = Vec::new();
            let mut last = 0;
            for _ in 0..rng.below(if case % 3 == 0 { 8 } else { 400 }) {
                last += 1 + rng.below(4);
                if last >= span {
                    break;
                }
                let first = last - rng.below(last.min(40) + 1);
                let num = (rng.below(10 * n + 1) as u32).max(if case % 2 == 0 { 10 * n as u32 - 3 } else { 0 });
                candidates.push((num, first, last));
            }
            let limit = rng.below(7);
            let got = choose(&index, n, &candidates, limit, &Deadline::never());
            assert_eq!(got, choose_by_sort(&index, n, &candidates, limit), "case {case}");
        }
    }

    /// `reaches` and `near_anchors` keep exactly the postings within
    /// `reach` of an anchor (brute force), with disjoint ascending
    /// intervals: random ascending anchors and postings, reaches of 0 to
    /// 60, anchors near 0 (the saturating edge), none, duplicates.
    #[test]
    fn near_anchors_are_the_postings_within_reach() {
        let mut rng = crate::test_rng::SplitMix64(0x7265_6163_6865);
        for case in 0..2000 {
            let span = 1 + rng.below(if case % 2 == 0 { 200 } else { 5000 });
            let mut anchors: Vec<usize> = (0..rng.below(40)).map(|_| rng.below(span)).collect();
            anchors.sort();
            let mut postings: Vec<u32> = (0..rng.below(200)).map(|_| rng.below(span) as u32).collect();
            postings.sort();
            postings.dedup();
            let reach = rng.below(61);
            let intervals = reaches(anchors.iter().copied(), reach);
            assert!(intervals.windows(2).all(|w| w[0].1 + 1 < w[1].0), "case {case}: {intervals:?}");
            let mut kept = Vec::new();
            near_anchors(&intervals, &postings, |p| kept.push(p));
            let expected: Vec<usize> = postings
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| anchors.iter().any(|&a| p.abs_diff(a) <= reach))
                .collect();
            assert_eq!(kept, expected, "case {case}: {anchors:?} {reach}");
        }
    }

    /// `TokenQuery::new` (stem ids taken from the index's surfaces) gives
    /// the terms it gave when it stemmed every word: random quotes of words
    /// the text has, other forms of their stems, words it lacks, repeats,
    /// stop words, apostrophes, digits, CJK and emoji.
    #[test]
    fn query_terms_are_the_stemmed_words() {
        let vocab = [
            "type",
            "types",
            "typed",
            "borrow",
            "borrowing",
            "borrowed",
            "the",
            "of",
            "and",
            "checker",
            "checking",
            "don't",
            "it's",
            "3.2",
            "42",
            "中文",
            "😀",
            "café",
            "zebra",
            "quokkas",
            "authenticate",
            "authentication",
        ];
        let mut rng = crate::test_rng::SplitMix64(0x0074_6572_6d73);
        for _ in 0..500 {
            let doc: Vec<&str> = (0..rng.below(60)).map(|_| vocab[rng.below(vocab.len() - 4)]).collect();
            let doc = normalize_str(&doc.join(" "), Profile::default());
            let idx = TokenIndex::new(&doc);
            let quote: Vec<&str> = (0..1 + rng.below(12)).map(|_| vocab[rng.below(vocab.len())]).collect();
            let quote = normalize_str(&quote.join(" "), Profile::default());
            // the former construction: every chosen word stemmed
            let words: Vec<&str> = tokens::tokenize(&quote).iter().map(|t| t.text(&quote)).collect();
            let content: Vec<&str> = words.iter().copied().filter(|w| !tokens::is_stop_word(w)).collect();
            let chosen = if content.is_empty() { &words } else { &content };
            let mut seen: Vec<&str> = Vec::new();
            let mut expected = Vec::new();
            for w in chosen {
                let s = stem(w);
                if !seen.contains(&s) {
                    seen.push(s);
                    expected.push((idx.stem_id(s), idx.surface_id(w)));
                }
            }
            let q = TokenQuery::new(&quote, &idx);
            assert_eq!(q.terms, expected, "{doc:?} / {quote:?}");
            assert_eq!(q.token_count, words.len());
        }
    }

    /// `block_hits` keeps, in order (and, once `with_surfaces` has set
    /// their flags, cleared by it, as `all_packed` has them), every
    /// hit of each window holding `m` distinct terms, so that the window
    /// filter keeps of them what it keeps of all the hits (and of
    /// `merged_hits`'s): random texts of up to 4,000 words over a small
    /// vocabulary with emoji, ZWJ sequences, CJK, combining marks, curly
    /// quotes, apostrophes, numbers and CRLF (so that blocks hold several
    /// terms and many are dropped); quotes from a passage of the text with
    /// words replaced, of random words, long ones (windows wider than 64
    /// tokens, whose blocks are sorted by insertion) and ones of more terms
    /// than a cell holds (which `merged_hits` answers); every floor's `m`.
    #[test]
    fn block_hits_keep_every_rich_window() {
        let content: Vec<String> = (0..90).map(|i| format!("w{i}")).collect();
        let extras = [
            "na\u{ef}ve",
            "cafe\u{301}",
            "\u{65e5}\u{672c}\u{8a9e}",
            "\u{1f600}",
            "\u{1f469}\u{200d}\u{1f4bb}",
            "\u{201c}quoted\u{201d}",
            "it\u{2019}s",
            "types",
            "type",
            "typed",
            "borrowing",
            "borrow",
            "the",
            "of",
            "2.0",
            "3,200",
        ];
        let mut rng = crate::test_rng::SplitMix64(0xb10c_4175);
        let (mut dropped, mut kept, mut fallbacks, mut compared) = (0, 0, 0, 0);
        for case in 0..240 {
            // a vocabulary of 10 to 90 content words: small ones repeat
            // often, large ones leave most blocks with few terms
            let spread = 10 + rng.below(content.len() - 10);
            let pick = |rng: &mut crate::test_rng::SplitMix64| match rng.below(8) {
                0 => extras[rng.below(extras.len())].to_string(),
                _ => content[rng.below(spread)].clone(),
            };
            let len = 20 + rng.below(4000);
            let words: Vec<String> = (0..len).map(|_| pick(&mut rng)).collect();
            let mut doc = String::new();
            for (i, w) in words.iter().enumerate() {
                doc.push_str(if i % 13 == 12 { "\r\n" } else { " " });
                doc.push_str(w);
            }
            let doc = normalize_str(&doc, Profile::default());
            let idx = TokenIndex::new(&doc);
            let qlen = match case % 5 {
                0 => 40 + rng.below(80),
                _ => 1 + rng.below(20),
            };
            let quote: Vec<String> = match case % 3 {
                // a passage of the text, some words replaced
                0 | 1 => {
                    let at = rng.below(words.len());
                    (0..qlen)
                        .map(|i| match (words.get(at + i), rng.below(4)) {
                            (Some(w), 1..=3) => w.clone(),
                            _ => pick(&mut rng),
                        })
                        .collect()
                }
                // distinct content words: with a long quote, more terms
                // than a cell holds
                _ => (0..qlen).map(|i| content[(i * 7 + case) % content.len()].clone()).collect(),
            };
            let q = TokenQuery::new(&normalize_str(&quote.join(" "), Profile::default()), &idx);
            let n = q.terms.len();
            let width = q.token_count + (q.token_count / 2).max(2);
            let all = all_packed(&q, &idx);
            for floor in [0.0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0] {
                let Some(m) = fewest_terms(n, floor) else {
                    continue;
                };
                let expected = in_rich_windows(&all, n, m, width, &Deadline::never());
                match block_hits(&q, &idx, m, width) {
                    None => {
                        assert!(n > BLOCK_TERMS || m < 2, "{n} terms, m {m}");
                        fallbacks += usize::from(m >= 2);
                    }
                    Some(mut hits) => {
                        // without their surface flags
                        assert!(hits.iter().all(|&h| hit_surface(h) == 0), "{doc:?} / {quote:?}");
                        with_surfaces(&q, &idx, &mut hits);
                        assert!(hits.windows(2).all(|w| w[0] < w[1]), "{doc:?} / {quote:?}");
                        assert!(hits.iter().all(|h| all.binary_search(h).is_ok()), "{doc:?} / {quote:?}");
                        assert!(expected.iter().all(|h| hits.binary_search(h).is_ok()), "{doc:?} / {quote:?}");
                        assert_eq!(in_rich_windows(&hits, n, m, width, &Deadline::never()), expected);
                        // the cells kept for the next call are all zero
                        CELLS.with(|cells| assert!(cells.borrow().iter().all(|&c| c == 0)));
                        dropped += all.len() - hits.len();
                        kept += hits.len();
                    }
                }
                let merged = merged_hits(&q, &idx, floor, width);
                assert_eq!(in_rich_windows(&merged, n, m.max(1), width, &Deadline::never()), expected);
                for limit in [1, 3] {
                    let every = sweep(&q, &idx, &all, width, floor, limit, &Deadline::never());
                    assert_eq!(find(&q, &idx, floor, limit, &Deadline::never()), every, "{doc:?} / {quote:?}");
                    compared += every.len();
                }
            }
        }
        assert!(dropped > 100_000 && kept > 100_000, "too few hits dropped or kept: {dropped}, {kept}");
        assert!(fallbacks > 10, "too few quotes of more terms than a cell holds: {fallbacks}");
        assert!(compared > 1000, "the cases found too few passages to compare: {compared}");
    }

    /// `at_least` is a count of the bits, and `sort_block` a sort, on
    /// random sets of every density and random blocks' hits (terms' runs
    /// one after another, blocks of 1 to 2^9 tokens).
    #[test]
    fn block_helpers_are_counts_and_sorts() {
        let mut rng = crate::test_rng::SplitMix64(0xc0_117e);
        for _ in 0..20_000 {
            let mut set = rng.next_u64();
            for _ in 0..rng.below(4) {
                set &= rng.next_u64();
            }
            let m = 1 + rng.below(64);
            assert_eq!(at_least(set, m), set.count_ones() as usize >= m, "{set:#x} {m}");
        }
        let mut scratch = [0 as Hit; 64];
        for _ in 0..5000 {
            let shift = rng.below(10) as u32;
            let base = rng.below(1000) << shift;
            // distinct positions of the block, dealt to terms in runs
            let mut positions: Vec<usize> = (0..1usize << shift).filter(|_| rng.below(3) == 0).collect();
            let mut run: Vec<Hit> = Vec::new();
            let mut t = 0;
            while !positions.is_empty() {
                let take = 1 + rng.below(positions.len());
                let mut mine: Vec<usize> =
                    (0..take).map(|_| positions.swap_remove(rng.below(positions.len()))).collect();
                mine.sort();
                run.extend(mine.iter().map(|&p| hit(base + p, t, rng.below(2) == 0)));
                t += 1;
            }
            let mut expected = run.clone();
            expected.sort();
            sort_block(&mut run, shift, &mut scratch);
            assert_eq!(run, expected);
        }
    }

    #[test]
    fn unrelated_text_gives_nothing() {
        assert!(run("The system will use PostgreSQL database.", "implement microservices architecture").is_empty());
    }
}
