// The page's offline demo jurors: deterministic rules, NOT language models.
// They exist so the judge view works without a network or a model; a host
// page plugs in real jurors with window.evidenceValidator.registerJudge (see
// registry.js and www/README.md).
//
// Each demo juror is a JudgeFunction like any other: it gets the spec's
// prompt (and the instructions, which it ignores), reads the cited lines, the
// context, the claim and the quote back out of the prompt, and answers with
// the JSON object the package's answer parser reads:
//   {"verdict": "...", "substantive_quote": ..., "quote_in_context": ...,
//    "supports_claim": ..., "reason": "..."}
//
// The rules (all three first answer INSUFFICIENT when the quote scores below
// the threshold in the cited lines and the lines before them, the spec's step
// 2 area, or when it has fewer than 5 words, the spec's "too short"):
//   - demo-strict:  VALID when every content word of the claim is in the
//                   cited lines, else INSUFFICIENT;
//   - demo-context: VALID when every content word of the claim is in the
//                   cited lines or their context, else UNSUPPORTED;
//   - demo-lenient: VALID when at least half of the claim's content words
//                   are in the cited lines, else UNSUPPORTED.
// Content words: letters/digits runs, lowercased, without English stop words
// and words under 3 letters (numbers are kept), compared after stripping a
// plural or -ed/-ing ending. A demo juror never answers MISLEADING: it cannot
// read meaning (a dropped "not" passes it by).
//
// Pure apart from `quoteScore`, which is passed in (the package's step-2
// score), so Node can test this file without a browser.

export const DEMO_LABEL = 'demo judge — not a language model';

const STOP_WORDS = new Set((
  'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
  'can could did do does doing down during each either few for from further had has have having he her here hers herself him ' +
  'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ours ' +
  'ourselves out over own same she should so some such than that the their theirs them themselves then there these they this ' +
  'those through to too under until up very was we were what when where which while who whom why will with would you your ' +
  'yours yourself yourselves may might must shall yet per via'
).split(' '));

/** Lowercased letter/digit runs. */
export function words(text) {
  return (text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []);
}

/** The claim's content words, each once, in order. */
export function contentWords(text) {
  const out = [];
  for (const w of words(text)) {
    const numeric = /^\p{N}+$/u.test(w);
    if (!numeric && (w.length < 3 || STOP_WORDS.has(w))) continue;
    if (!out.includes(w)) out.push(w);
  }
  return out;
}

/** A very light stemmer: plural, -ed and -ing endings, then a final e (votes, voted, voting, vote → vot). */
export function stem(w) {
  let s = w;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else {
    for (const suffix of ['ing', 'ed', 's']) {
      if (s.length - suffix.length >= 3 && s.endsWith(suffix) && !(suffix === 's' && s.endsWith('ss'))) {
        s = s.slice(0, -suffix.length);
        break;
      }
    }
  }
  return s.length > 3 && s.endsWith('e') ? s.slice(0, -1) : s;
}

/** The claim's content words that do not occur (as a stem) in `text`. */
export function missingWords(claim, text) {
  const present = new Set(words(text).map(stem));
  return contentWords(claim).filter((w) => !present.has(stem(w)));
}

const TAG = /^\[L\d+\] ?/;
const untag = (block) => block.split('\n').map((l) => l.replace(TAG, '')).join('\n');

/**
 * The parts of the spec's prompt (tags removed from the lines). Throws when
 * the prompt is not in the spec's form.
 */
export function parsePrompt(prompt) {
  const m = /^SOURCE FILE: (.*)\nCITED LINES: (\S+)\n\nCONTEXT BEFORE:\n/.exec(prompt);
  const cited = prompt.indexOf('\n\nCITED TEXT:\n');
  const after = cited < 0 ? -1 : prompt.indexOf('\n\nCONTEXT AFTER:\n', cited);
  const claim = after < 0 ? -1 : prompt.indexOf('\n\nCLAIM BEING MADE: ', after);
  const quote = prompt.lastIndexOf('\nQUOTE USED: ');
  if (!m || cited < 0 || after < 0 || claim < 0 || quote < claim) {
    throw new Error('the prompt is not in the spec 002 form (SOURCE FILE, CITED LINES, CONTEXT BEFORE, CITED TEXT, CONTEXT AFTER, CLAIM BEING MADE, QUOTE USED)');
  }
  return {
    filename: m[1],
    lines: m[2],
    before: untag(prompt.slice(m[0].length, cited)),
    cited: untag(prompt.slice(cited + '\n\nCITED TEXT:\n'.length, after)),
    after: untag(prompt.slice(after + '\n\nCONTEXT AFTER:\n'.length, claim)),
    claim: prompt.slice(claim + '\n\nCLAIM BEING MADE: '.length, quote),
    quote: prompt.slice(quote + '\nQUOTE USED: '.length),
  };
}

