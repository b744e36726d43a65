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
 *   or a bare array of claims, passed to the library as is (it checks the
 *   schema and names the JSON path of what is wrong).
 * - Anything else: one quote per non-blank line, each a `direct_quote` claim
 *   with ids EV001, EV002, … and task P1.T001.
 * @returns {{ kind: 'json'|'lines', claims: object, count: number, format: string|null }}
 *   `format` is `source_metadata.format` when the JSON gives one.
 */
export function parseClaims(text) {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'lines', claims: { claims: [] }, count: 0, format: null };
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new InputError(`claims are not valid JSON: ${e.message}`, jsonErrorWhere(text, e));
    }
    const list = Array.isArray(value) ? value : value?.claims;
    const format = !Array.isArray(value) && typeof value?.source_metadata?.format === 'string'
      ? value.source_metadata.format : null;
    return { kind: 'json', claims: value, count: Array.isArray(list) ? list.length : 0, format };
  }
  const quotes = text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');
  const claims = quotes.map((quote, i) => ({
    id: claimId(i + 1),
    task_id: 'P1.T001',
    evidence_type: 'direct_quote',
    quote,
  }));
  return { kind: 'lines', claims: { claims }, count: claims.length, format: null };
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
