//! Text no reader sees: which HTML elements hide their content, and the
//! hidden text itself, kept apart from the visible text so that a quote found
//! only there can be reported as such (and never validated).
//!
//! Hidden are the whole subtrees of `<template>`, of elements with the
//! `hidden` attribute (any value), `aria-hidden="true"` (any case, spaces
//! around), or an inline `style` whose `display` is `none` or whose
//! `visibility` is `hidden` or `collapse` (any spacing and case,
//! `!important`, CSS comments and escapes, character references in the
//! attribute value; the last declaration wins unless an earlier one is
//! `!important`; a descendant's `visibility: visible` shows its own text
//! again, as in CSS), the subtree of `<noscript>` (browsers run scripts, so
//! they do not show it), and the raw text of `<script>`, `<style>`,
//! `<iframe>`, `<noembed>` and `<noframes>`.
//!
//! Subtrees are found without building a tree: a stack of the open
//! elements (void elements such as `<br hidden>` and `<img hidden>` are never
//! open; `<p>` is closed by the next block's start tag, also with up to 64
//! inline elements open inside it, and in markdown at the next block (the
//! end of its paragraph, a heading, a table cell); `<li>` by the next `<li>`,
//! `<dt>`/`<dd>`, `<option>`, `<tr>`, `<td>`/`<th>` likewise, when they are
//! the innermost open element); an end tag closes the innermost open
//! element of its name and everything opened inside it, and is ignored when
//! no such element is open. A hidden element left open hides the rest of the
//! input, as in a browser. Every step is O(1) amortised (element names are
//! interned, each open element is closed at most once).
//!
//! Not seen: style sheets and classes (`<style>.x{display:none}</style>`
//! with `class="x"`), other CSS that hides (`opacity:0`, `font-size:0`,
//! off-screen positions, clipping, text colored like its background),
//! `<details>` content (a reader can open it).

use super::entities::decode_char_ref;
use super::scan::{byte_at, is_ws, skip_while};
use super::units::HiddenReason;
use std::collections::HashMap;

/// What a start tag's attributes say about hiding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TagHiding {
    /// The element hides its whole subtree (`hidden`, `aria-hidden="true"`, `display:none`).
    pub hides: Option<HiddenReason>,
    /// `visibility`: `Some(false)` for hidden/collapse, `Some(true)` for visible.
    pub visible: Option<bool>,
}

/// Reads the attributes of a start tag: `b[from..to]` is what follows the
/// tag name up to (not including) the closing `>`. Tokenized as html5 does
/// (an attribute name may start with any char, even `=`; unquoted values end
/// at whitespace or `>`); the first of duplicate attributes counts.
pub(crate) fn tag_hiding(b: &[u8], from: usize, to: usize) -> TagHiding {
    let to = to.min(b.len());
    let mut j = from;
    let (mut hidden, mut aria, mut style) = (None, None, None);
    while j < to {
        j = skip_while(b, j, to, |c| is_ws(c) || c == b'/');
        if j >= to {
            break;
        }
        let name_start = j;
        j = skip_while(b, j + 1, to, |c| !is_ws(c) && !matches!(c, b'/' | b'>' | b'='));
        let name = b.get(name_start..j).unwrap_or_default();
        j = skip_while(b, j, to, is_ws);
        let mut value: Option<(usize, usize)> = None;
        if byte_at(b, j, to) == Some(b'=') {
            j = skip_while(b, j + 1, to, is_ws);
            if let Some(q @ (b'"' | b'\'')) = byte_at(b, j, to) {
                let vs = j + 1;
                let k = skip_while(b, vs, to, |c| c != q);
                value = Some((vs, k));
                j = (k + 1).min(to);
            } else {
                let vs = j;
                j = skip_while(b, j, to, |c| !is_ws(c) && c != b'>');
                value = Some((vs, j));
            }
        }
        // the first of duplicate attributes counts
        let slot = if name.eq_ignore_ascii_case(b"hidden") {
            &mut hidden
        } else if name.eq_ignore_ascii_case(b"aria-hidden") {
            &mut aria
        } else if name.eq_ignore_ascii_case(b"style") {
            &mut style
        } else {
            continue;
        };
        if slot.is_none() {
            *slot = Some(value.and_then(|(s, e)| std::str::from_utf8(b.get(s..e)?).ok()).unwrap_or(""));
        }
    }
    let mut out = TagHiding::default();
    if hidden.is_some() {
        out.hides = Some(HiddenReason::HiddenAttribute);
    }
    let aria = aria.is_some_and(|raw| {
        decode_attribute(raw).trim_matches(|c: char| c.is_ascii_whitespace()).eq_ignore_ascii_case("true")
    });
    let style = style.map(|raw| css_hiding(&decode_attribute(raw)));
    if out.hides.is_none() && aria {
        out.hides = Some(HiddenReason::AriaHidden);
    }
    if let Some((display_none, visible)) = style {
        if out.hides.is_none() && display_none == Some(true) {
            out.hides = Some(HiddenReason::DisplayNone);
        }
        out.visible = visible;
    }
    out
}

