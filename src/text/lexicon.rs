//! What the meaning guard needs to know about English words
//! ([`crate::matching::meaning`]): whether a quoted form is a word at all
//! (a typo is not; a substitution is), and which words belong to closed
//! classes (pronouns, prepositions, numbers, units, …) whose change always
//! changes what a sentence says.
//!
//! The word list is the union of Debian's `wamerican` and `wbritish` (both
//! SCOWL size 50, 2020.12.07), without possessives (`'s`) and without
//! capitalized entries: 65,601 words. It is stored sorted and front-coded in
//! `words.bin` (each entry: a byte for the length of the prefix shared with
//! the entry before, the rest of the word, a 0 byte; every 32nd entry is
//! written whole so that a lookup is a binary search over those and a scan
//! of at most 32): 292,351 bytes, 103,173 gzipped (`gzip -9`), which is what
//! it adds to the `.wasm`. A probabilistic filter would be ~15 % smaller but
//! could call a typo a word; an exact list answers the same on every
//! platform and is easy to check.
//!
//! The lists have no hyphenated entries (`co-founder` is not a word here),
//! and 14 kept entries have a capital after the first letter (`kHz`, `kW`,
//! `dB`, `pH`, `iPhone`, `eBay`, `d'Estaing`, …): they are stored as
//! written, so a lowercase lookup does not find them (the units among them
//! are closed-class words below).
//!
//! The capitalized entries (names: `Tim`, `Argo`) that are not also common
//! words are a second list of 9,637, lowercased (`names.bin`, 51,656 bytes,
//! 26,290 gzipped): a quoted form that is a name is no typo either.
//!
//! Regenerate after a change of the lists (`scripts/setup.sh` installs
//! them): `EV_WRITE_WORDS=1 cargo test --lib text::lexicon`.

use std::sync::OnceLock;

static WORDS: &[u8] = include_bytes!("words.bin");
static NAMES: &[u8] = include_bytes!("names.bin");

/// Every this many entries one is stored whole.
const RESTART: usize = 32;

/// The entries of `blob` stored whole (every [`RESTART`]th): their words,
/// for the binary search, and their offsets.
struct Heads {
    words: Vec<&'static [u8]>,
    offsets: Vec<u32>,
    /// The first 8 bytes of each of `words` as a big-endian number, zero
    /// padded ([`key_of`]): the binary search compares numbers in one
    /// array instead of following a pointer into the blob at every step.
    keys: Vec<u64>,
}

/// The first 8 bytes of `w` as a big-endian number, zero padded: ordered as
/// the words are (no word has a zero byte, so a word's padding sorts
/// before any longer word's next byte), equal keys only for words whose
/// first 8 bytes are equal (or that are equal).
#[inline(always)]
fn key_of(w: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    for (d, s) in k.iter_mut().zip(w) {
        *d = *s;
    }
    u64::from_be_bytes(k)
}

impl Heads {
    fn new(words: Vec<&'static [u8]>, offsets: Vec<u32>) -> Heads {
        let keys = words.iter().map(|w| key_of(w)).collect();
        Heads { words, offsets, keys }
    }

    /// The number of heads `<= w` (`words.partition_point(|h| *h <= w)`):
    /// by the keys, the words compared only among heads whose key is `w`'s.
    #[inline]
    fn block_of(&self, w: &[u8]) -> usize {
        let key = key_of(w);
        let below = self.keys.partition_point(|&k| k < key);
        let equal = self.keys.get(below..).unwrap_or_default().iter().take_while(|&&k| k == key).count();
        below + self.words.get(below..below + equal).unwrap_or_default().partition_point(|h| *h <= w)
    }
}

fn heads_of(blob: &'static [u8]) -> Heads {
    let (mut words, mut offsets) = (Vec::with_capacity(blob.len() / 200), Vec::with_capacity(blob.len() / 200));
    // an entry: its prefix byte (0 for a whole word), the suffix, a 0; so
    // an entry starting at `at` ends at the first 0 after `at` (one pass
    // over the blob, eight bytes at a time, not a search per entry:
    // entries are a few bytes long)
    let (mut at, mut n) = (0usize, 0usize);
    let mut push = |at: usize, end: usize, n: usize| {
        if n % RESTART == 0 {
            offsets.push(at as u32);
            words.push(blob.get(at + 1..end).unwrap_or(&[]));
        }
    };
    for (k, chunk) in blob.chunks(8).enumerate() {
        let mut word = [0xffu8; 8]; // the last chunk padded with bytes that are not 0
        for (d, s) in word.iter_mut().zip(chunk) {
            *d = *s;
        }
        let mut zeros = zero_bytes(u64::from_le_bytes(word));
        while zeros != 0 {
            let i = k * 8 + (zeros.trailing_zeros() / 8) as usize;
            zeros &= zeros - 1;
            if i <= at {
                continue; // the entry's prefix byte
            }
            push(at, i, n);
            at = i + 1;
            n += 1;
        }
    }
    if at < blob.len() {
        push(at, blob.len(), n); // a last entry without its 0
    }
    Heads::new(words, offsets)
}

