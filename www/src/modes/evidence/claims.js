// The claims box: JSON in the spec 000 shape, or one quote per line; and each
// claim's entry in the claim list. Pure (no DOM): the evidence worker
// (worker-engine.js) parses the box and builds the entries, so that the page
// neither parses a megabyte of JSON nor copies a thousand claims to the
// worker. Tested in Node by tests/browser/spans.test.mjs.

import { clip } from '../../text.js';

/** An input the user has to fix; `where` says where (a line, a JSON position). */
export class InputError extends Error {
  constructor(message, where) {
    super(message);
    this.name = 'InputError';
    this.where = where;
  }
}

/** `EV001`, `EV002`, … (at least three digits, as the spec's examples). */
export const claimId = (n) => `EV${String(n).padStart(3, '0')}`;

/**
 * Parses the claims box.
 * - Text starting with `{` or `[` is JSON: `{ source_metadata?, claims: [...] }`
 *   or a bare array of claims. Each claim goes to the library as it is (it
 *   checks the schema and names the JSON path of what is wrong, claim by
 *   claim: one bad claim does not stop the others).
 * - JSON Lines: text that is not one JSON value but whose every non-blank
 *   line starts with `{`, one claim object per line; a line that is not JSON
 *   is an entry with its own error, the others are read.
 * - Anything else: one quote per non-blank line, each a `direct_quote` claim
 *   with ids EV001, EV002, … and task P1.T001.
 * @returns {{ kind: 'json'|'jsonl'|'lines', claims: object, count: number, format: string|null,
 *   entries: Array<{ claim: object|null, line: number|null, error: string|null }> }}
 *   `claims` is the input as the library takes it (for the whole report);
 *   `entries` one per claim, in order, with its 1-based line in the box when
 *   it has one of its own, and `error` when the line could not be read;
 *   `format` is `source_metadata.format` when the JSON gives one.
 */
export function parseClaims(text) {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'lines', claims: { claims: [] }, count: 0, format: null, entries: [] };
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const lines = jsonLines(text);
      if (lines) return lines;
      throw new InputError(`claims are not valid JSON: ${e.message}`, jsonErrorWhere(text, e));
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('claims' in value) && 'quote' in value) {
      // one claim on its own (a JSON Lines file of one line)
      return { kind: 'jsonl', claims: { claims: [value] }, count: 1, format: null, entries: [{ claim: value, line: 1, error: null }] };
    }
    const list = Array.isArray(value) ? value : value?.claims;
    if (!Array.isArray(list)) {
      throw new InputError('claims must be a list of claims, or an object with a "claims" list', Array.isArray(value) ? '$' : '$.claims');
    }
    const format = !Array.isArray(value) && typeof value?.source_metadata?.format === 'string'
      ? value.source_metadata.format : null;
    return { kind: 'json', claims: value, count: list.length, format, entries: list.map((claim) => ({ claim, line: null, error: null })) };
  }
  const entries = [];
  text.split(/\r\n|\r|\n/).forEach((l, n) => {
    const quote = l.trim();
    if (quote === '') return;
    entries.push({
      claim: { id: claimId(entries.length + 1), task_id: 'P1.T001', evidence_type: 'direct_quote', quote },
      line: n + 1,
      error: null,
    });
  });
  const claims = entries.map((e) => e.claim);
  return { kind: 'lines', claims: { claims }, count: claims.length, format: null, entries };
}

/** JSON Lines (see parseClaims), or null when some non-blank line does not start with `{` or there is only one. */
function jsonLines(text) {
  const lines = text.split(/\r\n|\r|\n/).map((l, n) => [l.trim(), n + 1]).filter(([l]) => l !== '');
  if (lines.length < 2 || !lines.every(([l]) => l.startsWith('{'))) return null;
  const entries = lines.map(([l, line]) => {
    try {
      return { claim: JSON.parse(l), line, error: null };
    } catch (e) {
      return { claim: null, line, error: `not valid JSON: ${e.message}` };
    }
  });
  const claims = entries.filter((e) => e.error === null).map((e) => e.claim);
  return { kind: 'jsonl', claims: { claims }, count: entries.length, format: null, entries };
}

/**
 * "line 3, column 7" from JSON.parse's message when it says where: V8's
 * "… at position 42", Firefox's "… at line 3 column 7".
 */
function jsonErrorWhere(text, e) {
  const lc = /line (\d+) column (\d+)/.exec(e.message);
  if (lc) return `line ${lc[1]}, column ${lc[2]}`;
  const m = /position (\d+)/.exec(e.message);
  if (!m) return undefined;
  const pos = Number(m[1]);
  const before = text.slice(0, pos).split('\n');
  return `line ${before.length}, column ${before.at(-1).length + 1}`;
}

/** The source formats the library takes (the format selector's values besides `auto`). */
export const SOURCE_FORMATS = ['markdown', 'html', 'plain_text'];

/**
 * The format the library is asked for: the selector's choice (`auto`: none),
 * else the claims' own `source_metadata.format` when it is one the library
 * takes, else null (the library detects it).
 */
export function formatFor(chosen, parsed) {
  if (chosen && chosen !== 'auto') return chosen;
  return SOURCE_FORMATS.includes(parsed.format) ? parsed.format : null;
}

/** The longest quote a list entry keeps (code points; the list shows no more). */
const QUOTE_POINTS = 140;

/**
 * Claim `i`'s list entry before (or without) its outcome: `{ result: null,
 * claimId, quote, error, where }`, its input error in place when its line
 * could not be read, else "not checked".
 */
export function headOf(parsed, i) {
  const e = parsed.entries[i];
  const quote = typeof e.claim?.quote === 'string' ? clip(e.claim.quote, QUOTE_POINTS) : '';
  const claimId = typeof e.claim?.id === 'string' ? e.claim.id : null;
  return { result: null, claimId, quote, error: e.error, where: e.error ? whereOf(parsed, i, null) : null };
}

/**
 * Claim `i`'s list entry with its outcome (the evidence worker's `validateOne`):
 * the library's refusal in place (`{ result: null, claimId, quote, error,
 * where }`), or `{ result, failure, warnings, errors, quote }` (a one-claim
 * report's claim result, failed_claims entry, warnings and errors). `head`
 * is headOf(parsed, i).
 */
export function entryOf(parsed, i, head, outcome) {
  if (outcome.error) {
    return {
      result: null, claimId: head.claimId, quote: head.quote, where: whereOf(parsed, i, outcome.error.path),
      error: outcome.error.message.replace(/^[A-Z_]+: /, '').replace(/ at \$\S*$/, ''),
    };
  }
  return { result: outcome.result, failure: outcome.failure, warnings: outcome.warnings, errors: outcome.errors, quote: head.quote };
}

/** Whether two entries are the same: every field the same value (results and reports compared as objects). */
export function sameEntry(a, b) {
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Where claim `i`'s problem is, in the claims box's own terms: its JSON path
 * (`$.claims[3].quote`), or its line (one quote or one JSON claim per line).
 * `path` is the library's path in a one-claim input (`['claims', 0, …]`).
 */
export function whereOf(parsed, i, path) {
  const entry = parsed.entries[i];
  const tail = (path ?? []).slice(2).map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  if (parsed.kind === 'json') return `${Array.isArray(parsed.claims) ? '$' : '$.claims'}[${i}]${tail}`;
  if (parsed.kind === 'jsonl') return `line ${entry.line}${tail ? ` at $${tail}` : ''}`;
  return `line ${entry.line}`;
}