/// An attribute value with its character references decoded (html5 rules).
fn decode_attribute(raw: &str) -> String {
    if !raw.contains('&') {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.as_bytes().get(i) {
        if c == b'&' {
            if let Some((ch, end)) = decode_char_ref(raw, i, false) {
                out.push(ch);
                i = end;
                continue;
            }
        }
        match raw.get(i..).and_then(|s| s.chars().next()) {
            Some(ch) => {
                out.push(ch);
                i += ch.len_utf8();
            }
            None => break,
        }
    }
    out
}

/// Removes CSS comments and decodes CSS escapes (`\6e`, `\n`), lowercasing.
fn css_clean(style: &str) -> String {
    let mut out = String::with_capacity(style.len());
    let mut it = style.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '/' if it.peek() == Some(&'*') => {
                it.next();
                let mut prev = '\0';
                for d in it.by_ref() {
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
            }
            '\\' => {
                let mut hex = String::new();
                while hex.len() < 6 && it.peek().is_some_and(|d| d.is_ascii_hexdigit()) {
                    hex.extend(it.next());
                }
                if hex.is_empty() {
                    if let Some(d) = it.next() {
                        out.extend(d.to_lowercase());
                    }
                } else {
                    if it.peek().is_some_and(|d| d.is_ascii_whitespace()) {
                        it.next();
                    }
                    let v = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                    out.extend(char::from_u32(v).unwrap_or('\u{FFFD}').to_lowercase());
                }
            }
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// `(display is none, visibility)` of an inline style, `None` when the
/// property is not set. Later declarations win, except over `!important` ones.
fn css_hiding(style: &str) -> (Option<bool>, Option<bool>) {
    let clean = css_clean(style);
    let mut display: Option<(bool, bool)> = None; // (is none, important)
    let mut visibility: Option<(bool, bool)> = None; // (visible, important)
    for decl in clean.split(';') {
        let Some((prop, value)) = decl.split_once(':') else { continue };
        let prop = prop.trim();
        let mut value = value.trim();
        let mut important = false;
        if let Some(bang) = value.rfind('!') {
            if value[bang + 1..].trim() == "important" {
                important = true;
                value = value[..bang].trim();
            }
        }
        let slot = match prop {
            "display" => &mut display,
            "visibility" => &mut visibility,
            _ => continue,
        };
        if slot.is_some_and(|(_, was_important)| was_important && !important) {
            continue;
        }
        let v = if prop == "display" { value == "none" } else { !matches!(value, "hidden" | "collapse") };
        *slot = Some((v, important));
    }
    (display.map(|d| d.0), visibility.map(|v| v.0))
}

/// Void elements: never open, so they hide nothing.
pub(crate) fn is_void(name: &[u8]) -> bool {
    const VOID: &[&[u8]] = &[
        b"area",
        b"base",
        b"basefont",
        b"bgsound",
        b"br",
        b"col",
        b"embed",
        b"frame",
        b"hr",
        b"image",
        b"img",
        b"input",
        b"keygen",
        b"link",
        b"meta",
        b"param",
        b"source",
        b"track",
        b"wbr",
    ];
    VOID.iter().any(|v| v.eq_ignore_ascii_case(name))
}

/// Start tags that close an open `<p>` (html5: block-level elements).
fn closes_p(name: &[u8]) -> bool {
    const NAMES: &[&[u8]] = &[
        b"address",
        b"article",
        b"aside",
        b"blockquote",
        b"center",
        b"details",
        b"dialog",
        b"dir",
        b"div",
        b"dl",
        b"dd",
        b"dt",
        b"fieldset",
        b"figcaption",
        b"figure",
        b"footer",
        b"form",
        b"h1",
        b"h2",
        b"h3",
        b"h4",
        b"h5",
        b"h6",
        b"header",
        b"hgroup",
        b"hr",
        b"li",
        b"listing",
        b"main",
        b"menu",
        b"nav",
        b"ol",
        b"p",
        b"pre",
        b"search",
        b"section",
        b"summary",
        b"table",
        b"ul",
    ];
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// How deep below the innermost open element a `<p>` closed by a block's
/// start is looked for (inline elements nested in it; deeper, it stays open).
const P_SCOPE: usize = 64;

/// An open element.
#[derive(Debug, Clone, Copy)]
struct Open {
    name: u32,
    /// The stack index of the element whose `visibility: hidden` applies
    /// here (inherited), if any.
    vis_hidden: Option<u32>,
}

/// The open-element stack, as far as hiding needs it.
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    names: HashMap<Vec<u8>, u32>,
    /// How many elements of each interned name are open.
    open_count: Vec<u32>,
    stack: Vec<Open>,
    /// The outermost open element that hides its subtree, and why.
    hider: Option<(usize, HiddenReason)>,
    /// Counts hidden stretches: a new one starts whenever text becomes hidden.
    episode: u32,
    /// [`Self::reason`], kept up to date by every change of the stack (it is
    /// asked for every char of text).
    current: Option<HiddenReason>,
}

impl Tracker {
    /// Why text here is hidden, if it is.
    #[inline]
    pub fn reason(&self) -> Option<HiddenReason> {
        self.current
    }

    /// Recomputes [`Self::reason`] after a change of the stack; starts a new
    /// hidden stretch when text becomes hidden.
    fn update(&mut self) {
        let was = self.current.is_some();
        self.current = match self.hider {
            Some((_, r)) => Some(r),
            None => self.stack.last().and_then(|o| o.vis_hidden).map(|_| HiddenReason::VisibilityHidden),
        };
        if !was && self.current.is_some() {
            self.new_episode();
        }
    }

    /// The current hidden stretch (meaningful while [`Self::reason`] is `Some`).
    pub fn episode(&self) -> u32 {
        self.episode
    }

    /// Starts a new hidden stretch (for raw text handled by the caller).
    pub fn new_episode(&mut self) -> u32 {
        self.episode = self.episode.wrapping_add(1);
        self.episode
    }

    fn intern(&mut self, name: &[u8]) -> u32 {
        let key: Vec<u8> = name.to_ascii_lowercase();
        if let Some(&id) = self.names.get(&key) {
            return id;
        }
        let id = self.open_count.len() as u32;
        self.names.insert(key, id);
        self.open_count.push(0);
        id
    }

    fn lookup(&self, name: &[u8]) -> Option<u32> {
        if name.iter().any(u8::is_ascii_uppercase) {
            self.names.get(&name.to_ascii_lowercase()).copied()
        } else {
            self.names.get(name).copied()
        }
    }

    /// Closes an open `<p>` (and the inline elements opened in it): html5's
    /// "close a p element" when a block starts. A `<p>` holds only inline
    /// content, so it is looked for among the innermost [`P_SCOPE`] elements.
    pub fn close_p(&mut self) {
        let Some(p) = self.lookup(b"p") else { return };
        if self.open_count.get(p as usize).copied().unwrap_or(0) == 0 {
            return;
        }
        let Some(depth) = self.stack.iter().rev().take(P_SCOPE).position(|o| o.name == p) else { return };
        for _ in 0..=depth {
            self.pop();
        }
        self.update();
    }

    fn top_is(&self, name: &[u8]) -> bool {
        match (self.stack.last(), self.lookup(name)) {
            (Some(o), Some(id)) => o.name == id,
            _ => false,
        }
    }

    fn pop(&mut self) {
        if let Some(o) = self.stack.pop() {
            if let Some(c) = self.open_count.get_mut(o.name as usize) {
                *c = c.saturating_sub(1);
            }
            if self.hider.is_some_and(|(at, _)| at >= self.stack.len()) {
                self.hider = None;
            }
        }
    }

    /// The end tags a start tag of `name` implies (of the innermost open
    /// element only): call before [`Self::start`], and before emitting the
    /// tag's own newline, which is visible when this closes a hidden element.
    pub fn close_implied(&mut self, name: &[u8]) {
        if closes_p(name) {
            self.close_p();
        }
        let lower = name.to_ascii_lowercase();
        match lower.as_slice() {
            b"li" if self.top_is(b"li") => self.pop(),
            b"dd" | b"dt" if self.top_is(b"dd") || self.top_is(b"dt") => self.pop(),
            b"option" | b"optgroup" if self.top_is(b"option") => self.pop(),
            b"tr" | b"td" | b"th" | b"tbody" | b"thead" | b"tfoot" => {
                if self.top_is(b"td") || self.top_is(b"th") {
                    self.pop();
                }
                if lower != b"td" && lower != b"th" && self.top_is(b"tr") {
                    self.pop();
                }
            }
            _ => {}
        }
        if lower == b"optgroup" && self.top_is(b"optgroup") {
            self.pop();
        }
        self.update();
    }

    /// A start tag of `name` with these attributes, after
    /// [`Self::close_implied`] (a void element is ignored).
    pub fn start(&mut self, name: &[u8], hiding: TagHiding) {
        if is_void(name) {
            return;
        }
        let lower = name.to_ascii_lowercase();
        let id = self.intern(&lower);
        let at = self.stack.len();
        let inherited = self.stack.last().and_then(|o| o.vis_hidden);
        let vis_hidden = match hiding.visible {
            Some(false) => Some(at as u32),
            Some(true) => None,
            None => inherited,
        };
        let hides = match lower.as_slice() {
            b"template" => Some(HiddenReason::Template),
            b"noscript" => Some(HiddenReason::Noscript),
            _ => hiding.hides,
        };
        if self.hider.is_none() {
            if let Some(r) = hides {
                self.hider = Some((at, r));
            }
        }
        self.stack.push(Open { name: id, vis_hidden });
        if let Some(c) = self.open_count.get_mut(id as usize) {
            *c += 1;
        }
        self.update();
    }

    /// An end tag of `name`: closes the innermost open element of that name
    /// and everything inside it; ignored when none is open.
    pub fn end(&mut self, name: &[u8]) {
        let Some(id) = self.lookup(name) else { return };
        if self.open_count.get(id as usize).copied().unwrap_or(0) == 0 {
            return;
        }
        while let Some(o) = self.stack.last().copied() {
            self.pop();
            if o.name == id {
                break;
            }
        }
        // (closing a `visibility: visible` element inside a hidden one starts a new stretch)
        self.update();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hiding(attrs: &str) -> TagHiding {
        tag_hiding(attrs.as_bytes(), 0, attrs.len())
    }

    #[test]
    fn attributes_that_hide() {
        assert_eq!(hiding(" hidden").hides, Some(HiddenReason::HiddenAttribute));
        assert_eq!(hiding(" HIDDEN=\"false\"").hides, Some(HiddenReason::HiddenAttribute));
        assert_eq!(hiding(" hidden=until-found").hides, Some(HiddenReason::HiddenAttribute));
        assert_eq!(hiding(" aria-hidden=\" TRUE \"").hides, Some(HiddenReason::AriaHidden));
        assert_eq!(hiding(" aria-hidden=false").hides, None);
        assert_eq!(hiding(" aria-hidden").hides, None);
        assert_eq!(hiding(" data-hidden class=hidden").hides, None);
        assert_eq!(hiding(" style='DISPLAY : None !IMPORTANT'").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"color:red;display:none\"").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"display:none; display:block\"").hides, None);
        assert_eq!(hiding(" style=\"display:none!important; display:block\"").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"display:/**/none\"").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"display:n\\6f ne\"").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"display&colon;none\"").hides, Some(HiddenReason::DisplayNone));
        assert_eq!(hiding(" style=\"display:none-ish\"").hides, None);
        assert_eq!(hiding(" style=\"visibility:hidden\"").visible, Some(false));
        assert_eq!(hiding(" style=\"visibility: COLLAPSE\"").visible, Some(false));
        assert_eq!(hiding(" style=\"visibility:visible\"").visible, Some(true));
        assert_eq!(hiding(" style=\"display:block\" style=\"display:none\"").hides, None); // first one counts
        assert_eq!(hiding(" title=\"a > b hidden\"").hides, None);
        assert_eq!(hiding(" =hidden").hides, None);
        assert_eq!(hiding(" style=\"display:none").hides, Some(HiddenReason::DisplayNone));
        // unterminated quote
    }

    #[test]
    fn tracker_subtrees() {
        let mut t = Tracker::default();
        t.start(b"div", TagHiding::default());
        t.start(b"span", hiding(" hidden"));
        assert_eq!(t.reason(), Some(HiddenReason::HiddenAttribute));
        t.start(b"span", TagHiding::default());
        t.end(b"span");
        assert!(t.reason().is_some());
        t.end(b"span");
        assert_eq!(t.reason(), None);
        // a stray end tag changes nothing; an ancestor's end tag closes the hidden element
        t.start(b"b", hiding(" aria-hidden=true"));
        t.end(b"i");
        assert!(t.reason().is_some());
        t.end(b"div");
        assert_eq!(t.reason(), None);
        // void elements hide nothing
        t.start(b"br", hiding(" hidden"));
        assert_eq!(t.reason(), None);
        // <p hidden> is closed by the next block
        t.start(b"p", hiding(" hidden"));
        assert!(t.reason().is_some());
        t.close_implied(b"p");
        assert_eq!(t.reason(), None);
        t.start(b"p", TagHiding::default());
        assert_eq!(t.reason(), None);
    }

    #[test]
    fn visibility_is_inherited_and_can_be_undone() {
        let mut t = Tracker::default();
        t.start(b"div", hiding(" style=visibility:hidden"));
        assert_eq!(t.reason(), Some(HiddenReason::VisibilityHidden));
        let e = t.episode();
        t.start(b"span", hiding(" style=visibility:visible"));
        assert_eq!(t.reason(), None);
        t.end(b"span");
        assert_eq!(t.reason(), Some(HiddenReason::VisibilityHidden));
        assert_ne!(t.episode(), e);
        t.end(b"div");
        assert_eq!(t.reason(), None);
    }
}
