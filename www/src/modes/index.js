// The UI's modes, one tab each. A mode is a folder under www/src/modes/ whose
// `mode.js` exports
//
//   mount(panel: HTMLElement, ctx: { setStatus(text: string): void }): void | Promise<void>
//
// called once, the first time its tab is shown; it owns everything inside
// `panel`. Each is loaded on demand (its own chunk, with the wasm module), so a
// mode costs nothing until it is opened. To add one, add an entry below.

export const modes = [
  {
    id: 'evidence',
    label: 'Evidence',
    title: 'Quotes against a source document (spec 000)',
    load: () => import(/* webpackChunkName: "mode-evidence" */ './evidence/mode.js'),
  },
  {
    id: 'transcript',
    label: 'Transcript',
    title: 'An evaluation\'s quotes against a speech transcript (spec 001)',
    load: () => import(/* webpackChunkName: "mode-transcript" */ './transcript/mode.js'),
  },
  {
    id: 'judge',
    label: 'Judge',
    title: 'A claim\'s cited lines, quote score and jury verdict; a whole report\'s citations (spec 002)',
    load: () => import(/* webpackChunkName: "mode-judge" */ './judge/mode.js'),
  },
  { id: 'cite', label: 'Cite', title: 'The claim-level citation pipeline with a demo or OpenAI-compatible LLM (spec 004)', load: () => import(/* webpackChunkName: "mode-cite" */ './cite/mode.js') },
];
