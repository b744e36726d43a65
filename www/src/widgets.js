// Widgets more than one mode builds: the file loader, the sample bar, a
// labelled input field, legend entries, the "current highlight" outline and
// the run-state attributes tests read. Each mode keeps only what is its own.

import { h, replaceChildren } from './dom.js';

/**
 * A visually hidden file input with a button-like label (the input stays in
 * the tab order, and comes first in the DOM so that CSS can show its focus on
 * the label). `onFile` gets a File, or a File[] with `multiple`.
 * @returns {{ input: HTMLInputElement, label: HTMLLabelElement }}
 */
export function fileInput(id, accept, onFile, { multiple = false, label = 'Load file…' } = {}) {
  const input = h('input', {
    id, type: 'file', accept, class: 'file-input', multiple,
    onchange: async () => {
      const files = [...(input.files ?? [])];
      if (files.length) await onFile(multiple ? files : files[0]);
      input.value = '';
    },
  });
  return { input, label: h('label', { for: id, class: 'file-label' }, label) };
}

/**
 * A text box the user types or pastes into, with a file loader that fills
 * it: `onInput()` after each keystroke, `onLoad(file)` after a file is read
 * into the box.
 * @returns {{ box: HTMLTextAreaElement, file: { input: HTMLInputElement, label: HTMLLabelElement } }}
 */
export function loadableText({ id, fileId, accept, onInput, onLoad, holdOver = Infinity, ...attrs }) {
  const box = h('textarea', { id, spellcheck: 'false', ...attrs, oninput: onInput });
  /** A text too long for the box, kept here instead (null: the box holds the text). */
  let held = null;
  /** The file a held text was read from (saved as it is: nothing to encode again). */
  let heldFile = null;
  const heldNote = h('span', { class: 'held-note' });
  const editButton = h('button', { type: 'button', class: 'secondary', onclick: () => editHere() }, 'Edit in the box');
  const heldPanel = h('div', { class: 'held-text', hidden: true, role: 'group', 'aria-label': attrs['aria-label'] ?? null }, heldNote, ' ', editButton);
  const element = h('div', { class: 'loadable-text' }, heldPanel, box);

  /** The text: the box's, or the one held. */
  const text = () => held ?? box.value;
  /**
   * Puts `t` in the box; one longer than `holdOver` UTF-16 units is held
   * instead, the box hidden: a megabyte in a text box is tens of thousands
   * of the browser's own elements, laid out (seconds) and walked again by
   * every layout, paint and garbage collection of the page while it is there.
   */
  function setText(t, name = null, file = null) {
    heldFile = null;
    if (t.length > holdOver) {
      held = t;
      heldFile = file;
      box.value = '';
      box.hidden = true;
      heldNote.textContent = `${name ?? 'A text'} of ${thousands(t.length)} characters, kept out of the box (editing it there is slow).`;
      heldPanel.hidden = false;
    } else {
      held = null;
      box.value = t;
      box.hidden = false;
      heldPanel.hidden = true;
    }
  }
  /** The held text into the box, to edit it there (slow once, for a long one). */
  function editHere() {
    if (held === null) return;
    const t = held;
    held = null;
    heldFile = null;
    heldPanel.hidden = true;
    box.hidden = false;
    box.value = t;
    box.focus();
  }
  // a long paste into an empty (or wholly selected) box is held, not pasted
  box.addEventListener('paste', (e) => {
    const pasted = e.clipboardData?.getData('text/plain') ?? '';
    const whole = box.selectionStart === 0 && box.selectionEnd === box.value.length;
    if (pasted.length <= holdOver || !whole) return;
    e.preventDefault();
    setText(pasted, 'A pasted text');
    onInput();
  });
  const file = fileInput(fileId, accept, async (f) => {
    setText(await f.text(), f.name, f);
    onLoad(f);
  });
  /** What to save: the file a held text came from, else the text. */
  const stored = () => heldFile ?? text();
  /** The file the held text was read from (null: none, or the box holds the text). */
  const heldFromFile = () => heldFile;
  return { box, file, element, text, setText, stored, heldFromFile, get held() { return held !== null; } };
}

