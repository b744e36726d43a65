// The request body parsed as the library's strict parser parses it
// (`parseJson`: duplicate keys refused with their path, a byte order mark
// skipped, serde_json's grammar and nesting limit), but with `JSON.parse`
// where that gives the same value: the strict parser costs about ten times
// `JSON.parse` (40-120 ms for a 1.2 MB body on a loaded 2-core machine),
// time during which the isolate's one thread serves nothing else.
//
// `JSON.parse`'s value is used only when a scan of the text shows it is
// the library's: as many object keys in the text as properties in the
// value (so no duplicate key), every string (and key) well-formed UTF-16
// (serde_json refuses a lone surrogate escape), every number literal one
// that serde_json reads to the same double (at most 15 digits, no exponent,
// not a negative zero), and nesting at most 100 deep (serde_json stops at
// 128). Otherwise, and whenever `JSON.parse` throws (a byte order mark, bad
// JSON), the library's parser decides: the same value, or the same error.
// Key order is not kept the same (the library's value has its keys sorted),
// and nothing depends on it: the library reads objects by key.

/** Deepest nesting taken on the fast path. */
const MAX_DEPTH = 100;
/** A number literal serde_json reads exactly as JSON.parse does (see `sameNumber`). */
const PLAIN_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
/** Number literals (and the letters of true/false/null, which never match PLAIN_NUMBER's start) in structural text. */
const NUMBER_TOKEN = /-?[0-9][0-9.eE+-]*/g;

/**
 * @param {string} text the request body
 * @param {(text: string) => unknown} parseJson the library's strict parser
 * @returns {unknown} the value (throws what `parseJson` throws)
 */
export function parseBody(text, parseJson) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return parseJson(text);
  }
  return sameAsLibrary(text, value) ? value : parseJson(text);
}

/** True when `value` (JSON.parse of `text`) is what the library's parser gives (see the header). */
function sameAsLibrary(text, value) {
  const scanned = scan(text);
  if (scanned === null) return false;
  const walked = walk(value);
  return walked !== null && walked === scanned;
}

/** Object keys in `text`, or null when a number literal or the nesting is not for the fast path. */
function scan(text) {
  let keys = 0;
  let depth = 0;
  let at = 0;
  const n = text.length;
  for (;;) {
    const quote = text.indexOf('"', at);
    const end = quote < 0 ? n : quote;
    // structural text between strings: punctuation, whitespace, literals
    for (let i = at; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        if (++depth > MAX_DEPTH) return null;
      } else if (c === 0x7d || c === 0x5d) depth--;
    }
    if (end > at) {
      for (const token of text.slice(at, end).match(NUMBER_TOKEN) ?? []) if (!sameNumber(token)) return null;
    }
    if (quote < 0) return keys;
    // the string's closing quote: the next one not escaped
    let close = quote + 1;
    for (;;) {
      close = text.indexOf('"', close);
      if (close < 0) return null; // JSON.parse took it, so this does not happen
      let backslashes = 0;
      while (text.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
      close++;
    }
    let next = close + 1;
    while (next < n && isSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) keys++;
    at = close + 1;
  }
}

/** A literal serde_json reads as JSON.parse does: ≤ 15 digits (exact in a double, one correctly rounded step), no exponent, not -0. */
function sameNumber(token) {
  if (!PLAIN_NUMBER.test(token)) return false;
  let digits = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
  }
  if (digits > 15) return false;
  return !/^-0(\.0+)?$/.test(token);
}

function isSpace(c) {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Properties in `value`, or null when a string is not well-formed or a number not finite. */
function walk(root) {
  let props = 0;
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return null;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return null;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        if (!key.isWellFormed()) return null;
        props++;
        stack.push(v[key]);
      }
    }
  }
  return props;
}
