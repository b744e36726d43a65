//! Character references (`&amp;`, `&#233;`, `&#xE9;`, html5's legacy names
//! without `;`): decoded for HTML text and attribute values (html5 rules) and
//! for markdown (CommonMark's strict rules).

/// Decodes the character reference at `src[at..]` (which must start with `&`).
///
/// Returns the decoded char and the byte offset just past the reference, or
/// `None` when there is no reference there (the `&` is then literal text).
/// With `strict` (CommonMark rules) the closing `;` is required, decimal
/// references have at most 7 digits and hex ones at most 6, and 0x80–0x9F are
/// not remapped; without it html5's rules for text content apply.
pub(crate) fn decode_char_ref(src: &str, at: usize, strict: bool) -> Option<(char, usize)> {
    let b = src.as_bytes();
    if b.get(at) != Some(&b'&') {
        return None;
    }
    if b.get(at + 1) == Some(&b'#') {
        decode_numeric_ref(b, at + 2, strict)
    } else {
        decode_named_ref(src, at + 1, strict)
    }
}

/// A numeric reference whose digits (after `&#`, with an optional `x`)
/// start at `b[j..]`.
fn decode_numeric_ref(b: &[u8], mut j: usize, strict: bool) -> Option<(char, usize)> {
    let hex = matches!(b.get(j), Some(b'x' | b'X'));
    if hex {
        j += 1;
    }
    let radix = if hex { 16 } else { 10 };
    let digits_start = j;
    let mut value: u32 = 0;
    while let Some(d) = b.get(j).and_then(|&c| (c as char).to_digit(radix)) {
        value = value.saturating_mul(radix).saturating_add(d).min(0x11_0000);
        j += 1;
    }
    let digits = j - digits_start;
    if digits == 0 {
        return None;
    }
    if b.get(j) == Some(&b';') {
        j += 1;
    } else if strict {
        return None;
    }
    if strict && digits > if hex { 6 } else { 7 } {
        return None;
    }
    Some((numeric_char(value, !strict), j))
}

/// A named reference whose name (after `&`) starts at `src[name_start..]`.
fn decode_named_ref(src: &str, name_start: usize, strict: bool) -> Option<(char, usize)> {
    let b = src.as_bytes();
    let mut j = name_start;
    while j - name_start < 40 && b.get(j).is_some_and(u8::is_ascii_alphanumeric) {
        j += 1;
    }
    if j == name_start {
        return None;
    }
    // Only ASCII alphanumerics were consumed, so these slices are on char boundaries.
    if b.get(j) == Some(&b';') {
        if let Some(c) = src.get(name_start..j).and_then(lookup_entity) {
            return Some((c, j + 1));
        }
    }
    if strict {
        return None;
    }
    // html5 "legacy" references without `;`: the longest legacy name that is a
    // prefix of the name (`&copy2024` is "©2024", `&notit` is "¬it").
    let longest = (j - name_start).min(6);
    for len in (2..=longest).rev() {
        let name = src.get(name_start..name_start + len)?;
        if LEGACY.binary_search(&name).is_ok() {
            if let Some(c) = lookup_entity(name) {
                return Some((c, name_start + len));
            }
        }
    }
    None
}

/// The char a numeric character reference with this value stands for.
fn numeric_char(value: u32, windows_1252: bool) -> char {
    if windows_1252 && (0x80..=0x9F).contains(&value) {
        const C1: [u16; 32] = [
            0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D,
            0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A,
            0x153, 0x9D, 0x17E, 0x178,
        ];
        let mapped = C1.get((value - 0x80) as usize).map(|&c| u32::from(c));
        return mapped.and_then(char::from_u32).unwrap_or('\u{FFFD}');
    }
    if value == 0 {
        return '\u{FFFD}';
    }
    // from_u32 rejects surrogates and values above U+10FFFF.
    char::from_u32(value).unwrap_or('\u{FFFD}')
}

fn lookup_entity(name: &str) -> Option<char> {
    ENTITIES.binary_search_by(|(k, _)| k.cmp(&name)).ok().and_then(|i| ENTITIES.get(i)).map(|e| e.1)
}

