// The judge (spec 002) and findings (spec 003) through the npm package:
// the scripted juries of tests/data/judge/jury.json with JS judge functions
// (resolving, rejecting, throwing, hanging past the timeout, answering
// garbage), the log callback, verifyReport, and the spec 003 cases and
// citation-laundering attacks of tests/data/judge/findings.json (the same
// data the Rust tests replay).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Finding, verifyClaim, verifyReport, verifyFinding, checkClaim, judgePrompt, juryInstructions,
  quoteScore, normalizeJudgeText, parseJudgeAnswer, parseCitations,
} from 'evidence-validator';
import { readJson, assertThrowsCode } from './helpers.mjs';

const jury = readJson('tests/data/judge/jury.json');
const findings = readJson('tests/data/judge/findings.json');

const delay = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));

/** A case's request (overrides applied) in the JS API's form. */
function requestOf(c) {
  const r = { ...jury.request, source: jury.source, ...(c.request ?? {}) };
  return r;
}

/** JS judge functions for a case's scripted answers; errors alternate between throwing and rejecting. */
function judgesOf(c, calls) {
  const judges = {};
  c.answers.forEach((a, i) => {
    judges[a.judge] = (prompt, context) => {
      calls.push({ judge: a.judge, prompt, context });
      if ('answer' in a) return delay(5 + i, a.answer);
      if ('error' in a) {
        if (i % 2 === 0) throw new Error(a.error);
        return delay(5).then(() => Promise.reject(new Error(a.error)));
      }
      return new Promise(() => {}); // hangs forever
    };
  });
  return judges;
}

function checkExpect(c, r) {
  const e = c.expect;
  const where = `[${c.name}] ${JSON.stringify(r)}`;
  if (e.verdict) assert.equal(r.verdict, e.verdict, where);
  if (e.semantic_verdict) assert.equal(r.step_3_semantic?.verdict, e.semantic_verdict, where);
  if (e.reason_starts_with) assert.ok(r.step_3_semantic.reason.startsWith(e.reason_starts_with), where);
  if (e.reason_contains) assert.ok(r.step_3_semantic.reason.includes(e.reason_contains), where);
  if ('answered' in e) assert.equal(r.jury.answered, e.answered, where);
  if ('failed' in e) assert.equal(r.jury.failed, e.failed, where);
  if ('abstained' in e) {
    assert.equal(r.jury.abstained, e.abstained, where);
    assert.equal(r.jury.votes.filter((v) => v.abstained).length, e.abstained, where);
  }
  if ('verified' in e) assert.equal(r.verified, e.verified, where);
  if ('convened' in e) assert.equal(r.jury.convened, e.convened, where);
  if ('step_1_existence' in e) assert.equal(r.step_1_existence, e.step_1_existence, where);
  if ('step_2_quote_match' in e) assert.equal(r.step_2_quote_match, e.step_2_quote_match, where);
  if (e.error_contains) assert.ok(r.error.includes(e.error_contains), where);
  for (const [judge, part] of Object.entries(e.errors_contain ?? {})) {
    const vote = r.jury.votes.find((v) => v.judge === judge);
    assert.ok(vote?.error?.includes(part), `${where}: error of ${judge}`);
  }
}

for (const c of jury.cases) {
  test(`jury: ${c.name}`, async () => {
    const calls = [];
    const logs = [];
    const t0 = Date.now();
    const r = await verifyClaim(requestOf(c), { judges: judgesOf(c, calls), timeoutMs: 150, log: (e) => logs.push(e) });
    assert.ok(Date.now() - t0 < 2000, 'bounded by the timeout');
    checkExpect(c, r);
    if (r.jury.convened) {
      assert.equal(calls.length, c.answers.length, 'every juror asked once');
      for (const call of calls) {
        assert.ok(call.prompt.startsWith('SOURCE FILE: minutes.txt\nCITED LINES: L'), call.prompt);
        assert.equal(call.context.system, juryInstructions());
        assert.equal(call.context.judge, call.judge);
      }
      assert.deepEqual(logs.map((l) => l.file_name), c.answers.map((a) => `${a.judge}_0001.txt`));
      for (const l of logs) {
        assert.equal(l.report, 'judge');
        assert.ok(l.text.includes(`=== PROMPT ===\n${l.prompt}\n\n=== RESPONSE ===\n`));
        assert.ok((l.response === null) !== (l.error === null));
      }
    } else {
      assert.equal(calls.length, 0);
      assert.equal(logs.length, 0);
    }
  });
}

