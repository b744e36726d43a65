// The `Document` class: find with text outside the BMP, CJK and typographic
// quotes returns UTF-16 offsets usable with String.prototype.slice; a
// Document reused for many validations gives the same report every time.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, validateEvidence } from 'evidence-validator';
import { assertSpan, claim } from './helpers.mjs';

const source = 'Intro 😀 line with an emoji.\n' +
  '日本語のテキストです。「引用」 and “curly quotes” here 👩‍👩‍👧 family.\n' +
  'The café’s “naïve” résumé — 100% of the time, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math letters.\n';

test('find returns UTF-16 offsets for emoji, CJK and curly quotes', () => {
  const doc = new Document(source, null);
  const quotes = [
    ['Intro 😀 line', 'Intro 😀 line'],
    ['日本語のテキスト', '日本語のテキスト'],
    ['「引用」', '「引用」'],
    // straight quotes in the quote, curly in the source
    ['and "curly quotes" here', 'and “curly quotes” here'],
    ['“curly quotes”', '“curly quotes”'],
    ['👩‍👩‍👧 family', '👩‍👩‍👧 family'],
    ['the café’s “naïve” résumé', 'The café’s “naïve” résumé'],
    ['math letters', 'math letters'],
  ];
  for (const [quote, expected] of quotes) {
    const found = doc.find(quote, null).matches;
    assert.ok(found.length >= 1, `no match for ${JSON.stringify(quote)}`);
    const m = found[0];
    assert.equal(m.matched_text, expected, quote);
    assert.equal(source.slice(m.utf16_start, m.utf16_end), m.matched_text, quote);
    assertSpan(source, m, m.matched_text, quote);
    assert.ok(m.utf16_end - m.utf16_start >= [...m.matched_text].length);
  }
  // A match after astral characters: UTF-16 offsets run ahead of code points.
  const [after] = doc.find('family', null).matches;
  assert.ok(after.utf16_start > after.start_position, 'UTF-16 offset counts surrogate pairs');
  assert.ok(after.byte_start > after.utf16_start, 'byte offset counts UTF-8 bytes');
  doc.free();
});

test('find: fuzzy matches, options, and no match', () => {
  const doc = new Document(source, null);
  const [fuzzy] = doc.find('The cafe’s “naïve” résumé', { maxEditDistance: 3 }).matches;
  assert.equal(fuzzy.match_type, 'fuzzy');
  assert.equal(fuzzy.edit_distance, 1);
  assertSpan(source, fuzzy, fuzzy.matched_text, 'fuzzy');
  assert.deepEqual(doc.find('The cafe’s “naïve” résumé', { maxEditDistance: 0 }).matches, []);
  assert.deepEqual(doc.find('INTRO 😀 LINE', { caseSensitive: true }).matches, []);
  assert.equal(doc.find('INTRO 😀 LINE', { caseSensitive: false }).matches.length, 1);
  assert.deepEqual(doc.find('nothing like this appears anywhere', null).matches, []);
  // options may be omitted
  assert.equal(doc.find('日本語').matches.length, 1);
});

test('a Document reused for many validate calls gives the same contentHash and report', () => {
  const doc = new Document(source, null);
  const claims = {
    claims: [
      claim({ id: 'EV001', quote: 'and "curly quotes" here 👩‍👩‍👧 family' }),
      claim({ id: 'EV002', quote: '日本語のテキストです' }),
      claim({ id: 'EV003', quote: 'a sentence that this document does not contain' }),
    ],
  };
  const first = doc.validate(claims, null);
  assert.equal(first.ok, true);
  assert.match(first.generated.contentHash, /^[0-9a-f]{64}$/);
  for (let i = 0; i < 50; i++) {
    // other work on the same document in between must not change the result
    doc.find('family', null);
    const again = doc.validate(claims, null);
    assert.equal(again.generated.contentHash, first.generated.contentHash, `call ${i}`);
  }
  const last = doc.validate(claims, null);
  last.generated.timestamp = first.generated.timestamp;
  assert.deepEqual(last, first);
  // and the one-shot function agrees
  assert.equal(validateEvidence(source, claims, null).generated.contentHash, first.generated.contentHash);
  doc.free();
});

test('format, metadata and sections', () => {
  const doc = new Document(source, null);
  assert.equal(doc.format, 'plain_text');
  const md = doc.metadata;
  assert.equal(md.format, 'plain_text');
  assert.equal(md.utf16_length, source.length);
  assert.equal(md.char_count, [...source].length);
  assert.equal(md.size_bytes, Buffer.byteLength(source));
  assert.ok(Array.isArray(doc.sections) && doc.sections.length >= 1);
  assert.equal(new Document('# Title\n\ntext\n', null).format, 'markdown');
  assert.equal(new Document('# Title\n\ntext\n', { format: 'plain_text' }).format, 'plain_text');
  assert.equal(new Document('<p>Hello <b>there</b></p>', null).format, 'html');
  doc.free();
});

test('a freed Document cannot be used', () => {
  const doc = new Document(source, null);
  doc.free();
  assert.throws(() => doc.find('family', null));
});

test('validate accepts a bare array of claims', () => {
  const doc = new Document(source, null);
  const report = doc.validate([claim({ quote: '日本語のテキストです' })], null);
  assert.equal(report.validated_claims[0].validation_status, 'VALIDATED');
  assertSpan(source, report.validated_claims[0].match_details, '日本語のテキストです', 'bare array');
});
