// Shared by the JS tests (not a test file itself).
//
// How the tests reach the package: tests/js/node_modules/evidence-validator is
// a committed symlink to ../../../pkg, so `import 'evidence-validator'` and
// `require('evidence-validator')` from a test file resolve exactly as they do
// for a user who installed the package: through pkg/package.json's `exports`
// map (Node sets the `node` condition, plus `import` or `require`). Build the
// package first: `npm run build`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkgDir = path.join(root, 'pkg');

if (!fs.existsSync(path.join(pkgDir, 'package.json'))) {
  throw new Error('pkg/ is not built: run `npm run build` before `npm run test:js`');
}

export const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
export const readText = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');

/** The cases of tests/cases/validate_evidence.json (shared with the Rust tests). */
export const cases = () => readJson('tests/cases/validate_evidence.json');

/**
 * Cases that fail because of a known library bug, with the reason: reported
 * with node:test's `todo` (shown, not failing the run). Remove an entry once
 * the bug is fixed.
 */
export const KNOWN_ISSUES = new Map([
  // ['case name', 'what is wrong in the library'],
]);

/** A dotted path (`validated_claims.0.match_details.line_number`), as tests/common/mod.rs. */
export function lookup(value, dotted) {
  let v = value;
  for (const step of dotted.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    // As in Rust: a numeric step indexes an array only, a name an object only.
    if (/^\d+$/.test(step)) v = Array.isArray(v) ? v[Number(step)] : undefined;
    else v = Array.isArray(v) || !Object.hasOwn(v, step) ? undefined : v[step];
  }
  return v;
}

function deepEqual(a, b) {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

/** Checks one expectation of a case (the format of tests/common/mod.rs); returns what differs, or null. */
export function check(report, expect) {
  const got = lookup(report, expect.path);
  const fail = (what) => `${expect.path}: ${what}, got ${got === undefined ? 'nothing' : JSON.stringify(got)}`;
  if ('equals' in expect && !deepEqual(got, expect.equals)) return fail(`expected ${JSON.stringify(expect.equals)}`);
  if (Array.isArray(expect.one_of) && !expect.one_of.some((o) => deepEqual(got, o))) {
    return fail(`expected one of ${JSON.stringify(expect.one_of)}`);
  }
  if (typeof expect.greater_than === 'number' && !(typeof got === 'number' && got > expect.greater_than)) {
    return fail(`expected more than ${expect.greater_than}`);
  }
  const len = Array.isArray(got) ? got.length : undefined;
  if (typeof expect.length === 'number' && len !== expect.length) return fail(`expected length ${expect.length}`);
  if (typeof expect.min_length === 'number' && !(len >= expect.min_length)) {
    return fail(`expected length at least ${expect.min_length}`);
  }
  return null;
}

/** Every span a report gives: match details, alternatives, attempted matches. */
export function reportedSpans(report) {
  const spans = [];
  for (const r of report.validated_claims ?? []) {
    if (r.match_details) spans.push({ where: `${r.claim_id} match_details`, m: r.match_details, text: r.match_details.matched_text });
    for (const [i, a] of (r.alternative_matches ?? []).entries()) {
      spans.push({ where: `${r.claim_id} alternative_matches[${i}]`, m: a, text: a.matched_text });
    }
  }
  for (const f of report.failed_claims ?? []) {
    for (const [i, a] of (f.attempted_matches ?? []).entries()) {
      spans.push({ where: `${f.claim_id} attempted_matches[${i}]`, m: a, text: a.candidate_text });
    }
  }
  return spans;
}

/** Asserts a span points at `text` in `source` in all three unit systems. */
export function assertSpan(source, m, text, where = '') {
  assert.equal(typeof text, 'string', `${where}: no text`);
  assert.equal(source.slice(m.utf16_start, m.utf16_end), text, `${where}: UTF-16 span`);
  assert.equal([...source].slice(m.start_position, m.end_position).join(''), text, `${where}: code point span`);
  assert.equal(Buffer.from(source).subarray(m.byte_start, m.byte_end).toString(), text, `${where}: byte span`);
}

/**
 * Resolves `subpath` of a package.json `exports` map for a set of conditions,
 * as Node and bundlers do: the first key, in object order, that is `default`
 * or one of the conditions and resolves. For targets Node cannot select itself
 * (it always sets `node`): `browser`/`import` is what webpack 5 picks.
 */
export function resolveExport(exportsMap, subpath, conditions) {
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (target === null || typeof target !== 'object') return null;
    for (const [key, value] of Object.entries(target)) {
      if (key === 'default' || conditions.includes(key)) {
        const r = pick(value);
        if (r !== null) return r;
      }
    }
    return null;
  };
  return pick(exportsMap[subpath]);
}

/** A claim with the fields the schema requires. */
export function claim(overrides = {}) {
  return {
    id: 'EV001',
    task_id: 'P1.T001',
    quote: 'implement user authentication with OAuth 2.0 protocol',
    evidence_type: 'direct_quote',
    ...overrides,
  };
}

/**
 * Asserts `fn` throws an EvidenceValidatorError with `code` (and, when
 * given, `details.json_path === jsonPath`); returns the error.
 */
export function assertThrowsCode(fn, code, jsonPath = undefined) {
  let thrown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown !== undefined, `expected a ${code}, nothing was thrown`);
  assert.ok(thrown instanceof Error, `expected an Error, got ${Object.prototype.toString.call(thrown)}`);
  assert.equal(thrown.name, 'EvidenceValidatorError');
  assert.equal(typeof thrown.code, 'string');
  assert.equal(thrown.code, code, thrown.message);
  assert.equal(typeof thrown.details, 'object');
  assert.ok(thrown.details !== null && !Array.isArray(thrown.details), 'details is a plain object');
  assert.equal(typeof thrown.message, 'string');
  if (jsonPath !== undefined) assert.equal(thrown.details.json_path, jsonPath, thrown.message);
  return thrown;
}