test('jurors are asked at once, each with its own timeout', async () => {
  const c = jury.cases[0];
  const t0 = Date.now();
  const r = await verifyClaim(requestOf(c), {
    judges: [
      { name: 'a', ask: () => delay(300, 'VALID') },
      { name: 'b', ask: () => delay(300, 'VALID') },
      { name: 'c', ask: () => delay(300, 'VALID') },
      { name: 'patient', ask: () => delay(400, 'VALID'), timeoutMs: 2000 },
      { name: 'strict', ask: () => delay(400, 'VALID'), timeoutMs: 50 },
    ],
    timeoutMs: 350,
  });
  assert.ok(Date.now() - t0 < 900, `took ${Date.now() - t0} ms: not concurrent`);
  assert.equal(r.jury.answered, 4);
  assert.equal(r.jury.votes[4].error, 'timed out after 50 ms');
  assert.equal(r.step_3_semantic.reason.startsWith('Consensus (4/4): VALID'), true);
});

test('judges may return objects, and a throwing log callback does not fail the check', async () => {
  const r = await verifyClaim(requestOf(jury.cases[0]), {
    judges: { obj: async () => ({ verdict: 'UNSUPPORTED', reason: 'No.' }), undef: async () => undefined },
    log: () => { throw new Error('disk full'); },
  });
  assert.equal(r.verdict, 'UNSUPPORTED');
  assert.equal(r.jury.votes[1].error, 'the judge returned no text');
});

test('bad requests and options reject with EvidenceValidatorError', async () => {
  const base = requestOf(jury.cases[0]);
  const rejects = async (p, code) => {
    await assert.rejects(p, (e) => e.name === 'EvidenceValidatorError' && e.code === code);
  };
  await rejects(verifyClaim({ ...base, start_line: undefined }), 'VALIDATION_ERROR');
  await rejects(verifyClaim({ ...base, extra: 1 }), 'VALIDATION_ERROR');
  await rejects(verifyClaim(base, { judges: { a: 'not a function' } }), 'CONFIGURATION_ERROR');
  await rejects(verifyClaim(base, { judges: [{ name: 'a', ask: () => 'VALID' }, { name: 'a', ask: () => 'VALID' }] }), 'CONFIGURATION_ERROR');
  await rejects(verifyClaim(base, { threshold: 2 }), 'CONFIGURATION_ERROR');
  await rejects(verifyClaim(base, { timeoutMs: 0 }), 'CONFIGURATION_ERROR');
  await rejects(verifyClaim(base, { colour: 'red' }), 'CONFIGURATION_ERROR');
  await rejects(verifyReport('x', 'not sources'), 'CONFIGURATION_ERROR');
  assertThrowsCode(() => checkClaim({ ...base, lines: 'L7-' , start_line: undefined, end_line: undefined }), 'VALIDATION_ERROR');
  assertThrowsCode(() => parseJudgeAnswer('lorem ipsum'), 'VALIDATION_ERROR');
});

test('a quote that bends the cited text fails step 2 whatever the jury says', async () => {
  const base = requestOf(jury.cases[0]);
  // the spec's score passes it (the longest block is 74 of 79 characters)
  const bent = { ...base, quote: 'the committee approved the budget with a narrow majority of five votes to three' };
  const r = checkClaim(bent);
  assert.ok(r.quote_score >= 0.8, String(r.quote_score));
  assert.equal(r.step_2_quote_match, false);
  assert.equal(r.verdict, 'QUOTE_NOT_FOUND');
  assert.deepEqual(r.quote_changes, [{ change: 'number', reason: 'number', quote: 'three', source: 'four', line: 7 }]);
  const voted = await verifyClaim(bent, { judges: { a: () => '{"verdict": "VALID", "reason": "It says so."}' } });
  assert.equal(voted.step_3_semantic.verdict, 'VALID');
  assert.equal(voted.verdict, 'QUOTE_NOT_FOUND');
  assert.equal(voted.verified, false);
  // a misspelling is not a change, and a verbatim quote has no key
  const typo = checkClaim({ ...base, quote: 'the committee approved the budget with a narrow majority of five votes to fuor' });
  assert.ok(typo.quote_score < 1 && typo.step_2_quote_match, JSON.stringify(typo.quote_changes));
  assert.equal('quote_changes' in checkClaim(base), false);
  assert.equal(r.quote_lines, 'L6-L7');
  const found = checkClaim(base);
  assert.equal(found.quote_lines, 'L6-L7');
  assert.equal(found.quote_outside_cited_lines, false);
  // cited two lines too late: found in the context before them
  const late = checkClaim({ ...base, start_line: 8, end_line: 9 });
  assert.equal(late.step_2_quote_match, true);
  assert.equal(late.quote_lines, 'L6-L7');
  assert.equal(late.quote_outside_cited_lines, true);
  // the spec's score alone, when asked for
  const scoreOnly = checkClaim(bent, { compareWords: false });
  assert.equal(scoreOnly.step_2_quote_match, true);
  assert.equal(scoreOnly.verdict, 'JURY_NOT_CONVENED');
  assert.equal('quote_changes' in scoreOnly, false);
});

