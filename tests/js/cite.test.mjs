// The citation pipeline (spec 004 part 1) through the JS package: the
// numeric cases of tests/cases/cite_numeric.json (replayed by the Rust
// library and the CLI too), the sample input through `cite` with each
// toggle's fallback, the host embedding callback (synchronous through
// `cite`, asynchronous through `citeAsync`), the metrics, and typed errors
// for bad input.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cite, citeAsync, citeDefaultConfig, citeMetrics, citeNumeric } from 'evidence-validator';
import { readJson } from './helpers.mjs';

const numericCases = readJson('tests/cases/cite_numeric.json').cases;
const sample = readJson('samples/cite-input.json');

const throwsCode = (f, code, path) => {
  assert.throws(f, (e) => {
    assert.equal(e.name, 'EvidenceValidatorError');
    assert.equal(e.code, code);
    if (path) assert.equal(e.details.json_path, path);
    return true;
  });
};

describe('citeNumeric replays tests/cases/cite_numeric.json', () => {
  assert.ok(numericCases.length >= 8);
  for (const c of numericCases) {
    test(c.name, () => {
      const r = citeNumeric(c.claim, c.evidence, c.config ?? null);
      assert.equal(r.verdict, c.verdict);
      assert.equal(r.match_score, c.match_score);
      if (c.claim_value !== undefined) assert.equal(r.claim.normalized_value, c.claim_value);
      if (c.claim_unit !== undefined) assert.equal(r.claim.unit, c.claim_unit);
      if (c.evidence_unit !== undefined) assert.equal(r.evidence.unit, c.evidence_unit);
      if (c.mismatch !== undefined) assert.equal(r.mismatches[0].field, c.mismatch);
      // the claim's number is where it says, in UTF-16 units
      const p = r.claim.position;
      assert.equal(c.claim.slice(p.utf16_start, p.utf16_end), r.claim.raw_value);
    });
  }
});

describe('cite', () => {
  test('the sample: stages 1, 3, 5 and 6', () => {
    const r = cite(sample);
    assert.equal(r.relevance_method_used, 'keyword');
    assert.ok(r.evidence_pool[0].quote.startsWith('Acme Corp reported Q4 2024 revenues'));
    for (const s of r.evidence_pool) {
      const content = sample.sources.find((x) => x.id === s.source_id).content;
      assert.equal(content.slice(s.position.utf16_start, s.position.utf16_end), s.quote);
      assert.equal([...content].slice(s.position.start, s.position.end).join(''), s.quote);
    }
    assert.deepEqual(r.claims.map((c) => c.correction.action), ['REPLACE', 'KEEP', 'KEEP', 'REMOVE']);
    assert.equal(r.claims[0].numeric.verdict, 'SUPPORTED');
    assert.equal(r.claims[1].confidence.level, 'HIGH');
    assert.equal(r.claims[2].numeric.verdict, 'CONTRADICTED');
  });

  test('each toggle off falls back as Appendix B says', () => {
    const off = (key) => cite(sample, { [key]: false });
    const whole = off('enable_evidence_preselection');
    assert.equal(whole.evidence_pool.length, sample.sources.length);
    assert.ok(whole.evidence_pool.every((s) => s.relevance_score === 1 && s.quote === sample.sources.find((x) => x.id === s.source_id).content));
    assert.ok(off('enable_confidence_classification').claims.every((c) => c.confidence.level === 'LOW' && c.confidence.score === 0.3 && !c.confidence.classified));
    assert.ok(off('enable_citation_correction').claims.every((c) => c.correction.action === 'KEEP'));
    assert.equal(off('enable_numeric_qa_verification').claims[2].numeric.method, 'text');
  });

  test('the host embedding callback ranks spans (semantic) and joins the keyword score (hybrid corrector)', () => {
    const seen = [];
    const embed = (texts) => {
      seen.push(texts.length);
      return texts.map((t) => [t.includes('revenue') ? 1 : 0, 1]);
    };
    const r = cite(sample, { evidence_preselection: { relevance_computation_method: 'semantic' } }, { embed });
    assert.equal(r.relevance_method_used, 'semantic');
    assert.equal(r.correction_method_used, 'keyword_semantic_hybrid');
    assert.ok(seen.length >= 1);
    throwsCode(() => cite(sample, null, { embed: () => { throw new Error('model offline'); } }), 'PROCESSING_ERROR');
  });

  test('bad input and configuration are typed errors with their path', () => {
    throwsCode(() => cite({ ...sample, claims: [{ text: 'x', citations: ['nope'] }] }), 'VALIDATION_ERROR', '$.claims[0].citations[0]');
    throwsCode(() => cite({ query: 'q', sources: [{ id: 'a' }], claims: [] }), 'VALIDATION_ERROR', '$.sources[0].content');
    throwsCode(() => cite(sample, { citation_correction: { lamda_weight: 0.5 } }), 'CONFIGURATION_ERROR', '$.citation_correction.lamda_weight');
    throwsCode(() => cite(sample, { evidence_preselection: { relevance_computation_method: 'magic' } }), 'CONFIGURATION_ERROR', '$.evidence_preselection.relevance_computation_method');
    throwsCode(() => citeNumeric('no number', '5'), 'VALIDATION_ERROR', '$.claim');
  });
});