const answer = (verdict, reason, flags) => JSON.stringify({ verdict, ...flags, reason });
const list = (ws) => ws.map((w) => `"${w}"`).join(', ');

/** The verdict of one demo juror for a prompt (a JSON string). */
function decide(rule, prompt, threshold, quoteScore) {
  const p = parsePrompt(prompt);
  const score = quoteScore(p.quote, `${p.before}\n${p.cited}`);
  const fmt = (x) => x.toFixed(2);
  if (score < threshold) {
    return answer('INSUFFICIENT', `The quote scores ${fmt(score)} in the cited lines, below the threshold ${fmt(threshold)}: it is not there to support anything.`,
      { substantive_quote: false, quote_in_context: false, supports_claim: false });
  }
  const quoteWords = words(p.quote).length;
  if (quoteWords < 5) {
    return answer('INSUFFICIENT', `The quote has ${quoteWords} word${quoteWords === 1 ? '' : 's'}, fewer than 5: too short to support a claim.`,
      { substantive_quote: false, quote_in_context: true, supports_claim: false });
  }
  const claimWords = contentWords(p.claim);
  const head = `Quote score ${fmt(score)} ≥ ${fmt(threshold)}.`;
  if (rule === 'strict') {
    const missing = missingWords(p.claim, p.cited);
    if (missing.length === 0) {
      return answer('VALID', `${head} Every content word of the claim (${claimWords.length}) is in the cited lines.`,
        { substantive_quote: true, quote_in_context: true, supports_claim: true });
    }
    return answer('INSUFFICIENT', `${head} The cited lines lack the claim's ${list(missing)}.`,
      { substantive_quote: true, quote_in_context: true, supports_claim: false });
  }
  if (rule === 'context') {
    const missing = missingWords(p.claim, `${p.before}\n${p.cited}\n${p.after}`);
    if (missing.length === 0) {
      return answer('VALID', `${head} Every content word of the claim (${claimWords.length}) is in the cited lines or their context.`,
        { substantive_quote: true, quote_in_context: true, supports_claim: true });
    }
    return answer('UNSUPPORTED', `${head} Neither the cited lines nor their context mention ${list(missing)}.`,
      { substantive_quote: true, quote_in_context: true, supports_claim: false });
  }
  const missing = missingWords(p.claim, p.cited);
  const found = claimWords.length - missing.length;
  if (found * 2 >= claimWords.length) {
    return answer('VALID', `${head} ${found} of the claim's ${claimWords.length} content words are in the cited lines (at least half).`,
      { substantive_quote: true, quote_in_context: true, supports_claim: true });
  }
  return answer('UNSUPPORTED', `${head} Only ${found} of the claim's ${claimWords.length} content words are in the cited lines.`,
    { substantive_quote: true, quote_in_context: true, supports_claim: false });
}

/** The demo jurors: name, one-line rule, and the rule's key. */
export const DEMO_JURORS = [
  { name: 'demo-strict', rule: 'strict', description: 'VALID when every content word of the claim is in the cited lines, else INSUFFICIENT.' },
  { name: 'demo-context', rule: 'context', description: 'VALID when every content word of the claim is in the cited lines or the lines around them, else UNSUPPORTED.' },
  { name: 'demo-lenient', rule: 'lenient', description: 'VALID when at least half of the claim\'s content words are in the cited lines, else UNSUPPORTED.' },
];

/**
 * The demo jurors as JurorSpec objects for verifyClaim/verifyReport.
 * @param {{ threshold: number, quoteScore: (quote: string, area: string) => number, only?: string[] }} options
 */
export function demoJury({ threshold, quoteScore, only }) {
  return DEMO_JURORS
    .filter((j) => !only || only.includes(j.name))
    .map((j) => ({ name: j.name, ask: async (prompt) => decide(j.rule, prompt, threshold, quoteScore) }));
}
