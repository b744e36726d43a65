// The evaluation items box (pure, no DOM). Accepted JSON:
//   - a whole StructuredEvaluation: { commendations: [...], recommendations: [...], ... }
//     (an EvaluationOutcome too: its `evaluation`);
//   - a list of items: [ { evidence_quote, evidence_timestamp, text? }, ... ]
//     or { items: [...] };
//   - one item: { evidence_quote, evidence_timestamp }.
// Each entry gets a key (`c0` commendation, `r0` recommendation, `i0` item)
// and a label for the list.

export class InputError extends Error {
  constructor(message, where) {
    super(message);
    this.name = 'InputError';
    this.where = where;
  }
}

/** "line 2, column 16" for a JSON.parse error, when the engine says where. */
function whereOf(text, error) {
  const m = /line (\d+) column (\d+)/.exec(error.message);
  if (m) return `line ${m[1]}, column ${m[2]}`;
  const p = /position (\d+)/.exec(error.message);
  if (!p) return undefined;
  const before = text.slice(0, Number(p[1]));
  const line = before.split('\n').length;
  return `line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * @returns {{ kind: 'empty' } | { kind: 'evaluation', evaluation: object, entries: Entry[] } | { kind: 'items', entries: Entry[] }}
 *   where Entry = { key, kind: 'commendation'|'recommendation'|'item', index, label, item }
 */
export function parseItems(text) {
  if (text.trim() === '') return { kind: 'empty' };
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON: ${e.message.replace(/^JSON\.parse: /, '')}`, whereOf(text, e));
  }
  if (isObject(value) && isObject(value.evaluation) && Array.isArray(value.attempts)) value = value.evaluation;
  if (isObject(value) && (Array.isArray(value.commendations) || Array.isArray(value.recommendations))) {
    const list = (name, prefix, kind, label) => (Array.isArray(value[name]) ? value[name] : [])
      .map((item, index) => ({ key: `${prefix}${index}`, kind, index, label: `${label} ${index + 1}`, item }));
    return {
      kind: 'evaluation',
      evaluation: value,
      entries: [...list('commendations', 'c', 'commendation', 'Commendation'), ...list('recommendations', 'r', 'recommendation', 'Recommendation')],
    };
  }
  let items = null;
  if (Array.isArray(value)) items = value;
  else if (isObject(value) && Array.isArray(value.items)) items = value.items;
  else if (isObject(value) && 'evidence_quote' in value) items = [value];
  if (items === null) {
    throw new InputError('expected a StructuredEvaluation ({ "commendations": [...], "recommendations": [...] }), a list of items, or one item ({ "evidence_quote": "…", "evidence_timestamp": 12.5 })');
  }
  return { kind: 'items', entries: items.map((item, index) => ({ key: `i${index}`, kind: 'item', index, label: `Item ${index + 1}`, item })) };
}