/// Named character references (name without `&` and `;`, decoded char), sorted
/// by name (bytewise) for binary search: all of HTML 4 plus the HTML5 names for
/// ASCII punctuation, Latin Extended-A letters, general punctuation and spaces,
/// currency, letterlike symbols, fractions, simple arrows and dingbats; values
/// as in HTML5 (617 entries; the rest of HTML5's 2,231 are mostly math).
#[rustfmt::skip]
static ENTITIES: &[(&str, char)] = &[
    ("AElig", '\u{c6}'), ("AMP", '\u{26}'), ("Aacute", '\u{c1}'), ("Abreve", '\u{102}'),
    ("Acirc", '\u{c2}'), ("Agrave", '\u{c0}'), ("Alpha", '\u{391}'), ("Amacr", '\u{100}'),
    ("Aogon", '\u{104}'), ("ApplyFunction", '\u{2061}'), ("Aring", '\u{c5}'), ("Atilde", '\u{c3}'),
    ("Auml", '\u{c4}'), ("Bernoullis", '\u{212c}'), ("Beta", '\u{392}'), ("Bscr", '\u{212c}'),
    ("COPY", '\u{a9}'), ("Cacute", '\u{106}'), ("CapitalDifferentialD", '\u{2145}'),
    ("Cayleys", '\u{212d}'), ("Ccaron", '\u{10c}'), ("Ccedil", '\u{c7}'), ("Ccirc", '\u{108}'),
    ("Cdot", '\u{10a}'), ("Cedilla", '\u{b8}'), ("CenterDot", '\u{b7}'), ("Cfr", '\u{212d}'),
    ("Chi", '\u{3a7}'), ("CloseCurlyDoubleQuote", '\u{201d}'), ("CloseCurlyQuote", '\u{2019}'),
    ("Copf", '\u{2102}'), ("DD", '\u{2145}'), ("Dagger", '\u{2021}'), ("Dcaron", '\u{10e}'),
    ("Delta", '\u{394}'), ("DiacriticalAcute", '\u{b4}'), ("DiacriticalGrave", '\u{60}'),
    ("DifferentialD", '\u{2146}'), ("Dot", '\u{a8}'), ("DoubleDot", '\u{a8}'),
    ("DownArrow", '\u{2193}'), ("Dstrok", '\u{110}'), ("ENG", '\u{14a}'), ("ETH", '\u{d0}'),
    ("Eacute", '\u{c9}'), ("Ecaron", '\u{11a}'), ("Ecirc", '\u{ca}'), ("Edot", '\u{116}'),
    ("Egrave", '\u{c8}'), ("Emacr", '\u{112}'), ("Eogon", '\u{118}'), ("Epsilon", '\u{395}'),
    ("Escr", '\u{2130}'), ("Eta", '\u{397}'), ("Euml", '\u{cb}'), ("ExponentialE", '\u{2147}'),
    ("Fouriertrf", '\u{2131}'), ("Fscr", '\u{2131}'), ("GT", '\u{3e}'), ("Gamma", '\u{393}'),
    ("Gbreve", '\u{11e}'), ("Gcedil", '\u{122}'), ("Gcirc", '\u{11c}'), ("Gdot", '\u{120}'),
    ("Hat", '\u{5e}'), ("Hcirc", '\u{124}'), ("Hfr", '\u{210c}'), ("HilbertSpace", '\u{210b}'),
    ("Hopf", '\u{210d}'), ("Hscr", '\u{210b}'), ("Hstrok", '\u{126}'), ("IJlig", '\u{132}'),
    ("Iacute", '\u{cd}'), ("Icirc", '\u{ce}'), ("Idot", '\u{130}'), ("Ifr", '\u{2111}'),
    ("Igrave", '\u{cc}'), ("Im", '\u{2111}'), ("Imacr", '\u{12a}'), ("ImaginaryI", '\u{2148}'),
    ("InvisibleComma", '\u{2063}'), ("InvisibleTimes", '\u{2062}'), ("Iogon", '\u{12e}'),
    ("Iota", '\u{399}'), ("Iscr", '\u{2110}'), ("Itilde", '\u{128}'), ("Iuml", '\u{cf}'),
    ("Jcirc", '\u{134}'), ("Kappa", '\u{39a}'), ("Kcedil", '\u{136}'), ("LT", '\u{3c}'),
    ("Lacute", '\u{139}'), ("Lambda", '\u{39b}'), ("Laplacetrf", '\u{2112}'),
    ("Lcaron", '\u{13d}'), ("Lcedil", '\u{13b}'), ("LeftArrow", '\u{2190}'),
    ("LeftRightArrow", '\u{2194}'), ("Lmidot", '\u{13f}'), ("LowerLeftArrow", '\u{2199}'),
    ("LowerRightArrow", '\u{2198}'), ("Lscr", '\u{2112}'), ("Lstrok", '\u{141}'),
    ("MediumSpace", '\u{205f}'), ("Mellintrf", '\u{2133}'), ("Mscr", '\u{2133}'),
    ("Mu", '\u{39c}'), ("Nacute", '\u{143}'), ("Ncaron", '\u{147}'), ("Ncedil", '\u{145}'),
    ("NegativeMediumSpace", '\u{200b}'), ("NegativeThickSpace", '\u{200b}'),
    ("NegativeThinSpace", '\u{200b}'), ("NegativeVeryThinSpace", '\u{200b}'), ("NewLine", '\u{a}'),
    ("NoBreak", '\u{2060}'), ("NonBreakingSpace", '\u{a0}'), ("Nopf", '\u{2115}'),
    ("Ntilde", '\u{d1}'), ("Nu", '\u{39d}'), ("OElig", '\u{152}'), ("Oacute", '\u{d3}'),
    ("Ocirc", '\u{d4}'), ("Odblac", '\u{150}'), ("Ograve", '\u{d2}'), ("Omacr", '\u{14c}'),
    ("Omega", '\u{3a9}'), ("Omicron", '\u{39f}'), ("OpenCurlyDoubleQuote", '\u{201c}'),
    ("OpenCurlyQuote", '\u{2018}'), ("Oslash", '\u{d8}'), ("Otilde", '\u{d5}'), ("Ouml", '\u{d6}'),
    ("OverBar", '\u{203e}'), ("Phi", '\u{3a6}'), ("Pi", '\u{3a0}'), ("PlusMinus", '\u{b1}'),
    ("Poincareplane", '\u{210c}'), ("Popf", '\u{2119}'), ("Prime", '\u{2033}'), ("Psi", '\u{3a8}'),
    ("QUOT", '\u{22}'), ("Qopf", '\u{211a}'), ("REG", '\u{ae}'), ("Racute", '\u{154}'),
    ("Rcaron", '\u{158}'), ("Rcedil", '\u{156}'), ("Re", '\u{211c}'), ("Rfr", '\u{211c}'),
    ("Rho", '\u{3a1}'), ("RightArrow", '\u{2192}'), ("Ropf", '\u{211d}'), ("Rscr", '\u{211b}'),
    ("Sacute", '\u{15a}'), ("Scaron", '\u{160}'), ("Scedil", '\u{15e}'), ("Scirc", '\u{15c}'),
    ("ShortDownArrow", '\u{2193}'), ("ShortLeftArrow", '\u{2190}'),
    ("ShortRightArrow", '\u{2192}'), ("ShortUpArrow", '\u{2191}'), ("Sigma", '\u{3a3}'),
    ("THORN", '\u{de}'), ("TRADE", '\u{2122}'), ("Tab", '\u{9}'), ("Tau", '\u{3a4}'),
    ("Tcaron", '\u{164}'), ("Tcedil", '\u{162}'), ("Theta", '\u{398}'), ("ThinSpace", '\u{2009}'),
    ("Tstrok", '\u{166}'), ("Uacute", '\u{da}'), ("Ubreve", '\u{16c}'), ("Ucirc", '\u{db}'),
    ("Udblac", '\u{170}'), ("Ugrave", '\u{d9}'), ("Umacr", '\u{16a}'), ("UnderBar", '\u{5f}'),
    ("Uogon", '\u{172}'), ("UpArrow", '\u{2191}'), ("UpDownArrow", '\u{2195}'),
    ("UpperLeftArrow", '\u{2196}'), ("UpperRightArrow", '\u{2197}'), ("Upsilon", '\u{3a5}'),
    ("Uring", '\u{16e}'), ("Utilde", '\u{168}'), ("Uuml", '\u{dc}'), ("Verbar", '\u{2016}'),
    ("Vert", '\u{2016}'), ("VerticalLine", '\u{7c}'), ("VerticalSeparator", '\u{2758}'),
    ("VeryThinSpace", '\u{200a}'), ("Wcirc", '\u{174}'), ("Xi", '\u{39e}'), ("Yacute", '\u{dd}'),
    ("Ycirc", '\u{176}'), ("Yuml", '\u{178}'), ("Zacute", '\u{179}'), ("Zcaron", '\u{17d}'),
    ("Zdot", '\u{17b}'), ("ZeroWidthSpace", '\u{200b}'), ("Zeta", '\u{396}'), ("Zfr", '\u{2128}'),
    ("Zopf", '\u{2124}'), ("aacute", '\u{e1}'), ("abreve", '\u{103}'), ("acirc", '\u{e2}'),
    ("acute", '\u{b4}'), ("aelig", '\u{e6}'), ("af", '\u{2061}'), ("agrave", '\u{e0}'),
    ("alefsym", '\u{2135}'), ("aleph", '\u{2135}'), ("alpha", '\u{3b1}'), ("amacr", '\u{101}'),
    ("amp", '\u{26}'), ("and", '\u{2227}'), ("ang", '\u{2220}'), ("angst", '\u{c5}'),
    ("aogon", '\u{105}'), ("apos", '\u{27}'), ("aring", '\u{e5}'), ("ast", '\u{2a}'),
    ("asymp", '\u{2248}'), ("atilde", '\u{e3}'), ("auml", '\u{e4}'), ("backprime", '\u{2035}'),
    ("bdquo", '\u{201e}'), ("bernou", '\u{212c}'), ("beta", '\u{3b2}'), ("beth", '\u{2136}'),
    ("bigstar", '\u{2605}'), ("bprime", '\u{2035}'), ("brvbar", '\u{a6}'), ("bsemi", '\u{204f}'),
    ("bsol", '\u{5c}'), ("bull", '\u{2022}'), ("bullet", '\u{2022}'), ("cacute", '\u{107}'),
    ("cap", '\u{2229}'), ("caret", '\u{2041}'), ("ccaron", '\u{10d}'), ("ccedil", '\u{e7}'),
    ("ccirc", '\u{109}'), ("cdot", '\u{10b}'), ("cedil", '\u{b8}'), ("cent", '\u{a2}'),
    ("centerdot", '\u{b7}'), ("check", '\u{2713}'), ("checkmark", '\u{2713}'), ("chi", '\u{3c7}'),
    ("circ", '\u{2c6}'), ("circledR", '\u{ae}'), ("clubs", '\u{2663}'), ("clubsuit", '\u{2663}'),
    ("colon", '\u{3a}'), ("comma", '\u{2c}'), ("commat", '\u{40}'), ("complexes", '\u{2102}'),
    ("cong", '\u{2245}'), ("copy", '\u{a9}'), ("copysr", '\u{2117}'), ("crarr", '\u{21b5}'),
    ("cross", '\u{2717}'), ("cup", '\u{222a}'), ("curren", '\u{a4}'), ("dArr", '\u{21d3}'),
    ("dagger", '\u{2020}'), ("daleth", '\u{2138}'), ("darr", '\u{2193}'), ("dash", '\u{2010}'),
    ("dcaron", '\u{10f}'), ("dd", '\u{2146}'), ("ddagger", '\u{2021}'), ("deg", '\u{b0}'),
    ("delta", '\u{3b4}'), ("diamondsuit", '\u{2666}'), ("diams", '\u{2666}'), ("die", '\u{a8}'),
    ("div", '\u{f7}'), ("divide", '\u{f7}'), ("dollar", '\u{24}'), ("downarrow", '\u{2193}'),
    ("dstrok", '\u{111}'), ("eacute", '\u{e9}'), ("ecaron", '\u{11b}'), ("ecirc", '\u{ea}'),
    ("edot", '\u{117}'), ("ee", '\u{2147}'), ("egrave", '\u{e8}'), ("ell", '\u{2113}'),
    ("emacr", '\u{113}'), ("empty", '\u{2205}'), ("emsp", '\u{2003}'), ("emsp13", '\u{2004}'),
    ("emsp14", '\u{2005}'), ("eng", '\u{14b}'), ("ensp", '\u{2002}'), ("eogon", '\u{119}'),
    ("epsilon", '\u{3b5}'), ("equals", '\u{3d}'), ("equiv", '\u{2261}'), ("escr", '\u{212f}'),
    ("eta", '\u{3b7}'), ("eth", '\u{f0}'), ("euml", '\u{eb}'), ("euro", '\u{20ac}'),
    ("excl", '\u{21}'), ("exist", '\u{2203}'), ("expectation", '\u{2130}'),
    ("exponentiale", '\u{2147}'), ("female", '\u{2640}'), ("flat", '\u{266d}'),
    ("fnof", '\u{192}'), ("forall", '\u{2200}'), ("frac12", '\u{bd}'), ("frac13", '\u{2153}'),
    ("frac14", '\u{bc}'), ("frac15", '\u{2155}'), ("frac16", '\u{2159}'), ("frac18", '\u{215b}'),
    ("frac23", '\u{2154}'), ("frac25", '\u{2156}'), ("frac34", '\u{be}'), ("frac35", '\u{2157}'),
    ("frac38", '\u{215c}'), ("frac45", '\u{2158}'), ("frac56", '\u{215a}'), ("frac58", '\u{215d}'),
    ("frac78", '\u{215e}'), ("frasl", '\u{2044}'), ("gamma", '\u{3b3}'), ("gbreve", '\u{11f}'),
    ("gcirc", '\u{11d}'), ("gdot", '\u{121}'), ("ge", '\u{2265}'), ("gimel", '\u{2137}'),
    ("grave", '\u{60}'), ("gscr", '\u{210a}'), ("gt", '\u{3e}'), ("hArr", '\u{21d4}'),
    ("hairsp", '\u{200a}'), ("half", '\u{bd}'), ("hamilt", '\u{210b}'), ("harr", '\u{2194}'),
    ("hbar", '\u{210f}'), ("hcirc", '\u{125}'), ("hearts", '\u{2665}'), ("heartsuit", '\u{2665}'),
    ("hellip", '\u{2026}'), ("horbar", '\u{2015}'), ("hslash", '\u{210f}'), ("hstrok", '\u{127}'),
    ("hybull", '\u{2043}'), ("hyphen", '\u{2010}'), ("iacute", '\u{ed}'), ("ic", '\u{2063}'),
    ("icirc", '\u{ee}'), ("iexcl", '\u{a1}'), ("igrave", '\u{ec}'), ("ii", '\u{2148}'),
    ("iiota", '\u{2129}'), ("ijlig", '\u{133}'), ("imacr", '\u{12b}'), ("image", '\u{2111}'),
    ("imagline", '\u{2110}'), ("imagpart", '\u{2111}'), ("imath", '\u{131}'),
    ("incare", '\u{2105}'), ("infin", '\u{221e}'), ("inodot", '\u{131}'), ("int", '\u{222b}'),
    ("integers", '\u{2124}'), ("iogon", '\u{12f}'), ("iota", '\u{3b9}'), ("iquest", '\u{bf}'),
    ("isin", '\u{2208}'), ("it", '\u{2062}'), ("itilde", '\u{129}'), ("iuml", '\u{ef}'),
    ("jcirc", '\u{135}'), ("kappa", '\u{3ba}'), ("kcedil", '\u{137}'), ("kgreen", '\u{138}'),
    ("lArr", '\u{21d0}'), ("lacute", '\u{13a}'), ("lagran", '\u{2112}'), ("lambda", '\u{3bb}'),
    ("lang", '\u{27e8}'), ("laquo", '\u{ab}'), ("larr", '\u{2190}'), ("lbbrk", '\u{2772}'),
    ("lbrace", '\u{7b}'), ("lbrack", '\u{5b}'), ("lcaron", '\u{13e}'), ("lcedil", '\u{13c}'),
    ("lceil", '\u{2308}'), ("lcub", '\u{7b}'), ("ldquo", '\u{201c}'), ("ldquor", '\u{201e}'),
    ("le", '\u{2264}'), ("leftarrow", '\u{2190}'), ("leftrightarrow", '\u{2194}'),
    ("lfloor", '\u{230a}'), ("lmidot", '\u{140}'), ("lowast", '\u{2217}'), ("lowbar", '\u{5f}'),
    ("loz", '\u{25ca}'), ("lpar", '\u{28}'), ("lrm", '\u{200e}'), ("lsaquo", '\u{2039}'),
    ("lsqb", '\u{5b}'), ("lsquo", '\u{2018}'), ("lsquor", '\u{201a}'), ("lstrok", '\u{142}'),
    ("lt", '\u{3c}'), ("macr", '\u{af}'), ("male", '\u{2642}'), ("malt", '\u{2720}'),
    ("maltese", '\u{2720}'), ("mdash", '\u{2014}'), ("mho", '\u{2127}'), ("micro", '\u{b5}'),
    ("midast", '\u{2a}'), ("middot", '\u{b7}'), ("minus", '\u{2212}'), ("mldr", '\u{2026}'),
    ("mu", '\u{3bc}'), ("nabla", '\u{2207}'), ("nacute", '\u{144}'), ("napos", '\u{149}'),
    ("natur", '\u{266e}'), ("natural", '\u{266e}'), ("naturals", '\u{2115}'), ("nbsp", '\u{a0}'),
    ("ncaron", '\u{148}'), ("ncedil", '\u{146}'), ("ndash", '\u{2013}'), ("ne", '\u{2260}'),
    ("nearr", '\u{2197}'), ("nearrow", '\u{2197}'), ("ni", '\u{220b}'), ("nldr", '\u{2025}'),
    ("not", '\u{ac}'), ("notin", '\u{2209}'), ("nsub", '\u{2284}'), ("ntilde", '\u{f1}'),
    ("nu", '\u{3bd}'), ("num", '\u{23}'), ("numero", '\u{2116}'), ("numsp", '\u{2007}'),
    ("nwarr", '\u{2196}'), ("nwarrow", '\u{2196}'), ("oacute", '\u{f3}'), ("ocirc", '\u{f4}'),
    ("odblac", '\u{151}'), ("oelig", '\u{153}'), ("ograve", '\u{f2}'), ("oline", '\u{203e}'),
    ("omacr", '\u{14d}'), ("omega", '\u{3c9}'), ("omicron", '\u{3bf}'), ("oplus", '\u{2295}'),
    ("or", '\u{2228}'), ("order", '\u{2134}'), ("orderof", '\u{2134}'), ("ordf", '\u{aa}'),
    ("ordm", '\u{ba}'), ("oscr", '\u{2134}'), ("oslash", '\u{f8}'), ("otilde", '\u{f5}'),
    ("otimes", '\u{2297}'), ("ouml", '\u{f6}'), ("para", '\u{b6}'), ("part", '\u{2202}'),
    ("percnt", '\u{25}'), ("period", '\u{2e}'), ("permil", '\u{2030}'), ("perp", '\u{22a5}'),
    ("pertenk", '\u{2031}'), ("phi", '\u{3c6}'), ("phmmat", '\u{2133}'), ("phone", '\u{260e}'),
    ("pi", '\u{3c0}'), ("piv", '\u{3d6}'), ("planck", '\u{210f}'), ("planckh", '\u{210e}'),
    ("plankv", '\u{210f}'), ("plus", '\u{2b}'), ("plusmn", '\u{b1}'), ("pm", '\u{b1}'),
    ("pound", '\u{a3}'), ("prime", '\u{2032}'), ("primes", '\u{2119}'), ("prod", '\u{220f}'),
    ("prop", '\u{221d}'), ("psi", '\u{3c8}'), ("puncsp", '\u{2008}'), ("qprime", '\u{2057}'),
    ("quaternions", '\u{210d}'), ("quest", '\u{3f}'), ("quot", '\u{22}'), ("rArr", '\u{21d2}'),
    ("racute", '\u{155}'), ("radic", '\u{221a}'), ("rang", '\u{27e9}'), ("raquo", '\u{bb}'),
    ("rarr", '\u{2192}'), ("rationals", '\u{211a}'), ("rbbrk", '\u{2773}'), ("rbrace", '\u{7d}'),
    ("rbrack", '\u{5d}'), ("rcaron", '\u{159}'), ("rcedil", '\u{157}'), ("rceil", '\u{2309}'),
    ("rcub", '\u{7d}'), ("rdquo", '\u{201d}'), ("rdquor", '\u{201d}'), ("real", '\u{211c}'),
    ("realine", '\u{211b}'), ("realpart", '\u{211c}'), ("reals", '\u{211d}'), ("reg", '\u{ae}'),
    ("rfloor", '\u{230b}'), ("rho", '\u{3c1}'), ("rightarrow", '\u{2192}'), ("rlm", '\u{200f}'),
    ("rpar", '\u{29}'), ("rsaquo", '\u{203a}'), ("rsqb", '\u{5d}'), ("rsquo", '\u{2019}'),
    ("rsquor", '\u{2019}'), ("rx", '\u{211e}'), ("sacute", '\u{15b}'), ("sbquo", '\u{201a}'),
    ("scaron", '\u{161}'), ("scedil", '\u{15f}'), ("scirc", '\u{15d}'), ("sdot", '\u{22c5}'),
    ("searr", '\u{2198}'), ("searrow", '\u{2198}'), ("sect", '\u{a7}'), ("semi", '\u{3b}'),
    ("sext", '\u{2736}'), ("sharp", '\u{266f}'), ("shy", '\u{ad}'), ("sigma", '\u{3c3}'),
    ("sigmaf", '\u{3c2}'), ("sim", '\u{223c}'), ("slarr", '\u{2190}'), ("sol", '\u{2f}'),
    ("spades", '\u{2660}'), ("spadesuit", '\u{2660}'), ("srarr", '\u{2192}'), ("star", '\u{2606}'),
    ("starf", '\u{2605}'), ("strns", '\u{af}'), ("sub", '\u{2282}'), ("sube", '\u{2286}'),
    ("sum", '\u{2211}'), ("sung", '\u{266a}'), ("sup", '\u{2283}'), ("sup1", '\u{b9}'),
    ("sup2", '\u{b2}'), ("sup3", '\u{b3}'), ("supe", '\u{2287}'), ("swarr", '\u{2199}'),
    ("swarrow", '\u{2199}'), ("szlig", '\u{df}'), ("tau", '\u{3c4}'), ("tcaron", '\u{165}'),
    ("tcedil", '\u{163}'), ("there4", '\u{2234}'), ("theta", '\u{3b8}'), ("thetasym", '\u{3d1}'),
    ("thinsp", '\u{2009}'), ("thorn", '\u{fe}'), ("tilde", '\u{2dc}'), ("times", '\u{d7}'),
    ("tprime", '\u{2034}'), ("trade", '\u{2122}'), ("tstrok", '\u{167}'), ("uArr", '\u{21d1}'),
    ("uacute", '\u{fa}'), ("uarr", '\u{2191}'), ("ubreve", '\u{16d}'), ("ucirc", '\u{fb}'),
    ("udblac", '\u{171}'), ("ugrave", '\u{f9}'), ("umacr", '\u{16b}'), ("uml", '\u{a8}'),
    ("uogon", '\u{173}'), ("uparrow", '\u{2191}'), ("updownarrow", '\u{2195}'),
    ("upsih", '\u{3d2}'), ("upsilon", '\u{3c5}'), ("uring", '\u{16f}'), ("utilde", '\u{169}'),
    ("uuml", '\u{fc}'), ("varr", '\u{2195}'), ("verbar", '\u{7c}'), ("vert", '\u{7c}'),
    ("wcirc", '\u{175}'), ("weierp", '\u{2118}'), ("wp", '\u{2118}'), ("xi", '\u{3be}'),
    ("yacute", '\u{fd}'), ("ycirc", '\u{177}'), ("yen", '\u{a5}'), ("yuml", '\u{ff}'),
    ("zacute", '\u{17a}'), ("zcaron", '\u{17e}'), ("zdot", '\u{17c}'), ("zeetrf", '\u{2128}'),
    ("zeta", '\u{3b6}'), ("zwj", '\u{200d}'), ("zwnj", '\u{200c}'),
];

