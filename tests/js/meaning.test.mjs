// The meaning guard (issue 12) through the npm package: a fuzzy match that
// changes a word, number or negation is never VALIDATED and its edits say
// what changed, with spans that slice the source; typos and typographic
// noise stay VALIDATED; Document.find marks substitution matches; a host
// embedding callback (sync or async) finds a paraphrase in other words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, validateEvidence, validateEvidenceAsync } from 'evidence-validator';
import { assertSpan } from './helpers.mjs';

const claim = (quote, evidence_type = 'direct_quote', id = 'EV001') =>
  ({ id, task_id: 'P1.T001', quote, evidence_type, confidence_threshold: 0.8 });
const one = (source, quote, type) => validateEvidence(source, { claims: [claim(quote, type)] }, null).validated_claims[0];

// emoji, CJK and curly quotes around the sentences: offsets are UTF-16
const source = '😀 前言。 The board said “his proposal” passed with 4 votes on 12 March.\n' +
  '日本語 The release 2.3.0 fixed the parser 🎉 and improved the import speed.\n';

test('a swapped word is refused with the words named and the span in UTF-16', () => {
  const r = one(source, 'The board said "her proposal" passed with 4 votes', 'direct_quote');
  assert.equal(r.validation_status, 'LOW_CONFIDENCE');
  const subs = r.match_details.edits.filter((e) => e.kind === 'substitution');
  assert.equal(subs.length, 1);
  assert.equal(subs[0].quote, 'her');
  assert.equal(subs[0].source, 'his');
  assert.equal(source.slice(subs[0].utf16_start, subs[0].utf16_end), 'his');
  assertSpan(source, r.match_details, r.match_details.matched_text, 'match');
});

test('numbers inside tokens and number words are refused as NUMBER_MISMATCH', () => {
  for (const quote of ['The release 2.3.1 fixed the parser', 'passed with 14 votes on 12 March', 'passed with 4 votes on 13 March']) {
    const report = validateEvidence(source, { claims: [claim(quote)] }, null);
    assert.notEqual(report.validated_claims[0].validation_status, 'VALIDATED', quote);
    assert.ok(report.warnings.some((w) => w.code === 'NUMBER_MISMATCH'), `${quote}: ${JSON.stringify(report.warnings)}`);
  }
});

test('a long number with its last digit changed is refused', () => {
  const src = '😀 crc = zlib.crc32(Buffer.from(\'world\', \'utf16le\'), crc);  // 4150509955\n';
  const report = validateEvidence(src, { claims: [claim("crc = zlib.crc32(Buffer.from('world', 'utf16le'), crc);  // 4150509954")] }, null);
  assert.equal(report.validated_claims[0].validation_status, 'LOW_CONFIDENCE');
  assert.ok(report.warnings.some((w) => w.code === 'NUMBER_MISMATCH'), JSON.stringify(report.warnings));
});

test("a markdown quote whose link goes elsewhere is refused as MARKUP_MISMATCH; the same link passes", () => {
  const md = '# Notes 😀\n\n前言 Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49849) for this release.\n';
  const claims = [
    claim('Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49850) for this release.', 'direct_quote', 'EV1'),
    claim('Contributed by Joyee Cheung in [#49849](https://github.com/nodejs/node/pull/49849) for this release.', 'direct_quote', 'EV2'),
  ];
  const report = validateEvidence(md, { source_metadata: { format: 'markdown' }, claims }, null);
  const [changed, same] = report.validated_claims;
  assert.equal(changed.validation_status, 'LOW_CONFIDENCE');
  assert.deepEqual(changed.match_details.discrepancies.find((d) => d.kind === 'markup').quote, ['https://github.com/nodejs/node/pull/49850']);
  assert.ok(report.warnings.some((w) => w.code === 'MARKUP_MISMATCH' && w.claim_id === 'EV1'));
  assert.equal(same.validation_status, 'VALIDATED');
  assertSpan(md, changed.match_details, changed.match_details.matched_text, 'match');
});

test('typos and typographic noise stay VALIDATED', () => {
  for (const quote of ['The release 2.3.0 fixed the parsre', 'the board said "his proposal" passed with 4 votes', 'improvd the import speed']) {
    const r = one(source, quote);
    assert.equal(r.validation_status, 'VALIDATED', `${quote}: ${JSON.stringify(r.match_details)}`);
  }
});

