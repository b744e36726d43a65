// The Cite view's offline demo host: deterministic rules, NOT a language
// model. It answers the citation pipeline's LLM requests (spec 004 part 2)
// so the view works without a network; the view can point at an
// OpenAI-compatible URL instead (openAiHost).
//
// Rules, read from the request's prompt (the pipeline's fixed templates):
//   - generate: the quoted evidence itself, as the claim;
//   - draft: every evidence quote, one per line;
//   - verify / cove_compare: SUPPORTED when every content word of the claim
//     is in the evidence, PARTIAL when at least half are, else UNSUPPORTED;
//   - cove_questions: one question; cove_answer / numeric_qa: the first
//     number of the text shown, else NOT FOUND.
// Pure: Node tests it without a browser.

export const DEMO_LABEL = 'demo host — not a language model';

const between = (text, start, end) => {
  const i = text.indexOf(start);
  if (i < 0) return '';
  const from = i + start.length;
  const j = text.indexOf(end, from);
  return text.slice(from, j < 0 ? text.length : j);
};

export const contentWords = (text) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 3 || /\d/.test(w));

function verdict(prompt) {
  const evidence = between(prompt, 'EVIDENCE: "', '"\n\nCLAIM: ');
  const claim = between(prompt, 'CLAIM: "', '"\n\n');
  const have = new Set(contentWords(evidence));
  const words = contentWords(claim);
  const found = words.filter((w) => have.has(w)).length;
  if (words.length > 0 && found === words.length) return 'Verdict: SUPPORTED';
  return found * 2 >= words.length && words.length > 0 ? 'Verdict: PARTIAL' : 'Verdict: UNSUPPORTED';
}

function firstNumber(prompt, label) {
  const text = between(prompt, `${label}: "`, '"\n\n');
  return text.match(/\$?\d[\d,.]*\s*(%|billion|million|thousand)?/)?.[0]?.trim() ?? 'NOT FOUND';
}

/** Answers one request of the pipeline (sync: the pipeline awaits either). */
export function demoAnswer(request) {
  const p = request.prompt;
  switch (request.kind) {
    case 'generate': return `CLAIM: ${between(p, 'quote):\n"', '"\n\u2014 Source')}`;
    case 'draft': return [...p.matchAll(/^\[\d+\] "(.*)"$/gm)].map((m) => m[1]).join('\n');
    case 'cove_questions': return '1. What does the evidence state?';
    case 'cove_answer': return firstNumber(p, 'EVIDENCE');
    case 'numeric_qa': return firstNumber(p, 'TEXT');
    default: return verdict(p);
  }
}

/** The demo host: generate, verify and qa all answered by demoAnswer. */
export const demoHost = () => ({ generate: demoAnswer, verify: demoAnswer, qa: demoAnswer });

/** A host asking an OpenAI-compatible chat endpoint (`…/v1`). */
export function openAiHost(baseUrl, model) {
  const url = `${baseUrl.replace(/\/+$/, '').replace(/\/chat\/completions$/, '')}/chat/completions`;
  const ask = async (request) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: request.prompt }], temperature: 0, stream: false }),
      signal: request.signal,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
    const body = await response.json();
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('the answer has no choices[0].message.content');
    return content;
  };
  return { generate: ask, verify: ask, qa: ask };
}
