// The package through a bundler's resolution (tsconfig.bundler.json:
// moduleResolution "bundler", so the `import` condition, not `node`): the
// bundler target's declarations. Type-checked only (running the bundler
// target needs a bundler's .wasm import; tests/js/package.test.mjs runs it).

import { Document, Transcript, defaultConfig, validateEvidence, verifyClaim } from 'evidence-validator';
import type { DefaultConfig, FindResult, JudgeResult, ValidationReport } from 'evidence-validator';
import { expectType, type Equal } from './check.js';

export function typesOnly(): void {
  const report: ValidationReport = validateEvidence('text', [{ id: 'EV001', task_id: 'P1.T001', quote: 'text', evidence_type: 'direct_quote' }]);
  const found: FindResult = new Document('text', null).find('text', { maxResults: 1 });
  const defaults: DefaultConfig = defaultConfig();
  const judged: Promise<JudgeResult> = verifyClaim({ claim: 'c', quote: 'q', filename: 'f', lines: 'L1', source: 'q' });
  expectType<Equal<typeof found.complete, boolean>>();
  expectType<Equal<ReturnType<Transcript['toJSON']>['timing'], 'word' | 'segment'>>();
  // @ts-expect-error a number is not a source
  validateEvidence(1, []);
  void [report, defaults, judged];
}