/// The high bit of each byte of `x` (little-endian) that is 0, exactly
/// (no carries between bytes: each byte's low seven bits plus 0x7f stay in
/// the byte).
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// The first zero byte of `blob` at or after `from` (or its length): an
/// entry's end, eight bytes at a time ([`zero_bytes`]), the last few one
/// at a time.
#[inline]
fn entry_end(blob: &[u8], from: usize) -> usize {
    let mut at = from;
    while let Some(chunk) = blob.get(at..).and_then(|r| r.first_chunk::<8>()) {
        let zeros = zero_bytes(u64::from_le_bytes(*chunk));
        if zeros != 0 {
            return at + (zeros.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while blob.get(at).is_some_and(|&b| b != 0) {
        at += 1;
    }
    at
}

/// Whether `word` (lowercase; `'` as the apostrophe) is an English word of
/// the list (a common word, not a name).
pub fn is_english_word(word: &str) -> bool {
    static HEADS: OnceLock<Heads> = OnceLock::new();
    contains(WORDS, HEADS.get_or_init(|| heads_of(WORDS)), word)
}

/// Whether `word` (lowercase) is a name of the same lists that is not also
/// a common word (`tim` for Tim, `argo` for Argo): their capitalized
/// entries, lowercased, in `names.bin`.
pub fn is_name(word: &str) -> bool {
    static HEADS: OnceLock<Heads> = OnceLock::new();
    contains(NAMES, HEADS.get_or_init(|| heads_of(NAMES)), word)
}

/// Front-coded lookup: binary search over the whole entries, then a scan of
/// at most [`RESTART`] entries, each compared with `word` from where it
/// and `word` can first differ: an entry that shares more with the one
/// before than that one shares with `word` is, like it, before `word`.
fn contains(blob: &'static [u8], heads: &Heads, word: &str) -> bool {
    let w = word.as_bytes();
    if w.is_empty() || w.len() > 64 {
        return false;
    }
    // the last block whose first word is <= w
    let block = heads.block_of(w);
    let Some(&start) = block.checked_sub(1).and_then(|b| heads.offsets.get(b)) else { return false };
    // `len`: the length of the entry before; `common`: its common prefix with w
    let (mut len, mut common) = (0usize, 0usize);
    let mut at = start as usize;
    for _ in 0..RESTART {
        let Some(&shared) = blob.get(at) else { return false };
        let end = entry_end(blob, at + 1);
        let suffix = blob.get(at + 1..end).unwrap_or(&[]);
        let shared = (shared as usize).min(len);
        len = shared + suffix.len();
        if len > 256 {
            return false; // longer than any word (as the former copy into a 256-byte buffer said)
        }
        if shared <= common {
            // the entry equals w up to `shared`: compare the rest
            let rest = w.get(shared..).unwrap_or(&[]);
            let same = suffix.iter().zip(rest).take_while(|(a, b)| a == b).count();
            common = shared + same;
            match (suffix.get(same), rest.get(same)) {
                (None, None) => return true,
                (Some(_), None) => return false,
                (Some(a), Some(b)) if a > b => return false,
                _ => {} // before w
            }
        }
        at = end + 1;
        if at >= blob.len() {
            return false;
        }
    }
    false
}

/// A closed word class: a small set of words that carry a sentence's
/// grammar or quantities, where one for another is never a typo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordClass {
    /// `he`, `her`, `we`, `which`, `someone`, …
    Pronoun,
    /// `a`, `the`, `this`, …
    Determiner,
    /// `all`, `every`, `some`, `few`, …
    Quantifier,
    /// `can`, `must`, `should`, …
    Modal,
    /// `over`, `under`, `before`, …
    Preposition,
    /// `and`, `or`, `because`, …
    Conjunction,
    /// `not`, `never`, `don't`, …
    Negation,
    /// `more`, `less`, `best`, `maximum`, …
    Comparative,
    /// `four`, `twenty`, `dozen`, `twice`, …
    NumberWord,
    /// `first`, `21st`-style words, `last`, `next`, …
    Ordinal,
    /// `january`, `jan`, …
    Month,
    /// `monday`, `mon`, …
    Weekday,
    /// `ms`, `hours`, `gb`, `km`, `percent`, `dollars`, …
    Unit,
    /// `thousand`, `million`, `bn`, …
    Scale,
}

/// The classes in priority order ([`closed_class`] returns the first that
/// applies), as bit positions.
const PRIORITY: [WordClass; 14] = [
    WordClass::Negation,
    WordClass::NumberWord,
    WordClass::Ordinal,
    WordClass::Scale,
    WordClass::Unit,
    WordClass::Month,
    WordClass::Weekday,
    WordClass::Pronoun,
    WordClass::Determiner,
    WordClass::Quantifier,
    WordClass::Modal,
    WordClass::Comparative,
    WordClass::Preposition,
    WordClass::Conjunction,
];

const PRONOUNS: &[&str] = &[
    "he",
    "him",
    "his",
    "himself",
    "she",
    "her",
    "hers",
    "herself",
    "it",
    "its",
    "itself",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "themself",
    "we",
    "us",
    "our",
    "ours",
    "ourselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "i",
    "me",
    "my",
    "mine",
    "myself",
    "who",
    "whom",
    "whose",
    "which",
    "what",
    "whoever",
    "whomever",
    "whatever",
    "whichever",
    "someone",
    "somebody",
    "something",
    "anyone",
    "anybody",
    "anything",
    "everyone",
    "everybody",
    "everything",
    "nobody",
    "nothing",
    "noone",
    "one",
    "oneself",
    "others",
    "another",
    "each",
    "such",
    "thou",
    "thee",
    "thy",
    "ye",
    "y'all",
];
const DETERMINERS: &[&str] = &["a", "an", "the", "this", "that", "these", "those", "yonder"];
const QUANTIFIERS: &[&str] = &[
    "all",
    "every",
    "each",
    "some",
    "any",
    "many",
    "much",
    "few",
    "fewer",
    "fewest",
    "several",
    "both",
    "either",
    "neither",
    "most",
    "more",
    "less",
    "least",
    "no",
    "none",
    "enough",
    "various",
    "numerous",
    "plenty",
    "half",
    "whole",
    "entire",
    "only",
    "just",
    "most",
    "lots",
    "lot",
    "certain",
    "sole",
    "single",
    "majority",
    "minority",
    "always",
    "sometimes",
    "often",
    "rarely",
    "seldom",
    "usually",
    "never",
    "ever",
    "once",
    "twice",
    "again",
];
const MODALS: &[&str] = &[
    "can",
    "could",
    "may",
    "might",
    "must",
    "shall",
    "should",
    "will",
    "would",
    "ought",
    "need",
    "dare",
    "cannot",
    "can't",
    "couldn't",
    "mustn't",
    "shan't",
    "shouldn't",
    "won't",
    "wouldn't",
    "mightn't",
    "needn't",
];
const PREPOSITIONS: &[&str] = &[
    "about",
    "above",
    "across",
    "after",
    "against",
    "along",
    "alongside",
    "amid",
    "amidst",
    "among",
    "amongst",
    "around",
    "as",
    "at",
    "atop",
    "before",
    "behind",
    "below",
    "beneath",
    "beside",
    "besides",
    "between",
    "beyond",
    "by",
    "despite",
    "down",
    "during",
    "except",
    "for",
    "from",
    "in",
    "inside",
    "into",
    "like",
    "minus",
    "near",
    "nearby",
    "of",
    "off",
    "on",
    "onto",
    "opposite",
    "out",
    "outside",
    "over",
    "past",
    "per",
    "plus",
    "regarding",
    "round",
    "since",
    "than",
    "through",
    "throughout",
    "till",
    "to",
    "toward",
    "towards",
    "under",
    "underneath",
    "unlike",
    "until",
    "unto",
    "up",
    "upon",
    "versus",
    "via",
    "vs",
    "with",
    "within",
    "without",
    "ahead",
    "apart",
    "away",
    "back",
    "forward",
    "inward",
    "outward",
    "upward",
    "downward",
    "onward",
    "here",
    "there",
    "where",
    "everywhere",
    "somewhere",
    "anywhere",
    "nowhere",
    "earlier",
    "later",
    "early",
    "late",
];
const CONJUNCTIONS: &[&str] = &[
    "and",
    "or",
    "but",
    "nor",
    "yet",
    "so",
    "because",
    "although",
    "though",
    "unless",
    "whereas",
    "while",
    "whilst",
    "if",
    "whether",
    "since",
    "until",
    "till",
    "when",
    "whenever",
    "wherever",
    "where",
    "once",
    "lest",
    "than",
    "then",
    "therefore",
    "however",
    "otherwise",
    "hence",
    "thus",
    "also",
    "too",
    "either",
    "neither",
    "both",
    "instead",
    "rather",
    "except",
    "even",
    "still",
    "moreover",
    "furthermore",
    "nevertheless",
    "nonetheless",
];
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "none",
    "nothing",
    "nobody",
    "nowhere",
    "neither",
    "nor",
    "cannot",
    "without",
    "noone",
    "nope",
    "n't",
    "ain't",
    "aren't",
    "can't",
    "couldn't",
    "didn't",
    "doesn't",
    "don't",
    "hadn't",
    "hasn't",
    "haven't",
    "isn't",
    "mightn't",
    "mustn't",
    "needn't",
    "shan't",
    "shouldn't",
    "wasn't",
    "weren't",
    "won't",
    "wouldn't",
    "unable",
    "lack",
    "lacks",
    "lacked",
    "absent",
    "fail",
    "fails",
    "failed",
];
const COMPARATIVES: &[&str] = &[
    "more",
    "less",
    "most",
    "least",
    "better",
    "worse",
    "best",
    "worst",
    "higher",
    "lower",
    "highest",
    "lowest",
    "greater",
    "greatest",
    "larger",
    "largest",
    "smaller",
    "smallest",
    "bigger",
    "biggest",
    "fewer",
    "fewest",
    "earlier",
    "earliest",
    "later",
    "latest",
    "faster",
    "fastest",
    "slower",
    "slowest",
    "longer",
    "longest",
    "shorter",
    "shortest",
    "older",
    "oldest",
    "newer",
    "newest",
    "above",
    "below",
    "over",
    "under",
    "maximum",
    "minimum",
    "max",
    "min",
    "top",
    "bottom",
    "increase",
    "decrease",
    "increased",
    "decreased",
    "up",
    "down",
    "farther",
    "further",
    "farthest",
    "furthest",
    "superior",
    "inferior",
    "prior",
    "former",
    "latter",
    "same",
    "different",
    "equal",
    "unequal",
];
/// The number words below twenty, by value (`SMALL_NUMBERS[5]` is
/// `"five"`): read by the quantity reader, and number words for the
/// meaning guard.
pub(crate) const SMALL_NUMBERS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
/// The tens from twenty, by value (`TENS[0]` is `"twenty"`).
pub(crate) const TENS: [&str; 8] = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/// Number words besides [`SMALL_NUMBERS`] and [`TENS`].
const NUMBER_WORDS: &[&str] = &[
    "nil",
    "none",
    "hundred",
    "hundreds",
    "dozen",
    "dozens",
    "half",
    "halves",
    "quarter",
    "quarters",
    "third",
    "thirds",
    "once",
    "twice",
    "thrice",
    "single",
    "double",
    "triple",
    "quadruple",
    "pair",
    "couple",
    "score",
    "both",
    "tens",
    "twenties",
    "thirties",
    "forties",
    "fifties",
    "sixties",
    "seventies",
    "eighties",
    "nineties",
    "nought",
    "naught",
];
/// The ordinals below twentieth, by value (`SMALL_ORDINALS[5]` is
/// `"fifth"`; `"zeroth"` is read as a number but is no closed-class word).
pub(crate) const SMALL_ORDINALS: [&str; 20] = [
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
];
/// The tens' ordinals from twentieth, by value.
pub(crate) const TENS_ORDINALS: [&str; 8] =
    ["twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"];

/// Ordinals besides [`SMALL_ORDINALS`] (but `zeroth`) and [`TENS_ORDINALS`].
const ORDINALS: &[&str] = &[
    "hundredth",
    "thousandth",
    "millionth",
    "billionth",
    "last",
    "next",
    "previous",
    "penultimate",
    "final",
    "initial",
    "primary",
    "secondary",
    "tertiary",
    "firstly",
    "secondly",
    "thirdly",
    "lastly",
];
/// Month names: the twelve in calendar order, then their abbreviations.
pub(crate) const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];
const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "weekday",
    "weekend",
    "today",
    "tomorrow",
    "yesterday",
    "tonight",
];
const UNITS: &[&str] = &[
    // time
    "ns",
    "nanosecond",
    "nanoseconds",
    "us",
    "µs",
    "μs",
    "microsecond",
    "microseconds",
    "ms",
    "msec",
    "msecs",
    "millisecond",
    "milliseconds",
    "s",
    "sec",
    "secs",
    "second",
    "seconds",
    "min",
    "mins",
    "minute",
    "minutes",
    "h",
    "hr",
    "hrs",
    "hour",
    "hours",
    "day",
    "days",
    "week",
    "weeks",
    "wk",
    "wks",
    "month",
    "months",
    "mo",
    "mos",
    "year",
    "years",
    "yr",
    "yrs",
    "decade",
    "decades",
    "century",
    "centuries",
    "quarter",
    "quarters",
    "fortnight",
    // data and rates
    "b",
    "bit",
    "bits",
    "byte",
    "bytes",
    "kb",
    "mb",
    "gb",
    "tb",
    "pb",
    "kib",
    "mib",
    "gib",
    "tib",
    "kbit",
    "mbit",
    "gbit",
    "kbps",
    "mbps",
    "gbps",
    "bps",
    "iops",
    "qps",
    "rps",
    "tps",
    "fps",
    "rpm",
    "hz",
    "khz",
    "mhz",
    "ghz",
    // length, area, volume, mass
    "mm",
    "cm",
    "m",
    "km",
    "in",
    "inch",
    "inches",
    "ft",
    "foot",
    "feet",
    "yd",
    "yard",
    "yards",
    "mi",
    "mile",
    "miles",
    "meter",
    "meters",
    "metre",
    "metres",
    "kilometer",
    "kilometers",
    "kilometre",
    "kilometres",
    "centimeter",
    "centimeters",
    "millimeter",
    "millimeters",
    "nm",
    "mg",
    "g",
    "kg",
    "gram",
    "grams",
    "kilogram",
    "kilograms",
    "lb",
    "lbs",
    "pound",
    "pounds",
    "oz",
    "ounce",
    "ounces",
    "ton",
    "tons",
    "tonne",
    "tonnes",
    "l",
    "ml",
    "liter",
    "liters",
    "litre",
    "litres",
    "gal",
    "gallon",
    "gallons",
    "acre",
    "acres",
    "hectare",
    "hectares",
    "sqft",
    // energy, power, electricity, temperature
    "w",
    "kw",
    "mw",
    "gw",
    "kwh",
    "mwh",
    "gwh",
    "watt",
    "watts",
    "v",
    "mv",
    "kv",
    "volt",
    "volts",
    "a",
    "ma",
    "amp",
    "amps",
    "ampere",
    "amperes",
    "j",
    "kj",
    "joule",
    "joules",
    "cal",
    "kcal",
    "calorie",
    "calories",
    "c",
    "f",
    "k",
    "celsius",
    "fahrenheit",
    "kelvin",
    "degree",
    "degrees",
    // screen and type
    "px",
    "pt",
    "em",
    "rem",
    "dpi",
    "ppi",
    // money and shares
    "usd",
    "eur",
    "gbp",
    "jpy",
    "cny",
    "inr",
    "chf",
    "cad",
    "aud",
    "dollar",
    "dollars",
    "cent",
    "cents",
    "euro",
    "euros",
    "pound",
    "pounds",
    "yen",
    "yuan",
    "rupee",
    "rupees",
    "franc",
    "francs",
    "percent",
    "pct",
    "per",
    "basis",
    "bps",
    "point",
    "points",
    "pp",
    "x",
    "times",
    "fold",
];
const SCALES: &[&str] = &[
    "thousand",
    "thousands",
    "million",
    "millions",
    "billion",
    "billions",
    "trillion",
    "trillions",
    "quadrillion",
    "k",
    "m",
    "mm",
    "mn",
    "mln",
    "b",
    "bn",
    "bln",
    "t",
    "tn",
    "lakh",
    "lakhs",
    "crore",
    "crores",
    "hundred",
    "hundreds",
    "dozen",
];

