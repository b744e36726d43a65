// The citation pipeline of spec 004 part 2 through the JS package:
// citePipeline with scripted async callbacks (the exact requests and the
// final assembly, as tests/cite_pipeline.rs checks natively), isolation of
// the verifier's requests, onClaim and the citeStream async iterator, the
// bounds on calls in flight per confidence tier, retries, the embed
// callback, the AbortSignal, and typed errors.

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

  // Part VI's parallelization strategy, computed in the core: stage 4 by
  // confidence tier, at most 5 HIGH, 3 MEDIUM, 2 LOW calls at once (the
  // tiers side by side), stage 6 at most max_in_flight. Each call waits (at
  // most 3 s) until its lane, and for stage 4 the three tiers together,
  // reached their bound, so a runner that allows the bounds reaches them;
  // one that passes them is seen doing so.
  const tiered = {
    query: QUERY,
    sources: [sources[0]],
    claims: [
      'The Treaty of Paris was signed in 1783.', 'The Treaty of Paris was signed in 1783 by Britain.',
      'In 1783 the Treaty of Paris was signed by the United States.', 'Britain signed the Treaty of Paris in 1783.',
      'The United States signed the Treaty of Paris in 1783.', 'The Treaty of Paris dates from 1783.',
      'It ended the war.', 'The fighting stopped.', 'The war was long.', 'The treaty ended the fighting.',
      'The war possibly ended.', 'It might have ended the war.', 'Perhaps the fighting stopped.',
    ].map((text) => ({ text, citations: ['paris'] })),
  };
  const countingHost = (limits) => {
    const lanes = { HIGH: 0, MEDIUM: 1, LOW: 2 };
    const now = [0, 0, 0, 0];
    const most = [0, 0, 0, 0];
    let all = 0;
    let mostAll = 0;
    const tiers = limits[0] + limits[1] + limits[2];
    const waiters = [];
    const call = async (x) => {
      const lane = x.confidence === null ? 3 : lanes[x.confidence];
      now[lane] += 1;
      all += 1;
      most[lane] = Math.max(most[lane], now[lane]);
      mostAll = Math.max(mostAll, all);
      const ready = () => most[lane] >= limits[lane] && (lane === 3 || mostAll >= tiers);
      for (const w of waiters.splice(0)) w();
      const started = Date.now();
      while (!ready() && Date.now() - started < 3000) {
        await new Promise((resolve) => { waiters.push(resolve); setTimeout(resolve, 50); });
      }
      now[lane] -= 1;
      all -= 1;
      if (x.kind === 'cove_questions') return '1. When was it signed?';
      if (x.kind === 'cove_answer' || x.kind === 'numeric_qa') return '1783';
      return 'Verdict: SUPPORTED';
    };
    return { host: { verify: call, qa: call }, most: () => [most, mostAll] };
  };

  test('calls in flight are bounded per confidence tier, as the core says', async () => {
    const { host: h, most } = countingHost([5, 3, 2, 4]);
    const r = await citePipeline(tiered, null, h);
    const levels = r.claims.map((c) => c.confidence.level);
    assert.deepEqual(['HIGH', 'MEDIUM', 'LOW'].map((l) => levels.filter((x) => x === l).length), [6, 4, 3], 'more claims per tier than its bound');
    assert.ok(r.summary.llm_calls > 13 + 4, `${r.summary.llm_calls}`);
    assert.deepEqual(most(), [[5, 3, 2, 4], 10]);
    const one = countingHost([1, 1, 1, 1]);
    await citePipeline(tiered, { llm_calls: { max_in_flight: 1, max_in_flight_high: 1, max_in_flight_medium: 1, max_in_flight_low: 1 } }, one.host);
    assert.deepEqual(one.most(), [[1, 1, 1, 1], 3]);
  });

  test('each verify request names its claim\'s tier; transient failures retried', async () => {
    const seen = [];
    const claims = tiered.claims.slice(5, 11);
    const r = await citePipeline({ ...tiered, claims }, { enable_numeric_qa_verification: false }, {
      verify: async (x) => {
        seen.push(x);
        if (x.attempt === 1 && x.claim === 0) throw new Error('HTTP 503');
        return x.kind === 'cove_questions' ? 'What happened?' : 'Verdict: SUPPORTED';
      },
    });
    for (const x of seen) assert.equal(x.confidence, r.claims[x.claim].confidence.level);
    assert.deepEqual([...new Set(seen.map((x) => x.confidence))].sort(), ['HIGH', 'LOW', 'MEDIUM']);
    assert.equal(r.summary.retries, 1);
    assert.equal(r.summary.failed_calls, 0);
    assert.equal(r.claims[0].verdict, 'SUPPORTED');
  });

  test('an embed callback changes the evidence stage 1 selects', async () => {
    const zoo = {
      query: 'Which animals sleep in the park?',
      sources: [{ id: 'zoo', content: 'Animals sleep in the park at night, the keepers say. The zebra herd rests standing up near the east gate.' }],
      claims: [],
    };
    const cfg = {
      evidence_preselection: { relevance_computation_method: 'semantic', min_span_chars: 20 },
      interleaved_generation: { max_claims_per_section: 1 },
      enable_numeric_qa_verification: false,
    };
    const written = async (embed) => {
      const quotes = [];
      const r = await citePipeline(zoo, cfg, {
        generate: async (x) => { quotes.push(quoteOf(x.prompt)); return `CLAIM: ${quoteOf(x.prompt).split(' ').slice(0, 5).join(' ')}.`; },
        verify: () => 'Verdict: SUPPORTED',
        embed,
      });
      return [r, quotes];
    };
    let [r, quotes] = await written(undefined);
    assert.equal(r.relevance_method_used, 'keyword');
    assert.equal(quotes[0], 'Animals sleep in the park at night, the keepers say.');
    const calls = [];
    // the query and the zebra sentence on one axis, the rest on the other; asynchronous
    const embed = async (texts) => {
      calls.push(texts);
      return texts.map((t) => (t.includes('zebra') || t.startsWith('Which animals') ? [1, 0] : [0, 1]));
    };
    [r, quotes] = await written(embed);
    assert.equal(r.relevance_method_used, 'semantic');
    assert.equal(quotes[0], 'The zebra herd rests standing up near the east gate.');
    assert.equal(r.claims[0].text, 'The zebra herd rests standing.');
    assert.deepEqual(calls, [
      ['Animals sleep in the park at night, the keepers say.', 'The zebra herd rests standing up near the east gate.', 'Which animals sleep in the park?'],
      ['The zebra herd rests standing.'],
    ]);
    // citeStream takes it too
    const events = [];
    for await (const e of citeStream(zoo, cfg, { generate: (x) => `CLAIM: ${quoteOf(x.prompt)}`, embed })) events.push(e);
    assert.equal(events.at(-1).report.evidence_pool[0].quote, 'The zebra herd rests standing up near the east gate.');
    await assert.rejects(written(() => { throw new Error('no model'); }),
      (e) => e.code === 'PROCESSING_ERROR' && e.message.endsWith('the embed callback failed: no model'));
    await assert.rejects(citePipeline(zoo, cfg, { generate: () => '', embed: 3 }),
      (e) => e.code === 'CONFIGURATION_ERROR' && e.details.json_path === '$.embed');
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
