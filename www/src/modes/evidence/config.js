// The thresholds panel: the spec 000 §1.3 settings a reader tunes while
// looking at the highlights. Values go to the library as they are; it checks
// ranges and answers a CONFIGURATION_ERROR naming the field, shown by the mode.

import { h, uniqueId } from '../../dom.js';

/** The library's defaults (src/validate/config.rs), shown as the initial values. */
const FIELDS = [
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'enabled', label: 'Enabled', type: 'checkbox', value: true },
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'similarity_threshold', label: 'Similarity threshold', type: 'number', min: 0, max: 1, step: 0.01, value: 0.85 },
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'max_edit_distance', label: 'Max edit distance', type: 'number', min: 0, max: 2000, step: 1, value: 3 },
  {
    group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'algorithm', label: 'Algorithm', type: 'select', value: 'levenshtein',
    options: [['levenshtein', 'Levenshtein (edit distance)'], ['sequence_matcher', 'SequenceMatcher (difflib ratio)']],
  },
  { group: 'Exact matching', section: 'exact_matching', key: 'case_sensitive', label: 'Case sensitive', type: 'checkbox', value: false },
  { group: 'Exact matching', section: 'exact_matching', key: 'normalize_whitespace', label: 'Normalize whitespace', type: 'checkbox', value: true },
  { group: 'Semantic matching', section: 'semantic_matching', key: 'enabled', label: 'Enabled', type: 'checkbox', value: true },
  { group: 'Semantic matching', section: 'semantic_matching', key: 'similarity_threshold', label: 'Similarity threshold', type: 'number', min: 0, max: 1, step: 0.01, value: 0.75 },
  { group: 'Context validation', section: 'context_validation', key: 'enabled', label: 'Enabled', type: 'checkbox', value: true },
  { group: 'Context validation', section: 'context_validation', key: 'context_window', label: 'Context window (characters)', type: 'number', min: 0, max: 1000000, step: 10, value: 200 },
];

/**
 * Builds the panel. `onChange` runs on every edit.
 * @returns {{ element: HTMLElement, read(): object, reset(): void }}
 */
export function configPanel(onChange) {
  const inputs = [];
  const groups = new Map();
  for (const f of FIELDS) {
    if (!groups.has(f.group)) groups.set(f.group, h('fieldset', { class: 'config-group' }, h('legend', {}, f.group)));
    const id = uniqueId(`cfg-${f.section}-${f.key}`);
    let input;
    if (f.type === 'select') {
      input = h('select', { id }, f.options.map(([v, label]) => h('option', { value: v }, label)));
    } else {
      input = h('input', { id, type: f.type, min: f.min, max: f.max, step: f.step, inputmode: f.type === 'number' ? 'decimal' : null });
    }
    input.dataset.config = `${f.section}.${f.key}`;
    input.addEventListener('input', onChange);
    input.addEventListener('change', onChange);
    inputs.push({ f, input });
    const label = h('label', { for: id }, f.label);
    groups.get(f.group).append(h('div', { class: `config-field config-${f.type}` },
      f.type === 'checkbox' ? [input, label] : [label, input]));
  }

  function reset() {
    for (const { f, input } of inputs) {
      if (f.type === 'checkbox') input.checked = f.value;
      else input.value = String(f.value);
      input.removeAttribute('aria-invalid');
    }
  }

  /** The configuration object; an empty or unparsable number keeps the default (and is marked invalid). */
  function read() {
    const config = {};
    for (const { f, input } of inputs) {
      let value;
      if (f.type === 'checkbox') value = input.checked;
      else if (f.type === 'select') value = input.value;
      else {
        value = input.value.trim() === '' ? NaN : Number(input.value);
        const bad = !Number.isFinite(value);
        if (bad) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
        if (bad) continue;
      }
      (config[f.section] ??= {})[f.key] = value;
    }
    return config;
  }

  const resetButton = h('button', { type: 'button', class: 'secondary', onclick: () => { reset(); onChange(); } }, 'Reset to defaults');
  const element = h('div', { class: 'config-panel' }, [...groups.values()], h('div', { class: 'config-actions' }, resetButton));
  reset();
  return { element, read, reset };
}
