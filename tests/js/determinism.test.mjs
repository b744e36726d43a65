// Same input, same bytes (issue 20): a corpus of the spec cases
// (tests/cases/*.json), the bundled sample and generated hostile inputs
// (emoji with ZWJ and skin tones, CJK, combining marks, curly quotes,
// ligatures, NBSP, soft hyphens, right-to-left text, CRLF, huge repeats)
// goes through the native CLI and through the npm package's wasm in Node.
// The reports are compared as bytes, the timestamp aside: both are written
// in one canonical form (keys sorted, numbers in their shortest round-trip
// form, so equal bytes mean equal f64 bits). The CLI is also run twice and
// its raw stdout compared byte for byte, and so is the package's JSON.
// `validate` has no threads (the judge's juror threads are compared in
// tests/judge_threads.rs), so there are no thread counts to vary here.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { promisify } from 'node:util';
import { validateEvidence } from 'evidence-validator';
import { readJson, readText, root } from './helpers.mjs';

const run = promisify(execFile);
let cli;

before(async () => {
  // The binary needs the `cli` feature; its path comes from cargo itself.
  const { stdout } = await run('cargo', ['build', '--quiet', '--features', 'cli', '--bin', 'evidence-validator', '--message-format=json'],
    { cwd: root, maxBuffer: 256 << 20 });
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line);
    if (m.reason === 'compiler-artifact' && m.executable && m.target?.name === 'evidence-validator') cli = m.executable;
  }
  assert.ok(cli, 'cargo build did not name the evidence-validator binary');
}, { timeout: 20 * 60 * 1000 });

/** JSON with sorted keys: one form for both sides. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** A small deterministic PRNG (xorshift32), so the corpus is the same every run. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

const PIECES = ['Revenue', 'grew', '15%', 'to', '$3.2', 'billion', 'in', 'Q3', 'not', 'the', 'system', 'must',
  '😀', '👍🏽', '👨\u200D👩\u200D👧', '中文', '発表', '한국어', 'café', 'cafe\u0301', 'e\u0301\u0327', '\u201Cquoted\u201D',
  'it\u2019s', '\uFB01nal', 'co\u00ADoperate', 'OAuth\u00A02.0', 'مرحبا', 'שלום', 'x\u2026', '**bold**', '<b>tag</b>', '&amp;'];
const SEPARATORS = [' ', ' ', ' ', '  ', '\r\n', '\n', '\t', ', ', '. ', '\r\n\r\n# Heading\r\n\r\n'];

/** Generated hostile cases: a source from the pieces, and claims taken from it (exact, retyped, one word changed, absent). */
function hostile() {
  const out = [];
  for (let seed = 1; seed <= 16; seed++) {
    const r = rng(seed * 7919);
    const words = [];
    const n = 20 + r(200);
    for (let i = 0; i < n; i++) words.push(PIECES[r(PIECES.length)] + SEPARATORS[r(SEPARATORS.length)]);
    const source = words.join('');
    const claims = [];
    for (let c = 0; c < 5; c++) {
      const a = r(words.length);
      const b = Math.min(words.length, a + 3 + r(10));
      let quote = words.slice(a, b).join('').trim();
      if (c === 1) quote = quote.toLowerCase().replace(/[\u201C\u201D]/g, '"').replace(/\u2019/g, "'");
      if (c === 2) quote = quote.replace(/15%/g, '16%').replace(/grew/g, 'fell');
      if (c === 3) quote = 'Nothing like this is written anywhere in the source text';
      claims.push({ id: `EV${c}`, task_id: 'P1.T001', quote: quote.length >= 10 ? quote : `${quote} padding words`,
        evidence_type: ['direct_quote', 'paraphrase', 'concept_reference'][c % 3] });
    }
    const config = seed % 2 ? null : { fuzzy_matching: { enabled: true, max_edit_distance: seed % 5 } };
    out.push({ name: `hostile ${seed}`, source, claims: { claims }, config });
  }
  // huge repeats: many occurrences of one quote, and one long line
  const line = 'the cat sat on the mat. ';
  out.push({ name: 'huge repeat', source: line.repeat(6000) + 'the cat sat on the hat.\r\n',
    claims: { claims: [{ id: 'EV1', task_id: 'P1.T001', quote: 'the cat sat on the hat', evidence_type: 'direct_quote' },
      { id: 'EV2', task_id: 'P1.T001', quote: 'the cat sat on the mat', evidence_type: 'direct_quote' }] }, config: null });
  out.push({ name: 'one long run', source: '😀'.repeat(3000) + 'a'.repeat(40000),
    claims: { claims: [{ id: 'EV1', task_id: 'P1.T001', quote: 'a'.repeat(64), evidence_type: 'direct_quote' },
      { id: 'EV2', task_id: 'P1.T001', quote: '😀'.repeat(12) + 'ab', evidence_type: 'paraphrase' }] }, config: null });
  return out;
}