describe('citeAsync', () => {
  // a deterministic embedding: letter counts of a few letters, plus one
  const vectors = (texts) => texts.map((t) => [...'aeiorstn'].map((l) => 1 + t.split(l).length - 1));
  const configs = [
    null,
    { evidence_preselection: { relevance_computation_method: 'semantic' } },
    { evidence_preselection: { relevance_computation_method: 'keyword' } },
    { enable_evidence_preselection: false },
  ];

  for (const config of configs) {
    test(`an asynchronous embed gives what cite gives with the same embed, synchronously (${JSON.stringify(config)})`, async () => {
      const asked = [];
      const embed = async (texts) => {
        asked.push(texts);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return vectors(texts);
      };
      const r = await citeAsync(sample, config, { embed });
      assert.deepEqual(r, cite(sample, config, { embed: vectors }));
      assert.equal(asked.length, 1, 'embed is asked once');
      assert.equal(new Set(asked[0]).size, asked[0].length, 'each text once');
      assert.ok(asked[0].includes(sample.claims[0].text), 'the claims are embedded');
      assert.equal(r.correction_method_used, 'keyword_semantic_hybrid');
    });
  }

  test('without embed it is cite without embed', async () => {
    assert.deepEqual(await citeAsync(sample), cite(sample));
  });

  const rejectsCode = async (p, code, message) => {
    await assert.rejects(p, (e) => {
      assert.equal(e.name, 'EvidenceValidatorError');
      assert.equal(e.code, code);
      assert.match(e.message, message);
      return true;
    });
  };

  test('a rejecting or throwing embed rejects with a typed error naming embed', async () => {
    await rejectsCode(citeAsync(sample, null, { embed: async () => { throw new Error('model offline'); } }), 'PROCESSING_ERROR', /embed callback failed: model offline/);
    await rejectsCode(citeAsync(sample, null, { embed: () => { throw new Error('no key'); } }), 'PROCESSING_ERROR', /embed callback failed: no key/);
  });

  test('a wrong number of vectors is a typed error', async () => {
    let n = 0;
    const embed = async (texts) => {
      n = texts.length;
      return vectors(texts).slice(1);
    };
    await rejectsCode(citeAsync(sample, null, { embed }), 'PROCESSING_ERROR', /embed callback returned \d+ vectors for \d+ texts/);
    assert.ok(n > 1);
  });

  test('bad input rejects with its path; cite with a Promise-returning embed points to citeAsync', async () => {
    await rejectsCode(citeAsync({ ...sample, claims: [{ text: 'x', citations: ['nope'] }] }), 'VALIDATION_ERROR', /unknown|nope|source/);
    await rejectsCode(citeAsync(sample, null, { embed: vectors, extra: 1 }), 'CONFIGURATION_ERROR', /unknown option/);
    throwsCode(() => cite(sample, null, { embed: async (texts) => vectors(texts) }), 'PROCESSING_ERROR');
    assert.throws(() => cite(sample, null, { embed: async (texts) => vectors(texts) }), /use citeAsync for an asynchronous embed/);
  });
});

test('citeMetrics: hand-computed values', () => {
  const m = citeMetrics({
    ranking: { relevance: [[2, 0, 1], [0, 0, 1]], k: 2 },
    binary: { y_true: [0, 0, 1, 1], y_score: [0.1, 0.4, 0.35, 0.8] },
    raters: { a: [1, 1, 0, 0], b: [1, 0, 0, 0] },
    citations: { predicted: [['s1'], ['s2', 's3']], gold: [['s1'], ['s3']] },
  });
  assert.equal(m.precision_at_k, 0.25);
  assert.equal(m.auroc, 0.75);
  assert.equal(m.cohen_kappa, 0.5);
  assert.equal(m.citation_precision, 2 / 3);
  assert.equal(m.citation_recall, 1);
  assert.equal(m.macro_f1, undefined, 'only the parts given');
  throwsCode(() => citeMetrics({ binary: { y_true: [1, 1], y_score: [0.1, 0.2] } }), 'VALIDATION_ERROR', '$.binary.y_true');
  assert.equal(citeDefaultConfig().numeric_qa_verification.rounding_tolerance, 0.05);
});
