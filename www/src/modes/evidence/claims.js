// The claims box: JSON in the spec 000 shape, or one quote per line. Pure (no
// DOM), tested in Node by tests/browser/spans.test.mjs.

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
