// The citation pipeline of spec 004 part 2 through the JS package:
// citePipeline with scripted async callbacks (the exact requests and the
// final assembly, as tests/cite_pipeline.rs checks natively), isolation of
// the verifier's requests, onClaim and the citeStream async iterator, the
// bound on calls in flight, retries, the AbortSignal, and typed errors.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { citePipeline, citeStream } from 'evidence-validator';

const QUERY = 'How did the Treaty of Paris end the war?';
const sources = [
  { id: 'paris', title: 'Treaty history', content: 'The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting.' },
  { id: 'cats', title: 'Cats', content: 'Cats sleep for around sixteen hours every day, far more than most other mammals do.' },
];
const generated = { query: QUERY, sources, claims: [], outline: ['Treaty of Paris signing', 'How long the war lasted'] };
const config = { interleaved_generation: { max_claims_per_section: 1 } };

const quoteOf = (prompt) => prompt.slice(prompt.indexOf('quote):\n"') + 9, prompt.indexOf('"\n\u2014 Source'));

// the same scripted answers as the Rust end-to-end test
const host = (log) => ({
  generate: async (r) => {
    log.push(r);
    return r.prompt.includes('TOPIC: Treaty')
      ? '<think>keep it short</think>CLAIM: "The Treaty of Paris was signed in 1783."'
      : 'The war lasted 9 years.';
  },
  verify: async (r) => {
    log.push(r);
    return 'Verdict: SUPPORTED';
  },
  qa: (r) => {
    log.push(r);
    return '1783';
  },
});