function corpus() {
  const spec = readJson('tests/cases/validate_evidence.json')
    .map((c) => ({ name: c.name, source: c.source, claims: c.claims, config: null }));
  const hashes = readJson('tests/cases/content_hash.json').entries
    .map((e) => ({ name: `content_hash: ${e.name}`, source: e.source, claims: e.claims, config: e.config ?? null }));
  const sample = { name: 'bundled sample', source: readText('samples/incident-review.md'), claims: readJson('samples/claims.json'), config: null };
  return [...spec, ...hashes, sample, ...hostile()];
}

const TIMESTAMP = /"timestamp": "[^"]*"/;

async function native(dir, c) {
  const src = path.join(dir, 'source');
  const ev = path.join(dir, 'claims.json');
  fs.writeFileSync(src, c.source);
  fs.writeFileSync(ev, JSON.stringify(c.claims));
  const args = ['validate', '--source', src, '--evidence', ev];
  if (c.config) {
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(c.config));
    args.push('--config', path.join(dir, 'config.json'));
  }
  try {
    const { stdout } = await run(cli, args, { maxBuffer: 256 << 20 });
    return { stdout };
  } catch (e) {
    return { failed: e.code, stderr: String(e.stderr) };
  }
}

test('the CLI and the npm package give the same bytes on every case, twice', { timeout: 10 * 60 * 1000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-determinism-'));
  const cases = corpus();
  assert.ok(cases.length >= 36, `${cases.length} cases`);
  let compared = 0;
  try {
    for (const c of cases) {
      const first = await native(dir, c);
      const second = await native(dir, c);
      let wasm;
      let wasmError;
      try {
        wasm = validateEvidence(c.source, c.claims, c.config);
      } catch (e) {
        wasmError = e;
      }
      if (wasmError || first.failed !== undefined) {
        assert.ok(wasmError && first.failed !== undefined,
          `[${c.name}] one side failed: wasm ${wasmError?.message}, CLI ${first.stderr}`);
        // the same typed error, word for word
        assert.ok(first.stderr.includes(wasmError.message), `[${c.name}] wasm: ${wasmError.message}; CLI: ${first.stderr}`);
        continue;
      }
      // two native runs: the raw bytes, timestamp masked
      assert.equal(second.stdout.replace(TIMESTAMP, ''), first.stdout.replace(TIMESTAMP, ''), `[${c.name}] two CLI runs differ`);
      const nativeReport = JSON.parse(first.stdout);
      assert.match(nativeReport.generated.contentHash, /^[0-9a-f]{64}$/);
      wasm.generated.timestamp = nativeReport.generated.timestamp;
      const a = canonical(nativeReport);
      const b = canonical(wasm);
      if (a !== b) {
        let i = 0;
        while (a[i] === b[i]) i++;
        assert.fail(`[${c.name}] native and wasm differ at byte ${i}: native …${a.slice(i - 60, i + 60)}… wasm …${b.slice(i - 60, i + 60)}…`);
      }
      // two wasm runs
      const again = validateEvidence(c.source, c.claims, c.config);
      again.generated.timestamp = wasm.generated.timestamp;
      assert.equal(canonical(again), b, `[${c.name}] two wasm runs differ`);
      compared++;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(compared >= 30, `only ${compared} reports compared`);
});