/** `1234567` as `1,234,567` (toLocaleString builds a number formatter: milliseconds, the first time). */
function thousands(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The file's extension, lower case ('' when it has none). */
export function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * "Sample [select] [Load sample]": `onLoad(id)` with the chosen sample's id.
 * @returns {{ element: HTMLElement, select: HTMLSelectElement }}
 */
export function sampleBar(id, samples, onLoad) {
  const select = h('select', { id }, samples.map((s) => h('option', { value: s.id }, s.label)));
  const load = h('button', { type: 'button', onclick: () => onLoad(select.value) }, 'Load sample');
  return { element: h('div', { class: 'sample-bar' }, h('label', { for: id }, 'Sample'), select, load), select };
}

/** The Clear control of a mode whose work is kept across reloads (storage.js). */
export function clearButton(onClear) {
  return h('button', { type: 'button', class: 'secondary clear-button', onclick: onClear }, 'Clear');
}

/** A labelled input with its tools (format selector, file loader, …) in the head and help below. */
export function field(id, label, input, { tools = [], help = null } = {}) {
  return h('div', { class: 'field' },
    h('div', { class: 'field-head' },
      h('label', { for: id, class: 'field-label' }, label),
      tools.length ? h('span', { class: 'field-tools' }, tools) : null),
    input,
    help);
}

/** One legend entry: a sample highlight with `classes`, then its meaning. */
export function legendItem(classes, label) {
  return h('li', {}, h('mark', { class: `hl ${classes} legend-swatch`, 'aria-hidden': 'true' }, 'Abc'), ` ${label}`);
}

/** Outlines `marks` as the current highlight (removing it from any other mark in `view`), scrolls to and focuses the first. */
export function showCurrent(view, marks) {
  for (const m of view.querySelectorAll('mark.is-current')) m.classList.remove('is-current');
  for (const m of marks) m.classList.add('is-current');
  marks[0].scrollIntoView({ block: 'center', inline: 'nearest' });
  marks[0].focus({ preventScroll: true });
}

/** Marks `item` (if any) as the one selected among `list`'s `selector` elements. */
export function selectIn(list, selector, item, scroll = true) {
  for (const li of list.querySelectorAll(`${selector}.is-selected`)) li.classList.remove('is-selected');
  if (!item) return;
  item.classList.add('is-selected');
  if (scroll) item.scrollIntoView({ block: 'nearest' });
}

/** "Where: CODE: message" in the problem box, which is shown. */
export function showProblem(problem, where, message, code, hint = null) {
  const text = message.replace(/^[A-Z_]+: /, '');
  replaceChildren(problem, h('strong', {}, `${where}: `), code ? `${code}: ` : '', hint ? `${text.replace(/\.$/, '')}. ${hint}` : text);
  problem.hidden = false;
}

/**
 * Reads a number input: its value, or `fallback` when it is empty, not a
 * number, or not `ok` (the input is then marked invalid).
 */
export function readNumber(input, fallback, ok = () => true) {
  const v = input.value.trim() === '' ? NaN : Number(input.value);
  const bad = !Number.isFinite(v) || !ok(v);
  if (bad) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  return bad ? fallback : v;
}

/**
 * Files dropped anywhere on `target` go to `onFiles(files)`; while files are
 * dragged over it, `target` has the class `is-dropping`.
 */
export function acceptDrops(target, onFiles) {
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  target.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    target.classList.add('is-dropping');
  });
  target.addEventListener('dragleave', (e) => {
    if (!target.contains(e.relatedTarget)) target.classList.remove('is-dropping');
  });
  target.addEventListener('drop', async (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    target.classList.remove('is-dropping');
    const files = [...e.dataTransfer.files];
    if (files.length) await onFiles(files);
  });
}

/** A run's progress row shows once it has run this long (ms): a short run draws no frame for it. */
const PROGRESS_DELAY_MS = 200;

/**
 * The progress row of a run in a worker (issue 19): a progress bar, what is
 * being done, and a Cancel button (`onCancel`). `set(p)` while a run is in
 * flight (`{ done, total, what }`: `what(done, total)` the text; `total` 0
 * while it is not known), `set(null)` when none is; `rootOf` (an element,
 * or a function returning it: the mode's root, made after its progress
 * row) carries data-running="true" meanwhile, for tests.
 * @returns {{ element: HTMLElement, set(p: { done: number, total: number, what: (done: number, total: number) => string }|null): void }}
 */
export function progressRow(rootOf, label, onCancel) {
  const root = () => (typeof rootOf === 'function' ? rootOf() : rootOf);
  const bar = h('progress', { max: 1, value: 0, 'aria-label': label });
  const text = h('span', { class: 'progress-text' });
  const element = h('div', { class: 'progress-row', hidden: true }, bar, text,
    h('button', { type: 'button', class: 'secondary cancel-button', onclick: () => onCancel() }, 'Cancel'));
  let timer = null;
  let shown = false;
  let now = null;
  function draw() {
    bar.max = Math.max(1, now.total);
    bar.value = now.done;
    text.textContent = now.what(now.done, now.total);
    element.hidden = false;
  }
  function set(p) {
    if (p === null) {
      clearTimeout(timer);
      timer = null;
      shown = false;
      if ('running' in root().dataset) delete root().dataset.running;
      if (!element.hidden) {
        element.hidden = true;
        bar.value = 0;
      }
      return;
    }
    if (!('running' in root().dataset)) root().dataset.running = 'true';
    now = p;
    if (shown) draw();
    else timer ??= setTimeout(() => { timer = null; shown = true; draw(); }, PROGRESS_DELAY_MS);
  }
  return { element, set };
}
