// Tiny DOM helpers shared by the modes. Text always goes in as text nodes:
// nothing a user pastes is ever parsed as HTML.

/**
 * `h('button', { class: 'x', onclick: f, 'aria-label': 'y' }, 'text', child)`.
 * Attributes: `on*` functions become listeners, `true` sets an empty
 * attribute, `false`/`null`/`undefined` are skipped; children are nodes,
 * strings (text nodes) or arrays of those.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** Appends nodes, strings (as text nodes) and nested arrays of them. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let uid = 0;
/** A document-unique id with a prefix. */
export const uniqueId = (prefix) => `${prefix}-${++uid}`;

/** Calls `fn` once `ms` after the last call; `.flush()` runs a pending call now, `.cancel()` drops it. */
export function debounce(fn, ms) {
  let timer = null;
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; fn(); }, ms);
  };
  debounced.flush = () => {
    if (timer !== null) { clearTimeout(timer); timer = null; fn(); }
  };
  debounced.cancel = () => { clearTimeout(timer); timer = null; };
  return debounced;
}

/** The highlight `<mark class="hl">` an event happened in, if any. */
export function markOf(e) {
  return e.target instanceof Element ? e.target.closest('mark.hl') : null;
}

/** Calls `fn(mark)` when a highlight in `view` is clicked, or focused and Enter pressed. */
export function onMarkActivate(view, fn) {
  view.addEventListener('click', (e) => {
    const mark = markOf(e);
    if (mark) fn(mark);
  });
  view.addEventListener('keydown', (e) => {
    const mark = markOf(e);
    if (mark && e.key === 'Enter') fn(mark);
  });
}

/** Offers `text` as a file download. */
export function download(filename, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A hidden page draws no frames: a slice waits at most this long for one. */
const FRAME_WAIT_MS = 100;

/**
 * Cooperative time slicing for long work on the main thread: the returned
 * `pause()` resolves to whether the work should go on (`isCurrent()`), after
 * giving the page a turn when `ms` have passed since the last one, so that no
 * task of the caller's runs much longer than `ms`. The turn lasts until the
 * browser has drawn a frame: the elements a slice added are laid out and
 * painted in that frame, a slice's worth at a time. (Yielding to a task
 * only, the slices can run back to back for 100 ms before Chromium draws,
 * and that frame then lays out all they added at once: a long task of its
 * own, 50–90 ms for a thousand claims.) `ms` is 3: on a machine whose cores
 * are shared the page's thread runs a fraction of the time, and a task's
 * wall time (what a long task is) is several times its CPU time.
 * @returns {() => Promise<boolean>}
 */
export function timeSlicer(isCurrent = () => true, ms = 3) {
  let since = performance.now();
  return async () => {
    if (performance.now() - since >= ms) {
      await afterNextFrame();
      since = performance.now();
    }
    return isCurrent();
  };
}

/** Resolves in a task after the browser's next frame (or after FRAME_WAIT_MS when none comes: a hidden page). */
export function afterNextFrame() {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      clearTimeout(fallback);
      resolve();
    };
    const fallback = setTimeout(go, FRAME_WAIT_MS);
    // the frame callback runs before the frame's layout and paint; the task after them resolves
    requestAnimationFrame(() => setTimeout(go, 0));
  });
}
