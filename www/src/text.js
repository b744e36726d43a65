// Text helpers with no DOM, shared by the page and the evidence worker
// (modes/evidence/worker-engine.js builds each claim's list entry there).

/** At most `n` code points (never half an emoji), whitespace collapsed. */
export function clip(text, n) {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > n ? `${chars.slice(0, n - 1).join('')}…` : chars.join('');
}
