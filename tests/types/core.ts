// `evidence-validator/core` (spec 000 only, the `wasm-core` build): it
// declares exactly the spec 000 exports, each with the full package's type,
// and at run time exports exactly those names and answers as the full
// package does.

import * as lib from 'evidence-validator';
import * as core from 'evidence-validator/core';
import type * as coreWeb from 'evidence-validator/core/web';
// Type-only: at run time the workerd entry imports the .wasm as a module, which Node cannot.
import type * as coreWorkerd from 'evidence-validator/core/workerd';
import { check, expectType, type Equal } from './check.js';

/** The core's value exports, each typed as the full package's. */
const CORE: { [K in keyof typeof core]: (typeof lib)[K] } = {
  validateEvidence: lib.validateEvidence,
  validateEvidenceAsync: lib.validateEvidenceAsync,
  Document: lib.Document,
  DocumentBuilder: lib.DocumentBuilder,
  SlicedValidation: lib.SlicedValidation,
  defaultConfig: lib.defaultConfig,
  parseJson: lib.parseJson,
  sliceOptionBounds: lib.sliceOptionBounds,
  version: lib.version,
};
expectType<Equal<keyof typeof core, keyof typeof CORE>>();
expectType<Equal<typeof core.validateEvidence, typeof lib.validateEvidence>>();
expectType<Equal<typeof core.Document, typeof lib.Document>>();
// The web and workerd entries: the same API plus their initializers.
expectType<Equal<Exclude<keyof typeof coreWeb, 'default' | 'initSync'>, keyof typeof core>>();
expectType<Equal<Exclude<keyof typeof coreWorkerd, 'initSync'>, keyof typeof core>>();

export function testCoreExports(): void {
  const declared = Object.keys(CORE).sort();
  const actual = Object.keys(core).sort();
  check(declared.join() === actual.join(), `evidence-validator/core exports ${actual.join(', ')}; the types declare ${declared.join(', ')}`);
}

export function testCoreAnswersAsTheFullPackage(): void {
  const source = '# Setup\n\nThe server must run on port 8080 with TLS 1.3 enabled.\n';
  const claims: lib.EvidenceClaims = {
    claims: [
      { id: 'EV001', task_id: 'P1.T001', quote: 'run on port 8080 with TLS 1.3', evidence_type: 'direct_quote' },
      { id: 'EV002', task_id: 'P1.T001', quote: 'passwords are stored in plain text', evidence_type: 'direct_quote' },
    ],
  };
  // the same bytes but for the time of the call
  const text = (r: lib.ValidationReport) => JSON.stringify({ ...r, generated: { ...r.generated, timestamp: '' } });
  const a = core.validateEvidence(source, claims, null);
  const b = lib.validateEvidence(source, claims, null);
  check(text(a) === text(b), 'the same report from the core and the full package');
  const statuses = a.validated_claims.map((c) => c.validation_status).join();
  check(statuses === 'VALIDATED,FAILED', `one quote is in the source, the other is not: got ${statuses}`);
}