/// The sorted (word, classes) table, built on first use.
fn table() -> &'static [(&'static str, u16)] {
    static TABLE: OnceLock<Vec<(&'static str, u16)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let small_ordinals = SMALL_ORDINALS.split_first().map_or(&[][..], |(_zeroth, rest)| rest);
        let lists: [(WordClass, &[&str]); 18] = [
            (WordClass::Pronoun, PRONOUNS),
            (WordClass::Determiner, DETERMINERS),
            (WordClass::Quantifier, QUANTIFIERS),
            (WordClass::Modal, MODALS),
            (WordClass::Preposition, PREPOSITIONS),
            (WordClass::Conjunction, CONJUNCTIONS),
            (WordClass::Negation, NEGATIONS),
            (WordClass::Comparative, COMPARATIVES),
            (WordClass::NumberWord, &SMALL_NUMBERS),
            (WordClass::NumberWord, &TENS),
            (WordClass::NumberWord, NUMBER_WORDS),
            (WordClass::Ordinal, small_ordinals),
            (WordClass::Ordinal, &TENS_ORDINALS),
            (WordClass::Ordinal, ORDINALS),
            (WordClass::Month, MONTHS),
            (WordClass::Weekday, WEEKDAYS),
            (WordClass::Unit, UNITS),
            (WordClass::Scale, SCALES),
        ];
        let mut all: Vec<(&'static str, u16)> = Vec::new();
        for (class, words) in lists {
            for &w in words {
                all.push((w, 1 << bit(class)));
            }
        }
        crate::sort::sort_by(&mut all, |a, b| a.0.cmp(b.0));
        let mut merged: Vec<(&'static str, u16)> = Vec::with_capacity(all.len());
        for (w, bits) in all {
            match merged.last_mut() {
                Some(last) if last.0 == w => last.1 |= bits,
                _ => merged.push((w, bits)),
            }
        }
        merged
    })
}

fn bit(class: WordClass) -> u16 {
    PRIORITY.iter().position(|&c| c == class).unwrap_or(0) as u16
}

/// Every closed class `word` (lowercase) belongs to, in priority order.
pub fn closed_classes(word: &str) -> impl Iterator<Item = WordClass> {
    let t = table();
    let bits = t.binary_search_by(|(w, _)| (*w).cmp(word)).ok().and_then(|i| t.get(i)).map_or(0, |e| e.1);
    PRIORITY.into_iter().enumerate().filter(move |(i, _)| bits & (1 << i) != 0).map(|(_, c)| c)
}

/// The first closed class of `word` (lowercase) by priority: negation,
/// number word, ordinal, scale, unit, month, weekday, pronoun, determiner,
/// quantifier, modal, comparative, preposition, conjunction. A word ending
/// in `n't` is a negation.
pub fn closed_class(word: &str) -> Option<WordClass> {
    if word.ends_with("n't") {
        return Some(WordClass::Negation);
    }
    closed_classes(word).next()
}

/// Every closed-class word with its first class by priority (computed once).
pub fn closed_words() -> &'static [(&'static str, WordClass)] {
    static WORDS: OnceLock<Vec<(&'static str, WordClass)>> = OnceLock::new();
    WORDS.get_or_init(|| table().iter().filter_map(|(w, _)| closed_class(w).map(|c| (*w, c))).collect())
}

/// The closed-class words (with their first class) whose length in bytes
/// is within one of `len`: the candidates for a word one slip from another.
/// Non-ASCII words are in every bucket, so none is missed.
pub fn closed_words_near(len: usize) -> impl Iterator<Item = (&'static str, WordClass)> {
    static BY_LEN: OnceLock<Vec<Vec<(&'static str, WordClass)>>> = OnceLock::new();
    let buckets = BY_LEN.get_or_init(|| {
        let mut b: Vec<Vec<(&'static str, WordClass)>> = vec![Vec::new(); 66];
        for &(w, c) in closed_words() {
            if w.is_ascii() {
                if let Some(v) = b.get_mut(w.len()) {
                    v.push((w, c));
                }
            } else {
                b.iter_mut().for_each(|v| v.push((w, c)));
            }
        }
        b
    });
    let lo = len.saturating_sub(1);
    (lo..=len + 1).filter_map(move |l| buckets.get(l)).flatten().copied()
}

/// Number words, ordinals, scale words and units: a change of one is a
/// change of a quantity.
pub fn is_number_or_unit_class(c: WordClass) -> bool {
    matches!(c, WordClass::NumberWord | WordClass::Ordinal | WordClass::Scale | WordClass::Unit)
}

/// Opposite words, each side with its inflected forms: a claim that says
/// one where its passage says only the other says the opposite (`fails`
/// where the source says `works`). A curated list of pairs whose sides
/// rarely stand for each other in a faithful restatement; words with a
/// common second sense that is not opposed (`left`, `end`, `pass`, `on`)
/// are left out. Negation words and negating prefixes are handled apart
/// (`tokens::is_negation`, the meaning guard).
const OPPOSITES: &[(&[&str], &[&str])] = &[
    (&["work", "works", "worked", "working"], &["fail", "fails", "failed", "failing"]),
    (
        &["succeed", "succeeds", "succeeded", "success", "successful", "successfully"],
        &["fail", "fails", "failed", "failure", "failures", "failing"],
    ),
    (&["enable", "enables", "enabled", "enabling"], &["disable", "disables", "disabled", "disabling"]),
    (
        &["allow", "allows", "allowed", "allowing"],
        &[
            "deny",
            "denies",
            "denied",
            "forbid",
            "forbids",
            "forbidden",
            "prohibit",
            "prohibits",
            "prohibited",
            "block",
            "blocks",
            "blocked",
        ],
    ),
    (
        &["accept", "accepts", "accepted", "accepting"],
        &["reject", "rejects", "rejected", "rejecting", "refuse", "refuses", "refused"],
    ),
    (&["approve", "approves", "approved", "approval"], &["reject", "rejects", "rejected", "rejection"]),
    (
        &["add", "adds", "added", "adding"],
        &[
            "remove", "removes", "removed", "removing", "delete", "deletes", "deleted", "deleting", "drop", "drops",
            "dropped",
        ],
    ),
    (
        &["include", "includes", "included", "including"],
        &["exclude", "excludes", "excluded", "excluding", "omit", "omits", "omitted"],
    ),
    (
        &[
            "increase",
            "increases",
            "increased",
            "increasing",
            "rise",
            "rises",
            "rose",
            "risen",
            "grow",
            "grows",
            "grew",
            "grown",
            "gain",
            "gains",
            "gained",
        ],
        &[
            "decrease",
            "decreases",
            "decreased",
            "decreasing",
            "fall",
            "falls",
            "fell",
            "fallen",
            "drop",
            "drops",
            "dropped",
            "decline",
            "declines",
            "declined",
            "shrink",
            "shrinks",
            "shrank",
            "loss",
            "losses",
            "lost",
            "reduce",
            "reduces",
            "reduced",
        ],
    ),
    (&["before"], &["after"]),
    (&["earlier", "earliest", "early"], &["later", "latest", "late"]),
    (&["first"], &["last"]),
    (&["minimum", "min", "minimal"], &["maximum", "max", "maximal"]),
    (&["true"], &["false"]),
    (&["more"], &["less", "fewer"]),
    (&["most"], &["least", "fewest"]),
    (&["higher", "highest", "high"], &["lower", "lowest", "low"]),
    (&["faster", "fastest", "fast"], &["slower", "slowest", "slow"]),
    (&["larger", "largest", "bigger", "biggest"], &["smaller", "smallest"]),
    (&["better", "best"], &["worse", "worst"]),
    (&["always"], &["never", "sometimes"]),
    (&["all", "every"], &["some", "none", "few"]),
    (&["must"], &["may", "optional"]),
    (&["required", "mandatory"], &["optional"]),
    (&["public"], &["private"]),
    (&["old", "older", "oldest"], &["new", "newer", "newest"]),
    (&["open", "opens", "opened"], &["close", "closes", "closed"]),
    (&["start", "starts", "started", "starting"], &["stop", "stops", "stopped", "stopping"]),
    (&["input", "inputs"], &["output", "outputs"]),
    (&["read", "reads", "reading"], &["write", "writes", "wrote", "written", "writing"]),
    (&["upper"], &["lower"]),
    (&["error", "errors"], &["warning", "warnings"]),
    (&["server", "servers"], &["client", "clients"]),
    (&["inside"], &["outside"]),
    (&["above"], &["below"]),
    (&["internal", "internally"], &["external", "externally"]),
    (&["import", "imports", "imported"], &["export", "exports", "exported"]),
    (&["upload", "uploads", "uploaded"], &["download", "downloads", "downloaded"]),
    (&["encrypt", "encrypts", "encrypted"], &["decrypt", "decrypts", "decrypted"]),
    (&["local", "locally"], &["remote", "remotely"]),
    (&["online"], &["offline"]),
    (&["static", "statically"], &["dynamic", "dynamically"]),
    (&["positive"], &["negative"]),
    (&["majority"], &["minority"]),
    (&["win", "wins", "won"], &["lose", "loses", "lost"]),
    (&["profit", "profits"], &["loss", "losses"]),
    (&["buy", "buys", "bought"], &["sell", "sells", "sold"]),
    (&["strong", "stronger", "strongest"], &["weak", "weaker", "weakest"]),
    (&["safe", "safer", "safest"], &["dangerous", "unsafe"]),
    (&["easy", "easier", "easiest"], &["hard", "harder", "hardest", "difficult"]),
    (&["cheap", "cheaper", "cheapest"], &["expensive"]),
    (&["north", "northern"], &["south", "southern"]),
    (&["east", "eastern"], &["west", "western"]),
    (&["male", "men"], &["female", "women"]),
    (&["support", "supports", "supported"], &["oppose", "opposes", "opposed"]),
];

/// A pair of opposite sides as a word sees it: its own side's forms, then
/// the opposite side's.
pub type Opposed = (&'static [&'static str], &'static [&'static str]);

/// Each word of [`OPPOSITES`] (lowercase) with the pairs it is in.
fn opposites_table() -> &'static std::collections::HashMap<&'static str, Vec<Opposed>> {
    static TABLE: OnceLock<std::collections::HashMap<&'static str, Vec<Opposed>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: std::collections::HashMap<&str, Vec<Opposed>> = std::collections::HashMap::new();
        for &(a, b) in OPPOSITES {
            for &w in a {
                table.entry(w).or_default().push((a, b));
            }
            for &w in b {
                table.entry(w).or_default().push((b, a));
            }
        }
        table
    })
}