/// The names HTML5 also recognises without the closing `;` (legacy), sorted.
#[rustfmt::skip]
static LEGACY: &[&str] = &[
    "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml", "COPY", "Ccedil",
    "ETH", "Eacute", "Ecirc", "Egrave", "Euml", "GT", "Iacute", "Icirc", "Igrave", "Iuml", "LT",
    "Ntilde", "Oacute", "Ocirc", "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN",
    "Uacute", "Ucirc", "Ugrave", "Uuml", "Yacute", "aacute", "acirc", "acute", "aelig", "agrave",
    "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil", "cent", "copy", "curren", "deg",
    "divide", "eacute", "ecirc", "egrave", "eth", "euml", "frac12", "frac14", "frac34", "gt",
    "iacute", "icirc", "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
    "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf", "ordm", "oslash",
    "otilde", "ouml", "para", "plusmn", "pound", "quot", "raquo", "reg", "sect", "shy", "sup1",
    "sup2", "sup3", "szlig", "thorn", "times", "uacute", "ucirc", "ugrave", "uml", "uuml",
    "yacute", "yen", "yuml",
];

#[cfg(test)]
mod tests {
    use super::{lookup_entity, ENTITIES, LEGACY};

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(ENTITIES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(LEGACY.windows(2).all(|w| w[0] < w[1]));
        assert!(ENTITIES.iter().all(|&(name, c)| lookup_entity(name) == Some(c)));
        assert!(LEGACY.iter().all(|name| lookup_entity(name).is_some()));
    }
}