describe('citePipeline', () => {
  test('interleaved generation then isolated verification, end to end', async () => {
    const log = [];
    const events = [];
    const r = await citePipeline(generated, config, { ...host(log), onClaim: (e) => events.push(e) });
    assert.deepEqual(log.map((x) => [x.kind, x.claim]), [
      ['generate', null], ['generate', null], ['verify', 0],
      ...Array(6).fill(['numeric_qa', 0]),
    ]);
    assert.equal(log[0].prompt,
      'Generate a factual claim for a research report.\n\nTOPIC: Treaty of Paris signing\nRESEARCH QUESTION: How did the Treaty of Paris end the war?\n\nEVIDENCE (you may ONLY use facts from this quote):\n"The Treaty of Paris was signed in 1783 by the United States and Britain."\n\u2014 Source: Treaty history\n\nWrite ONE clear, factual sentence that:\n1. Is fully supported by the evidence above\n2. Contributes to answering the research question\n3. Could stand alone with a citation\n\nCLAIM:');
    assert.equal(log[2].prompt,
      'Determine if the claim is supported by the evidence.\n\nEVIDENCE: "The Treaty of Paris was signed in 1783 by the United States and Britain."\n\nCLAIM: "The Treaty of Paris was signed in 1783."\n\nIs the claim fully supported by the evidence?\nAnswer: SUPPORTED, PARTIAL, UNSUPPORTED, CONTRADICTED, or NEI (the evidence says nothing about it)');
    assert.equal(log[2].callback, 'verify');
    assert.equal(log[3].callback, 'qa');
    assert.equal(r.generation.mode, 'interleaved');
    assert.deepEqual(r.generation.dropped.map((d) => [d.text, d.reason]), [['The war lasted 9 years.', 'failed the quick entailment check']]);
    assert.equal(r.claims.length, 1);
    const c = r.claims[0];
    assert.equal(c.text, 'The Treaty of Paris was signed in 1783.');
    assert.equal(c.verdict, 'SUPPORTED');
    assert.equal(c.section, 'Treaty of Paris signing');
    assert.equal(c.verification.verifier, 'llm');
    assert.equal(c.verification.method, 'quick');
    const e = c.evidence[0];
    assert.equal(sources[0].content.slice(e.position.utf16_start, e.position.utf16_end), e.quote);
    assert.deepEqual([r.summary.claims, r.summary.supported, r.summary.llm_calls], [1, 1, 9]);
    assert.deepEqual(events.map((x) => [x.event, x.index]), [['claim', 0], ['verified', 0]]);
  });

  test('the verifier sees only the claim and its evidence', async () => {
    const log = [];
    const claims = [
      { text: 'The Treaty of Paris was signed in 1783 by the United States and Britain.', citations: ['paris'] },
      { text: 'Cats reportedly sleep sixteen hours daily.', citations: ['cats'] },
      { text: 'It is possible that the war might have ended after perhaps eight years.', citations: ['paris'] },
    ];
    const answers = { verify: 'SUPPORTED', cove_questions: '1. How long?', cove_answer: 'Eight years.', cove_compare: 'Verdict: PARTIAL', numeric_qa: 'NOT FOUND' };
    for (const cfg of [{}, { enable_confidence_classification: false }, { enable_nei_verdict: false, enable_abstention: false }]) {
      const r = await citePipeline({ query: QUERY, sources, claims }, cfg, {
        verify: (x) => { log.push(x); return answers[x.kind]; },
      });
      for (const x of log) {
        const own = r.claims[x.claim];
        assert.ok(!x.prompt.includes(QUERY), 'the query leaked');
        for (const [m, other] of claims.entries()) {
          if (m !== x.claim && !own.verification.evidence.includes(other.text)) assert.ok(!x.prompt.includes(other.text), `claim ${m} leaked`);
        }
        assert.ok(!x.prompt.includes('Cats sleep') || own.verification.evidence.startsWith('Cats sleep'), 'another source leaked');
      }
      log.length = 0;
    }
  });

  test('at most max_in_flight calls at once; transient failures retried', async () => {
    let now = 0;
    let max = 0;
    const tried = new Map();
    const claims = ['The Treaty of Paris was signed in 1783 by the United States and Britain.', 'Cats sleep for around sixteen hours every day.',
      'It ended the American Revolutionary War.', 'The Treaty of Paris was signed by Britain.']
      .map((text) => ({ text, citations: [text.startsWith('Cats') ? 'cats' : 'paris'] }));
    const r = await citePipeline({ query: QUERY, sources, claims }, { llm_calls: { max_in_flight: 2 }, enable_numeric_qa_verification: false }, {
      verify: async (x) => {
        now += 1;
        max = Math.max(max, now);
        await new Promise((resolve) => setTimeout(resolve, 20));
        now -= 1;
        tried.set(x.claim, (tried.get(x.claim) ?? 0) + 1);
        if (x.attempt === 1 && x.claim === 0) throw new Error('HTTP 503');
        return x.kind === 'cove_questions' ? 'What happened?' : 'Verdict: SUPPORTED';
      },
    });
    assert.equal(max, 2);
    assert.equal(r.summary.retries, 1);
    assert.equal(r.summary.failed_calls, 0);
    assert.equal(r.claims[0].verdict, 'SUPPORTED');
  });

  test('a lasting failure abstains the claim; an abort rejects', async () => {
    const claims = [{ text: 'The Treaty of Paris was signed in 1783 by the United States and Britain.', citations: ['paris'] }];
    const r = await citePipeline({ query: QUERY, sources, claims }, { llm_calls: { max_retries: 0 }, enable_numeric_qa_verification: false }, {
      verify: () => Promise.reject(new Error('offline')),
    });
    assert.equal(r.claims[0].abstained, true);
    assert.equal(r.claims[0].verdict, null);
    assert.equal(r.claims[0].verification.reason, 'the verification call failed: the verify callback failed: offline');
    const controller = new AbortController();
    await assert.rejects(citePipeline(generated, config, {
      generate: (x) => { controller.abort(); assert.equal(x.signal, controller.signal); return 'CLAIM: x'; },
      verify: () => 'SUPPORTED',
      signal: controller.signal,
    }), (e) => e.code === 'PROCESSING_ERROR' && e.message.includes('cancelled'));
  });

  test('without callbacks: the deterministic verifier; bad hosts and inputs are typed errors', async () => {
    const claims = [{ text: 'The Treaty of Paris was signed in 1783 by the United States and Britain.', citations: ['paris'] }];
    const r = await citePipeline({ query: QUERY, sources, claims });
    assert.equal(r.claims[0].verdict, 'SUPPORTED');
    assert.equal(r.claims[0].verification.verifier, 'deterministic');
    await assert.rejects(citePipeline(generated), (e) => e.code === 'VALIDATION_ERROR' && e.details.json_path === '$.claims');
    await assert.rejects(citePipeline(generated, null, { verfy: () => '' }), (e) => e.code === 'CONFIGURATION_ERROR' && e.details.json_path === '$.verfy');
    await assert.rejects(citePipeline(generated, null, { verify: 5 }), (e) => e.code === 'CONFIGURATION_ERROR' && e.details.json_path === '$.verify');
    await assert.rejects(citePipeline({ ...generated, outline: [3] }, null, {}), (e) => e.code === 'VALIDATION_ERROR' && e.details.json_path === '$.outline[0]');
  });
});

describe('citeStream', () => {
  test('yields each claim as produced, each verdict, then the report', async () => {
    const seen = [];
    for await (const e of citeStream(generated, config, host([]))) seen.push(e);
    assert.deepEqual(seen.map((e) => e.event), ['claim', 'verified', 'report']);
    assert.equal(seen[0].text, 'The Treaty of Paris was signed in 1783.');
    assert.equal(seen[2].report.claims[0].verdict, 'SUPPORTED');
    // an error ends the iteration with a rejection
    const it = citeStream(generated, null, {});
    await assert.rejects(it.next(), (e) => e.code === 'VALIDATION_ERROR');
  });
});

test('generate alone: the LLM writes, the deterministic verifier checks', async () => {
  const r = await citePipeline(generated, config, { generate: (x) => `CLAIM: ${quoteOf(x.prompt)}` });
  assert.ok(r.claims.length >= 1);
  for (const c of r.claims) {
    assert.equal(c.verification.verifier, 'deterministic');
    // each claim is its quote word for word: stated, so SUPPORTED
    assert.equal(c.verdict, 'SUPPORTED');
  }
  assert.equal(r.stages.verifier, 'deterministic');
});