test('steps 1 and 2 alone, the prompt, the score', () => {
  const base = requestOf(jury.cases[0]);
  const r = checkClaim({ ...base, start_line: undefined, end_line: undefined, lines: 'L6-L7' });
  assert.equal(r.verdict, 'JURY_NOT_CONVENED');
  assert.equal(r.quote_score, 1);
  assert.equal(r.cited_lines, 'L6-L7');
  assert.equal(r.context.context_before.split('\n').length, 5);
  assert.equal(checkClaim({ ...base, source: null }).verdict, 'FILE_NOT_FOUND');
  const p = judgePrompt(base);
  assert.ok(p.prompt.startsWith('SOURCE FILE: minutes.txt\nCITED LINES: L6-L7\n\nCONTEXT BEFORE:\n[L1] [L1] City council'));
  assert.ok(p.prompt.endsWith(`\n\nCLAIM BEING MADE: ${base.claim}\nQUOTE USED: ${base.quote}`));
  assert.equal(p.system, juryInstructions());
  assert.equal(normalizeJudgeText('  [L12] The  QUICK\n fox '), 'the quick fox');
  // CPython: SequenceMatcher(None, 'abcdefghij', 'abcdefgh--').find_longest_match(...).size / 10
  assert.equal(quoteScore('abcdefghij', 'abcdefgh--'), 0.8);
  const area = 'the city council met on tuesday evening to discuss the proposed budget for the next fiscal year. after a long debate about the cost of the new bridge over the river, the committee approved the budget with a narrow majority of five votes to four. the mayor said the vote showed that the council could still work together on hard questions.';
  assert.equal(quoteScore('city council met on', area), 1);
  assert.equal(quoteScore('city council met on', area, true), 0); // CPython with autojunk=True
  assert.deepEqual(parseJudgeAnswer('Verdict: **INSUFFICIENT**'), {
    verdict: 'INSUFFICIENT', substantive_quote: false, quote_in_context: true, supports_claim: false, reason: 'Verdict: **INSUFFICIENT**',
  });
});

test('verifyReport: every citation, sources as a map or a function, logs numbered per juror', async () => {
  const quote = jury.request.quote;
  const report = `# Council\n\nThe budget passed: "${quote}" [minutes.txt:L6-L7](data/canonical/minutes.txt). ` +
    'The mayor resigned [minutes.txt:L8](data/canonical/minutes.txt).\n\n- Fees doubled [fees.txt:L1](fees.txt)\n';
  assert.equal(parseCitations(report).length, 3);
  const logs = [];
  const r = await verifyReport(report, { 'minutes.txt': jury.source }, {
    judges: { local: async () => 'VALID' }, log: (e) => logs.push(e), reportName: 'council',
  });
  assert.equal(r.report, 'council');
  assert.equal(r.summary.total, 3);
  assert.equal(r.summary.verified, 1);
  assert.equal(r.summary.verification_rate, 1 / 3);
  assert.deepEqual(r.summary.verdicts, { VALID: 1, QUOTE_NOT_FOUND: 1, FILE_NOT_FOUND: 1 });
  assert.deepEqual(logs.map((l) => [l.report, l.file_name]), [['council', 'local_0001.txt'], ['council', 'local_0002.txt']]);
  assert.ok(r.markdown.includes('**1 of 3 citations verified (33.3 %).**'));
  assert.equal(r.results[2].resolved_file, null);

  const seen = [];
  const viaFunction = await verifyReport(report, async (c) => { seen.push(c.file); return c.file === 'minutes.txt' ? jury.source : null; });
  assert.deepEqual(seen, ['minutes.txt', 'minutes.txt', 'fees.txt']);
  assert.equal(viaFunction.summary.jury_convened, false);
  assert.deepEqual(viaFunction.summary.verdicts, { JURY_NOT_CONVENED: 1, QUOTE_NOT_FOUND: 1, FILE_NOT_FOUND: 1 });
});