test('Document.find marks a match that changes the quote', () => {
  const doc = new Document(source, null);
  const [m] = doc.find('improved the export speed', { maxEditDistance: 3 }).matches;
  assert.equal(m.match_type, 'fuzzy');
  assert.equal(m.substitution, true);
  assert.ok(m.edits.some((e) => e.kind === 'substitution' && e.quote === 'export' && e.source === 'import'));
  const [typo] = doc.find('improved the imprt speed', { maxEditDistance: 3 }).matches;
  assert.equal(typo.substitution, false);
  assert.ok(typo.edits.some((e) => e.kind === 'typo'));
  doc.free();
});

// A scripted embedding model: counts of concepts from a synonym table.
const concepts = [['company', 'firm'], ['purchased', 'bought'], ['three', '3'], ['cars', 'automobiles'], ['warehouse', 'depot'], ['flooded', 'inundated']];
const embedOne = (text) => {
  const v = new Array(concepts.length + 1).fill(0);
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const i = concepts.findIndex((c) => c.includes(w));
    if (i >= 0) v[i] += 1; else v[concepts.length] += 0.05;
  }
  return v;
};
const story = 'Quarterly notes.\n\nThe company purchased three cars in March. Later the warehouse flooded.\n';
const config = { semantic_matching: { chunk_size: 60, overlap_size: 20 } };
const paraphrase = { claims: [claim('the firm bought 3 automobiles', 'paraphrase')] };

test('a paraphrase is found through a host embed callback', async () => {
  let calls = 0;
  const embed = (texts) => { calls += 1; return texts.map(embedOne); };
  const report = validateEvidence(story, paraphrase, config, { embed });
  const r = report.validated_claims[0];
  assert.equal(r.validation_status, 'VALIDATED', JSON.stringify(report));
  assert.equal(r.match_details.semantic_method, 'embedding');
  assert.ok(r.match_details.matched_text.includes('purchased three cars'));
  assert.equal(calls, 1);
  // the same through a Document, and through an async model
  const doc = new Document(story, null);
  assert.equal(doc.validate(paraphrase, config, { embed }).validated_claims[0].validation_status, 'VALIDATED');
  const asyncEmbed = async (texts) => texts.map((t) => Float32Array.from(embedOne(t)));
  const viaPromise = await doc.validateAsync(paraphrase, config, { embed: asyncEmbed });
  assert.equal(viaPromise.validated_claims[0].validation_status, 'VALIDATED');
  const top = await validateEvidenceAsync(story, paraphrase, config, { embed: asyncEmbed });
  assert.equal(top.validated_claims[0].match_details.semantic_method, 'embedding');
  // without the model, the lexical fallback does not find other words
  const lexical = validateEvidence(story, paraphrase, config);
  assert.notEqual(lexical.validated_claims[0].validation_status, 'VALIDATED');
  doc.free();
});

test('a bad embed callback is a typed error, and no claim is lost', async () => {
  assert.throws(() => validateEvidence(story, paraphrase, config, { embed: 42 }), (e) => e.code === 'CONFIGURATION_ERROR');
  assert.throws(() => validateEvidence(story, paraphrase, config, { embedd: () => [] }), (e) => e.code === 'CONFIGURATION_ERROR' && /embedd/.test(e.message));
  const throwing = validateEvidence(story, paraphrase, config, { embed: () => { throw new Error('model offline'); } });
  assert.equal(throwing.ok, false);
  assert.equal(throwing.errors[0].code, 'PROCESSING_ERROR');
  assert.match(throwing.errors[0].message, /model offline/);
  assert.equal(throwing.validated_claims.length, 1);
  const promised = validateEvidence(story, paraphrase, config, { embed: async () => [] });
  assert.match(promised.errors[0].message, /validateEvidenceAsync/);
  const garbage = validateEvidence(story, paraphrase, config, { embed: (texts) => texts.map(() => ['x']) });
  assert.match(garbage.errors[0].message, /non-number/);
  const rejected = await validateEvidenceAsync(story, paraphrase, config, { embed: async () => { throw new Error('quota'); } });
  assert.equal(rejected.ok, false);
  assert.match(rejected.errors[0].message, /quota/);
});
