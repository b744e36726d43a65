// Every export of the package is declared, and every declared export is
// exercised by a typed test: the record below is keyed by the declared value
// exports, so an export added to (or removed from) the .d.ts does not
// compile until it is listed here with the test file that calls it; at run
// time the package's real exports must be exactly these names. The `web`
// and `workerd` entries declare the same API plus their initializers.

import * as lib from 'evidence-validator';
import type * as web from 'evidence-validator/web';
import init, { initSync, type InitOutput } from 'evidence-validator/web';
// Type-only: at run time the workerd entry imports the .wasm as a module, which Node cannot.
import type * as workerd from 'evidence-validator/workerd';
import { check, expectType, type Equal } from './check.js';

/** Each value export and the typed test file that calls it. */
const EXERCISED: { [K in keyof typeof lib]: string } = {
  validateEvidence: 'validate.ts',
  validateEvidenceAsync: 'validate.ts',
  Document: 'validate.ts',
  DocumentBuilder: 'validate.ts',
  SlicedValidation: 'validate.ts',
  defaultConfig: 'validate.ts',
  parseJson: 'validate.ts',
  sliceOptionBounds: 'validate.ts',
  version: 'validate.ts',
  verifyClaim: 'judge.ts',
  checkClaim: 'judge.ts',
  judgePrompt: 'judge.ts',
  juryInstructions: 'judge.ts',
  quoteScore: 'judge.ts',
  normalizeJudgeText: 'judge.ts',
  parseJudgeAnswer: 'judge.ts',
  parseCitations: 'judge.ts',
  verifyReport: 'judge.ts',
  verifyFinding: 'judge.ts',
  Finding: 'judge.ts',
  Transcript: 'transcript.ts',
  EvaluationGenerator: 'transcript.ts',
  renderScript: 'transcript.ts',
  normalizeEvidenceText: 'transcript.ts',
  evidenceTokens: 'transcript.ts',
  defaultJudgeOptions: 'judge.ts',
  judgeOptionBounds: 'judge.ts',
  defaultTranscriptConfig: 'transcript.ts',
  cite: 'cite.ts',
  citeAsync: 'cite.ts',
  citeNumeric: 'cite.ts',
  citeMetrics: 'cite.ts',
  citeDefaultConfig: 'cite.ts',
  citePipeline: 'cite.ts',
  citeStream: 'cite.ts',
};

// The web entry: the same API, plus `init` (default) and `initSync`.
expectType<Equal<Exclude<keyof typeof web, 'default' | 'initSync'>, keyof typeof lib>>();
// The workerd entry: the same API, plus `initSync` (it has already called it).
expectType<Equal<Exclude<keyof typeof workerd, 'initSync'>, keyof typeof lib>>();
expectType<Equal<typeof web.validateEvidence, typeof lib.validateEvidence>>();

/** The web target's initializers take bytes, a Module, a URL or a Response (type-checked only). */
export async function typesOnlyWebInit(bytes: Uint8Array<ArrayBuffer>, module: WebAssembly.Module): Promise<void> {
  const out: InitOutput = await init({ module_or_path: bytes });
  const memory: WebAssembly.Memory = out.memory;
  initSync({ module });
  await init({ module_or_path: new URL('https://example.com/evidence_validator_bg.wasm') });
  await init({ module_or_path: fetch('/evidence_validator_bg.wasm') });
  void memory;
}

export function testExports(): void {
  const declared = Object.keys(EXERCISED).sort();
  const actual = Object.keys(lib).sort();
  check(declared.join() === actual.join(), `the package exports ${actual.join(', ')}; the types declare ${declared.join(', ')}`);
  for (const name of declared) {
    check(typeof (lib as Record<string, unknown>)[name] === 'function', `${name} is a function or class`);
  }
}
