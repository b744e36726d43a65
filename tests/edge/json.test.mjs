// edge/json.mjs: the body parsed with JSON.parse only where that is the
// library's strict parser's value; everywhere else the strict parser
// answers (the same value, or the same error). Checked against the
// package's parseJson in Node on texts that hit each rule.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBody } from '../../edge/json.mjs';
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
    return { error: `${e.name} ${e.message} ${JSON.stringify(e.details)}` };
  }
};

/** Whether `parseBody` used JSON.parse (the library's parser not called). */
function fast(text) {
  let called = false;
  parseBody(text, (t) => {
    called = true;
    return lib.parseJson(t);
  });
  return !called;
}

const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const cases = [
  // the fast path
  [read('samples/claims.json'), true],
  [JSON.stringify({ source: read('samples/incident-review.md'), claims: JSON.parse(read('samples/claims.json')) }), true],
  ['{"a": [1, 2.5, -3, 0, 0.1, 123456789012345, true, false, null], "b": {"c": "\\"quoted\\" \\\\ \\u00e9 \\ud83d\\ude00"}}', true],
  ['{"__proto__": {"x": 1}, "1": 2, "a": 3}', true],
  [deep(100), true],
  // the library decides
  ['{"a": 1, "a": 2}', false], // duplicate key
  ['{"a": {"b": 1, "c": {"b": 2, "b": 3}}}', false],
  ['{"a": 1, "b": "x\\"a\\": 2", "a": 3}', false], // a key-like text inside a string, and a real duplicate
  ['\ufeff{"a": 1}', false], // byte order mark: JSON.parse refuses it
  ['{"a": "\\ud800"}', false], // lone surrogate: serde_json refuses it
  ['{"\\udc00": 1}', false],
  ['{"a": 1e400}', false], // Infinity for JSON.parse, out of range for serde_json
  ['{"a": 1e2}', false], // exponents
  ['{"a": 0.1234567890123456789}', false], // more digits than a double holds
  ['{"a": 12345678901234567890}', false],
  ['{"a": -0}', false],
  ['{"a": -0.0}', false],
  [deep(101), false],
  [deep(200), false], // past serde_json's nesting limit: the library's error
  ['{"a": 1,}', false], // not JSON at all
  ['', false],
];

test('parseBody gives the library\'s value or error, with JSON.parse only where the scan allows it', () => {
  for (const [text, expectFast] of cases) {
    const label = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    assert.deepEqual(outcome(() => parseBody(text, lib.parseJson)), outcome(() => lib.parseJson(text)), label);
    let usedFast;
    try {
      usedFast = fast(text);
    } catch {
      usedFast = false;
    }
    assert.equal(usedFast, expectFast, label);
  }
});

test('a duplicate key is still refused with its path', () => {
  assert.throws(() => parseBody('{"claims": [{"id": "a", "id": "b"}]}', lib.parseJson), (e) => e.details.json_path === '$.claims[0].id' && e.details.constraint === 'uniqueKeys');
});
