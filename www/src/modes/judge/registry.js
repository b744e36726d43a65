// The host's jurors for the judge view: the hook a host page uses to plug in
// its own judge functions (a local model, a vendor API) next to the page's
// offline demo jurors. Installed by main.js at start-up (before any mode is
// loaded, and without the wasm), so a host script can register at any time:
//
//   window.evidenceValidator.registerJudge('local', async (prompt, { system }) => {
//     const r = await fetch('/llm/v1/chat/completions', { method: 'POST', ... });
//     return (await r.json()).choices[0].message.content;   // raw text: JSON, fenced JSON or plain words
//   }, { timeoutMs: 60000, label: 'LM Studio, gemma-3' });
//
// A page that loads before the bundle may instead declare them up front:
//
//   window.evidenceValidator = { judges: { local: askLocalModel } };
//
// A judge function has the package's JudgeFunction signature:
// `(prompt, { judge, system }) => Promise<string> | string`. Names starting
// with "demo-" are the page's own and cannot be registered.

const judges = new Map();
const listeners = new Set();

function notify() {
  for (const fn of listeners) {
    try { fn(); } catch (e) { console.error(e); }
  }
}

/**
 * Adds (or replaces) a juror. Returns a function that removes it.
 * @param {string} name
 * @param {(prompt: string, context: { judge: string, system: string }) => Promise<string>|string} ask
 * @param {{ timeoutMs?: number, label?: string }} [options]
 */
export function registerJudge(name, ask, options = {}) {
  if (typeof name !== 'string' || name.trim() === '' || name !== name.trim()) {
    throw new TypeError('registerJudge: the name must be a non-empty string without surrounding spaces');
  }
  if (name.startsWith('demo-')) throw new TypeError(`registerJudge: "${name}": names starting with "demo-" are reserved for the page's demo jurors`);
  if (typeof ask !== 'function') throw new TypeError(`registerJudge: "${name}": the judge must be a function (prompt, context) => Promise<string>`);
  const { timeoutMs, label } = options ?? {};
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`registerJudge: "${name}": timeoutMs must be a positive number of milliseconds`);
  }
  const entry = { name, ask, timeoutMs, label: typeof label === 'string' ? label : '' };
  judges.set(name, entry);
  notify();
  return () => {
    if (judges.get(name) === entry) unregisterJudge(name);
  };
}

/** Removes a juror; true when there was one. */
export function unregisterJudge(name) {
  const had = judges.delete(name);
  if (had) notify();
  return had;
}

/** The registered jurors, in registration order: `{ name, ask, timeoutMs?, label }`. */
export function hostJudges() {
  return [...judges.values()];
}

/** Calls `fn` whenever the jurors change; returns a function that stops it. */
export function onJudgesChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Installs `window.evidenceValidator.{registerJudge, unregisterJudge, listJudges}`,
 * adopting any `window.evidenceValidator.judges` declared before.
 */
export function installJudgeHook(win = window) {
  const api = win.evidenceValidator && typeof win.evidenceValidator === 'object' ? win.evidenceValidator : {};
  const declared = api.judges;
  Object.assign(api, {
    registerJudge,
    unregisterJudge,
    listJudges: () => hostJudges().map((j) => j.name),
  });
  delete api.judges;
  win.evidenceValidator = api;
  if (declared && typeof declared === 'object') {
    for (const [name, ask] of Object.entries(declared)) {
      try {
        registerJudge(name, ask);
      } catch (e) {
        console.error(e);
      }
    }
  }
  return api;
}