test('verifyReport: citations with bad ranges are reported, not skipped (issue 13)', async () => {
  const quote = jury.request.quote;
  const report = '# R\n\nBackwards [minutes.txt:L7-L5](minutes.txt).\nZero [minutes.txt:L0](minutes.txt).\n' +
    'Huge [minutes.txt:L99999999999999999999999](minutes.txt).\n\n' +
    `The budget passed: "${quote}" [minutes.txt:L6-L7](minutes.txt).\n`;
  assert.equal(parseCitations(report).length, 1, 'parseCitations lists the checkable ones');
  const asked = [];
  const r = await verifyReport(report, { 'minutes.txt': jury.source }, { judges: { local: async (p) => { asked.push(p); return 'VALID'; } } });
  assert.equal(asked.length, 1, 'invalid citations are not judged');
  assert.equal(r.summary.total, 1);
  assert.equal(r.summary.verified, 1);
  assert.equal(r.summary.invalid, 3);
  assert.equal(r.summary.verification_rate, 0.25);
  assert.deepEqual(r.invalid_citations.map((c) => [c.report_line, c.range, c.problem.replace(/ \(at most \d+\)/, '')]), [
    [3, 'L7-L5', 'start line 7 is after end line 5'],
    [4, 'L0', 'line numbers start at 1 (got L0)'],
    [5, 'L99999999999999999999999', 'line number 99999999999999999999999 is too large'],
  ]);
  assert.equal(report.slice(r.invalid_citations[0].byte_offset).startsWith(r.invalid_citations[0].markdown), true);
  assert.ok(r.markdown.includes('3 citation(s) have an invalid line range'), r.markdown);
  // all bad: nothing verified, every one listed; a later call still works
  const bad = await verifyReport('[a.txt:L3-L1](a) [b.txt:L0](b)', {});
  assert.deepEqual([bad.summary.total, bad.summary.invalid, bad.summary.verification_rate], [0, 2, 0]);
  const clean = await verifyReport(`Passed: "${quote}" [minutes.txt:L6-L7](m).`, { 'minutes.txt': jury.source });
  assert.deepEqual([clean.summary.invalid, clean.invalid_citations], [0, []]);
});

test('parseCitations over 20,000 citations reads every one (was quadratic: 87 s for 2000)', () => {
  const n = 20000;
  let md = '';
  for (let k = 0; k < n; k++) {
    md += `Claim ${k} says "value ${k}" [f${k % 5}.txt:L${k + 1}-L${k + 2}](f.txt). `;
    if (k % 50 === 49) md += '\n\n```\n[x.txt:L1](x)\n```\n\n';
  }
  const cs = parseCitations(md);
  assert.equal(cs.length, n);
  cs.forEach((c, k) => {
    assert.equal(c.claim, `Claim ${k} says "value ${k}"`);
    assert.equal(c.quote, `value ${k}`);
    assert.equal(c.file, `f${k % 5}.txt`);
    assert.equal(c.start_line, k + 1);
    assert.equal(c.report_line, 1 + 6 * Math.floor(k / 50));
  });
  assert.equal(parseCitations('A [a.txt:L1](a).').length, 1, 'a later call still works');
});

test('answers: the last explicit verdict, outside reasoning blocks; none is an abstention', async () => {
  assert.equal(parseJudgeAnswer('VALID? No. UNSUPPORTED.').verdict, 'UNSUPPORTED');
  assert.equal(parseJudgeAnswer('<think>VALID or MISLEADING?</think>\nVerdict: MISLEADING').verdict, 'MISLEADING');
  assert.equal(parseJudgeAnswer('it looks VALID</think> INSUFFICIENT').verdict, 'INSUFFICIENT');
  assertThrowsCode(() => parseJudgeAnswer('<think>surely VALID'), 'VALIDATION_ERROR');
  assertThrowsCode(() => parseJudgeAnswer('VALID or MISLEADING'), 'VALIDATION_ERROR');
  const r = await verifyClaim(requestOf(jury.cases[0]), {
    judges: { a: async () => '<think>It is VALID, I think</think>', b: async () => 'VALID? No. UNSUPPORTED.' },
  });
  assert.equal(r.verdict, 'UNSUPPORTED');
  assert.deepEqual([r.jury.answered, r.jury.failed, r.jury.abstained], [1, 1, 1]);
  assert.deepEqual(r.jury.votes.map((v) => v.abstained), [true, false]);
  assert.ok(r.jury.votes[0].error.startsWith('abstained: '), r.jury.votes[0].error);
  assert.ok(r.step_3_semantic.reason.includes('1 abstained: a'), r.step_3_semantic.reason);
  assert.equal(parseJudgeAnswer('VALID').verdict, 'VALID', 'a later call still works');
});

