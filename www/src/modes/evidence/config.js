// The thresholds panel: the spec 000 §1.3 settings a reader tunes while
// looking at the highlights. Values go to the library as they are; it checks
// ranges and answers a CONFIGURATION_ERROR naming the field, shown by the mode.
// The initial values are the library's own defaults (`defaultConfig()`), so
// no default or bound is written here.

import { defaultConfig } from '../../library.js';
import { h, uniqueId } from '../../dom.js';
import { readNumber } from '../../widgets.js';

/** The settings shown, in order; each starts at the library's default. */
const FIELDS = [
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'enabled', label: 'Enabled', type: 'checkbox' },
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'similarity_threshold', label: 'Similarity threshold', type: 'number', step: 0.01 },
  { group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'max_edit_distance', label: 'Max edit distance', type: 'number', step: 1 },
  {
    group: 'Fuzzy matching', section: 'fuzzy_matching', key: 'algorithm', label: 'Algorithm', type: 'select',
    options: [['levenshtein', 'Levenshtein (edit distance)'], ['sequence_matcher', 'SequenceMatcher (difflib ratio)']],
  },
  { group: 'Exact matching', section: 'exact_matching', key: 'case_sensitive', label: 'Case sensitive', type: 'checkbox' },
  { group: 'Exact matching', section: 'exact_matching', key: 'normalize_whitespace', label: 'Normalize whitespace', type: 'checkbox' },
  { group: 'Semantic matching', section: 'semantic_matching', key: 'enabled', label: 'Enabled', type: 'checkbox' },
  { group: 'Semantic matching', section: 'semantic_matching', key: 'similarity_threshold', label: 'Similarity threshold', type: 'number', step: 0.01 },
  { group: 'Context validation', section: 'context_validation', key: 'enabled', label: 'Enabled', type: 'checkbox' },
  { group: 'Context validation', section: 'context_validation', key: 'context_window', label: 'Context window (characters)', type: 'number', step: 10 },
  // the whole run's limit in the web UI (each claim gets the time left)
  { group: 'Limits', section: 'performance_limits', key: 'max_processing_time_seconds', label: 'Time limit (seconds)', type: 'number', step: 1 },
];

/**
 * Builds the panel. `onChange` runs on every edit.
 * @returns {{ element: HTMLElement, read(): object, reset(): void, load(values: object): void }}
 *   `load` sets the fields a saved `read()` gives (others keep their value).
 */
export function configPanel(onChange) {
  const defaults = defaultConfig();
  const defaultOf = (f) => defaults[f.section][f.key];
  const inputs = [];
  const groups = new Map();
  for (const f of FIELDS) {
    if (!groups.has(f.group)) groups.set(f.group, h('fieldset', { class: 'config-group' }, h('legend', {}, f.group)));
    const id = uniqueId(`cfg-${f.section}-${f.key}`);
    let input;
    if (f.type === 'select') {
      input = h('select', { id }, f.options.map(([v, label]) => h('option', { value: v }, label)));
    } else {
      input = h('input', { id, type: f.type, step: f.step, inputmode: f.type === 'number' ? 'decimal' : null });
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
      if (f.type === 'checkbox') input.checked = defaultOf(f);
      else input.value = String(defaultOf(f));
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
      else value = readNumber(input, defaultOf(f));
      (config[f.section] ??= {})[f.key] = value;
    }
    return config;
  }

  function load(values) {
    for (const { f, input } of inputs) {
      const v = values?.[f.section]?.[f.key];
      if (f.type === 'checkbox' && typeof v === 'boolean') input.checked = v;
      else if (f.type !== 'checkbox' && (typeof v === 'number' || typeof v === 'string')) input.value = String(v);
    }
  }

  const resetButton = h('button', { type: 'button', class: 'secondary', onclick: () => { reset(); onChange(); } }, 'Reset to defaults');
  const element = h('div', { class: 'config-panel' }, [...groups.values()], h('div', { class: 'config-actions' }, resetButton));
  reset();
  return { element, read, reset, load };
}
