// The library's parseJson, which the worker parses request bodies with: it
// takes JSON.parse's value only where its scan of the text
// (src/json.rs plain_parse_agrees) shows that is the strict parser's value,
// and the strict parser answers everywhere else (the same value, or the
// same error). Checked in Node against the strict parser itself: a byte
// order mark before the text sends it to the strict parser (JSON.parse
// refuses the mark), which skips the mark and reads the rest.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lib, read } from './harness.mjs';

/** Sorted keys, -0 kept apart from 0: equal when the values are. */
function canonical(v) {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

const outcome = (f) => {
  try {
    return { value: canonical(f()) };
  } catch (e) {
    return { error: `${e.name} ${e.code} ${e.message} ${JSON.stringify(e.details)}` };
  }
};

/** The strict parser's answer (see the header). */
const strict = (text) => lib.parseJson(`\ufeff${text}`);

/**
 * Whether parseJson took JSON.parse's value: the strict parser's objects
 * have their keys sorted, JSON.parse's keep text order (the texts below
 * put a "z" key first to tell; keys that are array indexes come first in
 * any JS object, so they are left out).
 */
const fast = (text) => Object.keys(lib.parseJson(text)).filter((k) => !/^\d+$/.test(k))[0] === 'z';

const deep = (n) => `{"z": 0, "d": ${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
const cases = [
  // JSON.parse's value
  [`{"z": 0, "claims": ${read('samples/claims.json')}}`, true],
  [`{"z": 0, "source": ${JSON.stringify(read('samples/incident-review.md'))}, "claims": ${read('samples/claims.json')}}`, true],
  ['{"z": 0, "a": [1, 2.5, -3, 0, 0.1, 123456789012345, true, false, null], "b": {"c": "\\"quoted\\" \\\\ \\u00e9 😀"}}', true],
  ['{"z": 0, "__proto__": {"x": 1}, "1": 2, "a": 3}', true],
  ['{"z": 0, "a": "x\\"a\\": 2", "b": "}{]["}', true],
  [deep(100), true],
  // the strict parser's
  ['{"z": 0, "a": 1, "a": 2}', false], // duplicate key
  ['{"z": 0, "a": {"b": 1, "c": {"b": 2, "b": 3}}}', false],
  ['{"z": 0, "a": 1, "b": "x\\"a\\": 2", "a": 3}', false], // a key-like text inside a string, and a real duplicate
  ['{"z": 0, "\\u0061": 1, "a": 2}', false], // one key, written two ways
  ['{"z": 0, "\\u0062": 1}', false], // an escaped key
  ['{"z": 0, "a": "\\ud800"}', false], // lone surrogate: serde_json refuses it
  ['{"z": 0, "a": "\\ud83d\\ude00"}', false], // an escaped pair
  ['{"z": 0, "a": 1e400}', false], // Infinity for JSON.parse, out of range for serde_json
  ['{"z": 0, "a": 1e2}', false], // exponents
  ['{"z": 0, "a": 0.1234567890123456789}', false], // more digits than a double holds
  ['{"z": 0, "a": 12345678901234567890}', false],
  ['{"z": 0, "a": -0}', false],
  ['{"z": 0, "a": -0.0}', false],
  [deep(101), false],
  [deep(200), false], // past serde_json's nesting limit: the library's error
];

test('parseJson gives the strict parser\'s value, with JSON.parse only where the scan allows it', () => {
  for (const [text, expectFast] of cases) {
    const label = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    assert.deepEqual(outcome(() => lib.parseJson(text)), outcome(() => strict(text)), label);
    let usedFast;
    try {
      usedFast = fast(text);
    } catch {
      usedFast = false;
    }
    assert.equal(usedFast, expectFast, label);
  }
  // not JSON: the strict parser's error either way
  for (const text of ['{"a": 1,}', '', '{"a": "unterminated', 'nul']) {
    assert.throws(() => lib.parseJson(text), (e) => e.code === 'VALIDATION_ERROR' && /not valid JSON/.test(e.message), text);
  }
});

test('number literals on the fast path are read as the strict parser reads them', () => {
  // seeded: integers and decimals of up to 15 digits, signs, leading zeros after the point
  let s = 21;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const literals = [];
  for (let k = 0; k < 20000; k++) {
    const digits = 1 + Math.floor(next() * 15);
    let d = '';
    for (let i = 0; i < digits; i++) d += String(Math.floor(next() * 10));
    const point = Math.floor(next() * (digits + 1));
    let lit = point === 0 || point === digits ? d.replace(/^0+(?=\d)/, '') : `${d.slice(0, point).replace(/^0+(?=\d)/, '')}.${d.slice(point)}`;
    if (next() < 0.5) lit = `-${lit}`;
    if (/^-0(\.0*)?$/.test(lit)) continue;
    literals.push(lit);
  }
  const text = `{"z": 0, "n": [${literals.join(',')}]}`;
  assert.ok(fast(text), 'the fast path');
  const got = lib.parseJson(text).n;
  const want = strict(text).n;
  assert.equal(got.length, literals.length);
  for (let i = 0; i < literals.length; i++) {
    assert.ok(Object.is(got[i], want[i]), `${literals[i]}: JSON.parse ${got[i]}, strict ${want[i]}`);
  }
});

test('a duplicate key is still refused with its path', () => {
  assert.throws(() => lib.parseJson('{"claims": [{"id": "a", "id": "b"}]}'), (e) => e.details.json_path === '$.claims[0].id' && e.details.constraint === 'uniqueKeys');
});