/// The pairs `word` (lowercase) is in: `(its side's forms, the opposite
/// side's forms)`; empty for a word of no pair.
pub fn opposites(word: &str) -> &'static [Opposed] {
    opposites_table().get(word).map_or(&[], Vec::as_slice)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn opposites_go_both_ways_and_keep_their_forms() {
        let sides =
            |w: &str| opposites(w).iter().map(|(own, other)| (own.contains(&w), other.to_vec())).collect::<Vec<_>>();
        assert!(sides("fails").iter().any(|(own, other)| *own && other.contains(&"works")));
        assert!(sides("works").iter().any(|(own, other)| *own && other.contains(&"failed")));
        assert!(sides("before").iter().any(|(_, other)| other == &["after"]));
        assert!(opposites("table").is_empty());
        // no word is its own opposite
        for &(a, b) in OPPOSITES {
            assert!(a.iter().all(|w| !b.contains(w)), "{a:?} {b:?}");
        }
    }

    const SOURCES: [&str; 2] = ["/usr/share/dict/american-english", "/usr/share/dict/british-english"];

    /// The common words and the names (lowercased, not also common words)
    /// of the Debian lists, filtered as the module doc says.
    fn source_lists() -> (BTreeSet<String>, BTreeSet<String>) {
        let (mut words, mut names) = (BTreeSet::new(), BTreeSet::new());
        for path in SOURCES {
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
                panic!("{path}: {e}; the word lists come from Debian's wamerican and wbritish: run scripts/setup.sh")
            });
            for w in text.lines().map(str::trim) {
                if w.is_empty() || w.ends_with("'s") {
                    continue;
                }
                if w.chars().next().is_some_and(char::is_uppercase) {
                    names.insert(w.to_lowercase());
                } else {
                    words.insert(w.to_string());
                }
            }
        }
        names.retain(|n| !words.contains(n));
        (words, names)
    }

    fn source_words() -> BTreeSet<String> {
        source_lists().0
    }

    fn generate(words: &BTreeSet<String>) -> Vec<u8> {
        let mut out = Vec::new();
        let mut prev: &[u8] = &[];
        for (n, w) in words.iter().enumerate() {
            let b = w.as_bytes();
            let shared =
                if n % RESTART == 0 { 0 } else { b.iter().zip(prev).take_while(|(x, y)| x == y).count().min(255) };
            out.push(shared as u8);
            out.extend_from_slice(&b[shared..]);
            out.push(0);
            prev = b;
        }
        out
    }

    #[test]
    fn data_is_generated_from_the_debian_lists() {
        let (words, names) = source_lists();
        assert!(words.len() > 60_000 && names.len() > 9_000, "{} words, {} names", words.len(), names.len());
        let (fresh_words, fresh_names) = (generate(&words), generate(&names));
        if std::env::var_os("EV_WRITE_WORDS").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/text/words.bin"), &fresh_words).unwrap();
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/text/names.bin"), &fresh_names).unwrap();
            return;
        }
        let stale = "is stale: EV_WRITE_WORDS=1 cargo test --lib text::lexicon";
        assert!(fresh_words == WORDS, "src/text/words.bin {stale}");
        assert!(fresh_names == NAMES, "src/text/names.bin {stale}");
        for w in &words {
            assert!(is_english_word(w) && !is_name(w), "{w}");
        }
        for n in &names {
            assert!(is_name(n) && !is_english_word(n), "{n}");
        }
        assert!(is_name("tim") && is_name("argo") && !is_name("time"));
    }

    /// The end of the 0-terminated suffix starting at `from`.
    fn suffix_end(blob: &[u8], from: usize) -> usize {
        blob.get(from..).and_then(|r| memchr::memchr(0, r)).map_or(blob.len(), |p| from + p)
    }

    /// The former `heads_of`: a search for each entry's end.
    fn heads_of_slow(blob: &'static [u8]) -> Heads {
        let (mut words, mut offsets) = (Vec::new(), Vec::new());
        let (mut at, mut n) = (0usize, 0usize);
        while at < blob.len() {
            let end = suffix_end(blob, at + 1);
            if n % RESTART == 0 {
                offsets.push(at as u32);
                words.push(blob.get(at + 1..end).unwrap_or(&[]));
            }
            at = end + 1;
            n += 1;
        }
        Heads { words, offsets, keys: Vec::new() }
    }

    /// The former `contains`: each entry of the block rebuilt in a buffer
    /// and compared whole.
    fn contains_slow(blob: &'static [u8], heads: &Heads, word: &str) -> bool {
        let w = word.as_bytes();
        if w.is_empty() || w.len() > 64 {
            return false;
        }
        let block = heads.words.partition_point(|h| *h <= w);
        let Some(&start) = block.checked_sub(1).and_then(|b| heads.offsets.get(b)) else { return false };
        let mut current = [0u8; 256];
        let mut len = 0usize;
        let mut at = start as usize;
        for _ in 0..RESTART {
            let Some(&shared) = blob.get(at) else { return false };
            let end = suffix_end(blob, at + 1);
            let suffix = blob.get(at + 1..end).unwrap_or(&[]);
            let shared = (shared as usize).min(len);
            let Some(dst) = current.get_mut(shared..shared + suffix.len()) else { return false };
            dst.copy_from_slice(suffix);
            len = shared + suffix.len();
            match current.get(..len).map(|c| c.cmp(w)) {
                Some(std::cmp::Ordering::Equal) => return true,
                Some(std::cmp::Ordering::Greater) | None => return false,
                Some(std::cmp::Ordering::Less) => {}
            }
            at = end + 1;
            if at >= blob.len() {
                return false;
            }
        }
        false
    }

    #[test]
    fn entry_ends_are_the_byte_loops() {
        let byte_loop = |blob: &[u8], from: usize| {
            let mut end = from;
            while blob.get(end).is_some_and(|&b| b != 0) {
                end += 1;
            }
            end
        };
        for blob in [WORDS, NAMES] {
            for from in 0..blob.len() + 10 {
                assert_eq!(entry_end(blob, from), byte_loop(blob, from), "from {from}");
            }
        }
        let small: &[u8] = &[1, 0, 2, 3, 0, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        for n in 0..=small.len() {
            for from in 0..n + 3 {
                assert_eq!(entry_end(&small[..n], from), byte_loop(&small[..n], from), "{n} from {from}");
            }
        }
    }

    #[test]
    fn zero_bytes_marks_exactly_the_zeros() {
        let mut next = crate::test_rng::below(99);
        for _ in 0..100_000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| match next(6) {
                5 => next(256) as u8,
                k => [0, 1, 0x7f, 0x80, 0xff][k],
            });
            let want: u64 = (0..8).filter(|&i| bytes[i] == 0).map(|i| 0x80u64 << (8 * i)).sum();
            assert_eq!(zero_bytes(u64::from_le_bytes(bytes)), want, "{bytes:?}");
        }
    }

    #[test]
    fn lookups_agree_with_the_former_ones() {
        let mut next = crate::test_rng::below(0x5EED);
        for blob in [WORDS, NAMES] {
            let (heads, slow) = (heads_of(blob), heads_of_slow(blob));
            assert_eq!(heads.words, slow.words);
            assert_eq!(heads.offsets, slow.offsets);
            // every entry, and near misses of it: one byte changed, one
            // more, one fewer, a prefix; then random strings
            let mut entries = Vec::new();
            let (mut at, mut prev) = (0usize, Vec::new());
            while at < blob.len() {
                let end = suffix_end(blob, at + 1);
                let mut word: Vec<u8> = prev.get(..usize::from(blob[at]).min(prev.len())).unwrap_or(&[]).to_vec();
                word.extend_from_slice(&blob[at + 1..end]);
                entries.push(String::from_utf8_lossy(&word).into_owned());
                prev = word;
                at = end + 1;
            }
            let letters = "abcdefghijklmnopqrstuvwxyz'éß中-";
            let letter =
                |next: &mut dyn FnMut(usize) -> usize| letters.chars().nth(next(letters.chars().count())).unwrap();
            for e in &entries {
                let chars: Vec<char> = e.chars().collect();
                let k = next(chars.len().max(1));
                let mut changed = chars.clone();
                if let Some(c) = changed.get_mut(k) {
                    *c = letter(&mut next);
                }
                let mut longer = chars.clone();
                longer.insert(k.min(chars.len()), letter(&mut next));
                let shorter: String = chars.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, c)| c).collect();
                let prefix: String = chars.iter().take(k).collect();
                for w in
                    [e.clone(), changed.iter().collect(), longer.iter().collect(), shorter, prefix, format!("{e}s")]
                {
                    assert_eq!(contains(blob, &heads, &w), contains_slow(blob, &slow, &w), "{w:?}");
                    let w = w.as_bytes();
                    assert_eq!(heads.block_of(w), slow.words.partition_point(|h| *h <= w), "{w:?}");
                }
            }
            for _ in 0..50_000 {
                let w: String = (0..next(12)).map(|_| letter(&mut next)).collect();
                assert_eq!(contains(blob, &heads, &w), contains_slow(blob, &slow, &w), "{w:?}");
                let w = w.as_bytes();
                assert_eq!(heads.block_of(w), slow.words.partition_point(|h| *h <= w), "{w:?}");
            }
            // the heads themselves, words that share their first 8 bytes
            // with a head, and the empty word
            for h in &slow.words {
                for w in [h.to_vec(), [*h, b"a"].concat(), [*h, b"zzz"].concat(), h[..h.len() - 1].to_vec(), vec![]] {
                    assert_eq!(heads.block_of(&w), slow.words.partition_point(|h| **h <= *w), "{w:?}");
                }
            }
        }
    }

    #[test]
    fn random_strings_agree_with_a_set() {
        let words = source_words();
        let mut next = crate::test_rng::below(0x9E37_79B9_7F4A_7C15);
        let letters = b"abcdefghijklmnopqrstuvwxyz'";
        let listed: Vec<&String> = words.iter().collect();
        for i in 0..200_000 {
            let w: String = if i % 3 == 0 {
                // a listed word with one letter changed: mostly not a word
                let base = listed[next(listed.len())];
                let mut b: Vec<u8> = base.bytes().collect();
                let k = next(b.len().max(1));
                if let Some(c) = b.get_mut(k) {
                    *c = letters[next(26)];
                }
                String::from_utf8_lossy(&b).into_owned()
            } else {
                (0..1 + next(9)).map(|_| letters[next(letters.len())] as char).collect()
            };
            assert_eq!(is_english_word(&w), words.contains(&w), "{w:?}");
        }
        assert!(
            !is_english_word("")
                && !is_english_word("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
        );
        assert!(is_english_word(listed[0]) && is_english_word(listed[listed.len() - 1]));
    }

    #[test]
    fn typos_are_not_words_and_words_are() {
        for w in ["recieve", "managment", "teh", "protoco", "accomodate", "definately", "occured", "untill"] {
            assert!(!is_english_word(w), "{w}");
        }
        for w in ["receive", "decreased", "increased", "unprofitable", "illegal", "legal", "founder", "don't", "café"]
        {
            assert!(is_english_word(w), "{w}");
        }
        // the lists have no hyphenated entries; mixed-case ones stay as written
        for w in ["co-founder", "cofounder", "khz", "iphone", "ph"] {
            assert!(!is_english_word(w), "{w}");
        }
        assert!(is_english_word("kHz") && closed_class("khz") == Some(WordClass::Unit));
    }

    #[test]
    fn closed_classes_by_priority() {
        assert_eq!(closed_class("her"), Some(WordClass::Pronoun));
        assert_eq!(closed_class("no"), Some(WordClass::Negation));
        assert_eq!(closed_class("second"), Some(WordClass::Ordinal));
        assert_eq!(closed_class("m"), Some(WordClass::Scale));
        assert_eq!(closed_class("ms"), Some(WordClass::Unit));
        assert_eq!(closed_class("may"), Some(WordClass::Month));
        assert_eq!(closed_class("isn't"), Some(WordClass::Negation));
        assert_eq!(closed_class("nine"), Some(WordClass::NumberWord));
        assert_eq!(closed_class("billion"), Some(WordClass::Scale));
        assert_eq!(closed_class("under"), Some(WordClass::Comparative));
        assert_eq!(closed_class("system"), None);
        assert!(closed_classes("may").any(|c| c == WordClass::Modal));
        assert!(is_number_or_unit_class(WordClass::Unit) && !is_number_or_unit_class(WordClass::Pronoun));
    }
}
