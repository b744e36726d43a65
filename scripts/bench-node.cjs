#!/usr/bin/env node
// Node benchmark of the wasm build (issue 2): 1000 direct quotes against the
// ~1 MB real document of benches/data, through validateEvidence (whole call)
// and a prebuilt Document, plus one find() on the Document. Checks every
// answer against the workload's record (verbatim → exact, edited → fuzzy
// with the recorded edit distance, absent → FAILED) and exits 1 only when an
// answer disagrees. Run after `npm run build`: node scripts/bench-node.cjs
'use strict';
const path = require('path');
const fs = require('fs');
const root = path.join(__dirname, '..');
const ev = require(path.join(root, 'pkg/nodejs/evidence_validator.js'));
const src = fs.readFileSync(path.join(root, 'benches/data/rust-book.md'), 'utf8');
const claims = JSON.parse(fs.readFileSync(path.join(root, 'benches/data/claims-1000.json'), 'utf8'));

function timeRuns(n, f) {
  const t = [];
  let out;
  for (let i = 0; i < n; i++) { const s = performance.now(); out = f(); t.push(performance.now() - s); }
  t.sort((a, b) => a - b);
  return { median: t[Math.floor(n / 2)], min: t[0], out };
}

const whole = timeRuns(7, () => ev.validateEvidence(src, claims));
const doc = new ev.Document(src, { format: 'plain_text' });
const built = timeRuns(7, () => doc.validate(claims));
const find = timeRuns(51, () => doc.find('the borrow checker ensures that references are valid'));

let wrong = 0;
claims.claims.forEach((c, i) => {
  const v = whole.out.validated_claims[i];
  const m = v.match_details;
  const ok = c.bench.kind === 'verbatim' ? m && m.edit_distance === 0
    : c.bench.kind === 'edited' ? m && m.edit_distance === c.bench.edits
    : v.validation_status === 'FAILED';
  if (!ok) { wrong++; console.error(`answer differs: ${c.id} (${c.bench.kind}) → ${v.validation_status} ${m ? m.match_type + ' d=' + m.edit_distance : ''}`); }
});
const ms = (x) => `${x.toFixed(1)} ms`;
console.log(`1000 claims x ${(src.length / 1e6).toFixed(2)} M chars, wasm in Node ${process.version}`);
console.log(`validateEvidence, whole call: median ${ms(whole.median)} (min ${ms(whole.min)})`);
console.log(`Document.validate (index built): median ${ms(built.median)} (min ${ms(built.min)})`);
console.log(`Document.find, one quote: median ${find.median.toFixed(3)} ms`);
console.log(`answers that differ from the workload's record: ${wrong}`);
process.exit(wrong === 0 ? 0 : 1);