/** A case's finding, as the Rust test builds it (HASH_OF:<text> expanded). */
function findingOf(c) {
  const fields = { ...c.finding };
  if (typeof fields.extraction_span_hash === 'string' && fields.extraction_span_hash.startsWith('HASH_OF:')) {
    fields.extraction_span_hash = Finding.computeHash(fields.extraction_span_hash.slice('HASH_OF:'.length));
  }
  const create = c.create_with_hash ?? !('extraction_span_hash' in fields);
  return create ? Finding.createWithHash(fields) : new Finding(fields);
}

for (const c of findings.validation) {
  test(`Finding.validate: ${c.name}`, () => {
    const f = findingOf(c);
    if (c.error === null) {
      f.validate();
      return;
    }
    const e = assertThrowsCode(() => f.validate(), 'VALIDATION_ERROR');
    assert.ok(e.message.includes(c.error), `${e.message} should contain ${c.error}`);
    if (c.exact) assert.equal(e.message, `VALIDATION_ERROR: ${c.error}`);
  });
}

for (const c of findings.verification) {
  test(`verifyFinding: ${c.name}`, () => {
    const f = findingOf(c);
    for (const r of [verifyFinding(f, c.source), verifyFinding(f.toJSON(), c.source)]) {
      assert.equal(r.valid, c.expect.valid, JSON.stringify(r));
      if ('reason' in c.expect) assert.equal(r.reason, c.expect.reason);
      if ('reason_contains' in c.expect) assert.ok(r.reason.includes(c.expect.reason_contains), r.reason);
      if ('confidence' in c.expect) assert.equal(r.confidence, c.expect.confidence);
    }
  });
}

test('the three citation-laundering attacks are blocked (spec 003 smoke test)', () => {
  assert.equal(findings.attacks.length, 3);
  for (const a of findings.attacks) {
    const f = findingOf(a);
    if (a.kind === 'validate') {
      const e = assertThrowsCode(() => f.validate(), 'VALIDATION_ERROR');
      assert.equal(e.message, `VALIDATION_ERROR: ${a.blocked_with}`, a.name);
    } else {
      const r = verifyFinding(f, a.source);
      assert.equal(r.valid, false, a.name);
      assert.equal(r.reason, a.blocked_with, a.name);
    }
  }
});

test('Finding: fields, Date timestamps, JSON, bad input', () => {
  const f = Finding.createWithHash({
    category: 'market_intelligence', title: 'GitHub Growth', content: 'Growth rate is 15-20%',
    source_url: 'https://example.com', extracted_at: new Date(Date.UTC(2025, 0, 31, 12)),
    extraction_span: 'file organization tools on github show 15-20% annual growth',
    relevance_score: 8, recency_score: 9, trust_score: 2, char_offsets: [3, 61],
  });
  f.validate();
  assert.equal(f.extracted_at, '2025-01-31T12:00:00.000Z');
  assert.equal(f.extraction_span_hash, Finding.computeHash('  file organization tools on github\nshow 15-20% annual growth '));
  assert.deepEqual(f.char_offsets, [3, 61]);
  assert.equal(f.trust_score, 2);
  assert.deepEqual(JSON.parse(JSON.stringify(f)), f.toJSON());
  assertThrowsCode(() => new Finding({ relevance_score: 1 }), 'VALIDATION_ERROR');
  assertThrowsCode(() => new Finding({ ...f.toJSON(), bogus: true }), 'VALIDATION_ERROR');
  assertThrowsCode(() => verifyFinding({ relevance_score: 'high' }, 'x'), 'VALIDATION_ERROR');
  f.free();
});
