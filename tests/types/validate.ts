// Typed tests of spec 000 through the package: validateEvidence (sync and
// async), Document (find, validate, getters), the configuration (every
// section, strict, max_memory_mb, include_hidden_text), defaultConfig,
// parseJson, version, and the thrown EvidenceValidatorError. tsc checks the
// declarations against these calls; run.mjs runs them against the package.

import {
  Document,
  DocumentBuilder,
  SlicedValidation,
  defaultConfig,
  parseJson,
  sliceOptionBounds,
  validateEvidence,
  validateEvidenceAsync,
  version,
} from 'evidence-validator';
import type {
  SliceOptionBounds,
  AlternativeMatch,
  AnchorStatus,
  Location,
  Reanchored,
  SavedAnnotation,
  Selector,
  AttemptedMatch,
  Claim,
  ClaimResult,
  DefaultConfig,
  DocumentMetadata,
  EmbeddingVectors,
  EvidenceClaims,
  EvidenceValidatorError,
  FailedClaim,
  FindOptions,
  FindResult,
  FoundMatch,
  JsonValue,
  MatchDetails,
  MatchEdit,
  ReportError,
  ReportWarning,
  Section,
  SliceOptions,
  SourceFormat,
  ValidationConfig,
  ValidationReport,
  ValidationStatus,
} from 'evidence-validator';
import { check, expectType, rejectsCode, shape, throwsCode, type Equal } from './check.js';

const source = '# Requirements\n\nThe system must implement user authentication with OAuth 2.0 protocol.\n\n' +
  '## Responses\n\nAll API endpoints should return JSON responses with appropriate status codes 😀.\n';

const claim: Claim = {
  id: 'EV001',
  task_id: 'P1.T001',
  quote: 'The system must implement user authentication with OAuth 2.0 protocol',
  evidence_type: 'direct_quote',
  context_hint: 'authentication',
  expected_section: 'Requirements',
  confidence_threshold: 0.8,
};
const claims: EvidenceClaims = {
  source_metadata: { filename: 'req.md', format: 'markdown', encoding: 'utf-8' },
  claims: [
    claim,
    { id: 'EV002', task_id: 'P1.T002', quote: 'All API endpoints should return XML responses', evidence_type: 'direct_quote' },
    { id: 'EV003', task_id: 'P1.T003', quote: 'a sentence this document does not contain anywhere', evidence_type: 'paraphrase' },
  ],
};

// Every section of the configuration, with the recent additions.
const config: ValidationConfig = {
  fuzzy_matching: { enabled: true, similarity_threshold: 0.85, max_edit_distance: 5, algorithm: 'levenshtein' },
  exact_matching: { enabled: true, case_sensitive: false, normalize_whitespace: true },
  semantic_matching: { enabled: true, chunk_size: 200, overlap_size: 50, similarity_threshold: 0.7 },
  context_validation: { enabled: true, context_window: 100, section_awareness: true },
  strict: false,
  performance_limits: { max_document_size_mb: 10, max_claims: 1000, max_processing_time_seconds: 30, max_memory_mb: 200 },
  document_processing: { include_hidden_text: false },
};
const wrapped: ValidationConfig = { validation_config: { strict: true } };

/** The shapes of a report, checked key by key against the declarations. */
function checkReport(report: ValidationReport, where: string, text: string = source): void {
  shape(report, {
    ok: 'required', errors: 'required', warnings: 'required', generated: 'required', document_metadata: 'required',
    validation_summary: 'required', validated_claims: 'required', failed_claims: 'required',
  }, where);
  shape(report.generated, { by: 'required', timestamp: 'required', contentHash: 'required' }, `${where}.generated`);
  checkMetadata(report.document_metadata, `${where}.document_metadata`);
  shape(report.validation_summary, {
    total_claims: 'required', validated_claims: 'required', failed_claims: 'required', ambiguous_claims: 'required',
    low_confidence_claims: 'required', average_confidence: 'required', validation_rate: 'required',
  }, `${where}.validation_summary`);
  const rate: number = report.validation_summary.validation_rate;
  check(rate >= 0 && rate <= 1, `${where}: validation_rate ${rate}`);
  report.validated_claims.forEach((r: ClaimResult, i) => {
    shape(r, {
      claim_id: 'required', task_id: 'required', evidence_type: 'required', validation_status: 'required',
      confidence_score: 'required', match_details: 'optional', alternative_matches: 'required',
    }, `${where}.validated_claims[${i}]`);
    const status: ValidationStatus = r.validation_status;
    if (r.match_details) checkMatch(r.match_details, `${where}.validated_claims[${i}].match_details`, text);
    r.alternative_matches.forEach((a: AlternativeMatch, j) => shape(a, {
      ...LOCATION, matched_text: 'required', confidence_score: 'required', position: 'required', match_type: 'required',
    }, `${where}.validated_claims[${i}].alternative_matches[${j}] (${status})`));
  });
  report.failed_claims.forEach((f: FailedClaim, i) => {
    shape(f, { claim_id: 'required', failure_reason: 'required', attempted_matches: 'required', suggestions: 'required' },
      `${where}.failed_claims[${i}]`);
    f.attempted_matches.forEach((a: AttemptedMatch, j) => shape(a, {
      ...LOCATION, candidate_text: 'required', confidence_score: 'required', rejection_reason: 'required',
    }, `${where}.failed_claims[${i}].attempted_matches[${j}]`));
    const first: string | undefined = f.suggestions[0];
    check(first === undefined || typeof first === 'string', 'suggestions are strings');
  });
  report.warnings.forEach((w: ReportWarning, i) =>
    shape(w, { code: 'required', message: 'required', claim_id: 'optional' }, `${where}.warnings[${i}]`));
  report.errors.forEach((e: ReportError, i) =>
    shape(e, { code: 'required', message: 'required', details: 'required', affected_claims: 'optional' }, `${where}.errors[${i}]`));
}

/** The keys of `Location`, which matches and attempts extend. */
const LOCATION = {
  start_position: 'required', end_position: 'required', utf16_start: 'required', utf16_end: 'required',
  byte_start: 'required', byte_end: 'required', line_number: 'required', column: 'required', end_line_number: 'required',
  section: 'optional',
} as const;

/** A TextQuoteSelector whose `exact` is the matched text, then a TextPositionSelector. */
function checkSelectors(selectors: Selector[], text: string, where: string): void {
  const [quote, position] = selectors;
  check(quote?.type === 'TextQuoteSelector' && quote.exact === text, `${where}: TextQuoteSelector`);
  if (quote?.type === 'TextQuoteSelector') shape(quote, { type: 'required', exact: 'required', prefix: 'required', suffix: 'required' }, `${where}.selectors[0]`);
  check(position?.type === 'TextPositionSelector' && position.end - position.start === [...text].length, `${where}: TextPositionSelector`);
  if (position?.type === 'TextPositionSelector') shape(position, { type: 'required', start: 'required', end: 'required' }, `${where}.selectors[1]`);
}

function checkMatch(m: MatchDetails, where: string, text: string): void {
  shape(m, {
    ...LOCATION, match_type: 'required', matched_text: 'required', confidence_score: 'required', similarity_score: 'required',
    edit_distance: 'required', context_score: 'optional', discrepancies: 'optional', edits: 'optional', semantic_method: 'optional',
    fragments: 'optional', omitted: 'optional', selectors: 'required', text_fragment: 'optional', margin: 'optional',
  }, where);
  check(text.slice(m.utf16_start, m.utf16_end) === m.matched_text, `${where}: utf16 span`);
  checkSelectors(m.selectors, m.matched_text, where);
  m.edits?.forEach((e, i) => checkEdit(e, `${where}.edits[${i}]`));
  m.discrepancies?.forEach((d, i) => shape(d, { kind: 'required', quote: 'required', source: 'required' }, `${where}.discrepancies[${i}]`));
}

function checkEdit(e: MatchEdit, where: string): void {
  shape(e, { ...LOCATION, kind: 'required', change: 'optional', reason: 'required', quote: 'required', source: 'required' }, where);
}

function checkMetadata(md: DocumentMetadata, where: string): void {
  shape(md, {
    size_bytes: 'required', line_count: 'required', section_count: 'required', estimated_reading_time_minutes: 'required',
    format: 'required', char_count: 'required', utf16_length: 'required', word_count: 'required',
  }, where);
}

export async function testValidate(): Promise<void> {
  // validateEvidence: claims wrapped or bare, config bare or wrapped, null or absent
  const report: ValidationReport = validateEvidence(source, claims, config, null);
  checkReport(report, 'validateEvidence');
  const [first, second] = report.validated_claims;
  check(first?.validation_status === 'VALIDATED', 'EV001 is VALIDATED');
  check(first.match_details?.section === 'Requirements', 'section of EV001');
  check(second !== undefined && second.validation_status !== 'VALIDATED', 'EV002 is not VALIDATED');
  check(report.failed_claims.length === 2, 'two failed claims');
  checkReport(validateEvidence(source, [claim]), 'bare claims');
  checkReport(validateEvidence(source, [claim], wrapped), 'wrapped config');
  checkReport(validateEvidence(source, { claims: [claim] }, null, { embed: (texts) => texts.map(() => [1, 0]) }), 'sync embed');

  // async, with an embed that returns a Promise of typed arrays
  const embed = async (texts: string[]): Promise<EmbeddingVectors> => texts.map(() => Float32Array.of(1, 0));
  const viaPromise: Promise<ValidationReport> = validateEvidenceAsync(source, claims, config, { embed });
  checkReport(await viaPromise, 'validateEvidenceAsync');

  // strict, hidden text, max_memory_mb through a real call
  const strictErr = throwsCode(
    () => validateEvidence(source, [{ ...claim, extra_field: 1 } as Claim], { strict: true }),
    'VALIDATION_ERROR', 'strict');
  check(strictErr.details['json_path'] === '$[0].extra_field', 'strict names the field');
  const hidden = validateEvidence('<p>Shown text here.</p><div hidden>The audit found no critical vulnerabilities at all</div>', {
    source_metadata: { format: 'html' },
    claims: [{ id: 'EV001', task_id: 'P1.T001', quote: 'The audit found no critical vulnerabilities at all', evidence_type: 'direct_quote' }],
  }, { document_processing: { include_hidden_text: true } });
  check(hidden.validated_claims[0]?.validation_status === 'VALIDATED', 'include_hidden_text finds hidden text');
  throwsCode(() => validateEvidence(source, [claim], { performance_limits: { max_memory_mb: 0.001 } }), 'VALIDATION_ERROR', 'max_memory_mb');

  // the rarer parts of a report: alternative matches (AMBIGUOUS), a semantic match, a context score
  const twice = '# A\n\nRepeat this sentence here please.\n\n# B\n\nRepeat this sentence here please.\n\n' +
    'The company purchased three cars in March. Later the warehouse flooded.\n';
  const rare = validateEvidence(twice, [
    { id: 'EV001', task_id: 'P1.T001', quote: 'Repeat this sentence here please', evidence_type: 'direct_quote' },
    { id: 'EV002', task_id: 'P1.T002', quote: 'the firm bought 3 automobiles', evidence_type: 'paraphrase' },
    { id: 'EV003', task_id: 'P1.T003', quote: 'Repeat this sentence here please', evidence_type: 'direct_quote', context_hint: 'Repeat', expected_section: 'B' },
  ], { semantic_matching: { chunk_size: 60, overlap_size: 20 } }, { embed: (texts) => texts.map((t) => [/cars|automobiles/.test(t) ? 1 : 0, 0.1]) });
  checkReport(rare, 'rare parts', twice);
  const [ambiguous, semantic, sectioned] = rare.validated_claims;
  check(ambiguous?.validation_status === 'AMBIGUOUS' && ambiguous.alternative_matches.length > 0, 'alternative matches');
  check(semantic?.match_details?.semantic_method === 'embedding', 'a semantic match');
  check(sectioned?.match_details?.section === 'B', 'the expected section');
}

export async function testDocument(): Promise<void> {
  const doc = new Document(source, { format: 'markdown' });
  const format: SourceFormat = doc.format;
  check(format === 'markdown', 'format');
  checkMetadata(doc.metadata, 'Document.metadata');
  check(doc.metadata.utf16_length === source.length, 'utf16_length');
  const sections: Section[] = doc.sections;
  sections.forEach((s, i) => shape(s, {
    type: 'required', level: 'required', title: 'required', start_line: 'required', byte_start: 'required',
    byte_end: 'required', heading_end: 'required',
  }, `sections[${i}]`));
  check(sections.some((s) => s.type === 'section' && s.title === 'Responses' && s.level === 2), 'the Responses section');

  // find: FindResult with matches, total, omitted, complete
  const options: FindOptions = {
    maxEditDistance: 3, caseSensitive: false, normalizeWhitespace: true, maxResults: 10, maxProcessingTimeSeconds: 5,
  };
  const found: FindResult = doc.find('user authentication', options);
  shape(found, { matches: 'required', total: 'required', omitted: 'required', complete: 'required' }, 'FindResult');
  expectType<Equal<typeof found.matches, FoundMatch[]>>();
  const total: number = found.total;
  const omitted: number = found.omitted;
  const complete: boolean = found.complete;
  check(total === 1 && omitted === 0 && complete, 'one exact match, none omitted');
  const fuzzy = doc.find('All API endpoints should return JSON responces').matches;
  check(fuzzy.length === 1, 'one fuzzy match');
  for (const m of [...found.matches, ...fuzzy]) {
    shape(m, {
      ...LOCATION, match_type: 'required', matched_text: 'required', edit_distance: 'required', similarity_score: 'required',
      substitution: 'required', edits: 'optional',
    }, 'FoundMatch');
    const type: 'exact' | 'fuzzy' = m.match_type;
    const changed: boolean = m.substitution;
    check(source.slice(m.utf16_start, m.utf16_end) === m.matched_text, `find ${type} ${changed}: span`);
    m.edits?.forEach((e, i) => checkEdit(e, `FoundMatch.edits[${i}]`));
  }
  // reanchor: the selectors of a validation, found again in an edited copy
  const first = doc.validate([claim], null).validated_claims[0]?.match_details;
  check(first !== undefined, 'the claim matched');
  if (first) {
    const saved: SavedAnnotation[] = [{ id: 'a', selectors: first.selectors }];
    const edited = new Document(`New first line.\n${source}`, null);
    const moved: Reanchored[] = edited.reanchor(saved);
    const status: AnchorStatus = moved[0]!.status;
    check(status === 'moved', `reanchor: ${status}`);
    shape(moved[0]!, { id: 'required', status: 'required', span: 'required', matched_text: 'required', edit_distance: 'required', selectors: 'required' }, 'Reanchored');
    const span: Location | null = moved[0]!.span;
    check(span !== null && span.utf16_start === first.utf16_start + 'New first line.\n'.length, 'reanchor: UTF-16 span');
    throwsCode(() => edited.reanchor([{ id: 'a', selectors: [] }]), 'VALIDATION_ERROR', 'reanchor without a TextQuoteSelector');
    const pinned: Claim = { ...claim, prefix: 'nothing like this', suffix: 'nor this', position: first.start_position };
    check(doc.validate([pinned], null).validated_claims[0]?.validation_status === 'VALIDATED', 'prefix, suffix, position typed');
    edited.free();
  }
  const capped = doc.find('the', { maxResults: 1 });
  check(capped.matches.length === 1 && capped.omitted === capped.total - 1, 'maxResults caps matches, the rest omitted');

  checkReport(doc.validate(claims, config), 'Document.validate');
  checkReport(doc.validate([claim], null, { embed: (texts) => texts.map(() => Float64Array.of(0, 1)) }), 'Document.validate embed');
  const later: ValidationReport = await doc.validateAsync([claim], wrapped, { embed: async (texts) => texts.map(() => [1]) });
  checkReport(later, 'Document.validateAsync');
  doc.free();

  // in steps: the same document, the same report (its timestamp aside)
  const long = `${source}\n\n`.repeat(Math.ceil(8192 / source.length));
  const builder = new DocumentBuilder(long, { format: 'markdown' });
  const builderFormat: SourceFormat = builder.format;
  check(builderFormat === 'markdown', 'DocumentBuilder.format');
  let steps = 0;
  while (!builder.step(1024)) steps++;
  check(steps > 3, `built in steps (${steps})`);
  const stepped: Document = builder.finish();
  // a step's budget has bytesPerStep's bounds and error (the core's one rule), never clamped
  const refused = new DocumentBuilder(source, null);
  for (const budget of [0, 16, 1023, 1024.5, 2 ** 30 + 1, -1]) {
    const e = throwsCode(() => refused.step(budget), 'CONFIGURATION_ERROR', `DocumentBuilder.step(${budget})`);
    const asOption = throwsCode(() => new SlicedValidation(source, claims, config, { bytesPerStep: budget }), 'CONFIGURATION_ERROR', `bytesPerStep ${budget}`);
    check(e.message === asOption.message.replaceAll('bytesPerStep', 'budget'), `step(${budget}): ${e.message} | ${asOption.message}`);
    check(e.details.json_path === '$.budget' && e.details.constraint === asOption.details.constraint, `step(${budget}): details`);
  }
  throwsCode(() => refused.step(Number.NaN), 'CONFIGURATION_ERROR', 'DocumentBuilder.step(NaN)');
  // the bounds a host reads instead of copying: each one taken, one past it refused
  const bounds: SliceOptionBounds = sliceOptionBounds();
  shape(bounds, { claimsPerSlice: 'required', bytesPerStep: 'required' }, 'SliceOptionBounds');
  for (const b of [bounds.claimsPerSlice, bounds.bytesPerStep]) shape(b, { min: 'required', max: 'required', default: 'required' }, 'SliceOptionBound');
  check(bounds.bytesPerStep.min === 1024 && bounds.bytesPerStep.max === 2 ** 30 && bounds.bytesPerStep.default === 65536, 'bytesPerStep bounds');
  check(bounds.claimsPerSlice.min === 4 && bounds.claimsPerSlice.default === 50, 'claimsPerSlice bounds');
  for (const [key, b] of [['claimsPerSlice', bounds.claimsPerSlice], ['bytesPerStep', bounds.bytesPerStep]] as const) {
    for (const taken of [b.min, b.max, b.default]) new SlicedValidation(source, claims, config, { [key]: taken }).free();
    for (const refusedValue of [b.min - 1, b.max + 1]) throwsCode(() => new SlicedValidation(source, claims, config, { [key]: refusedValue }), 'CONFIGURATION_ERROR', `${key} ${refusedValue}`);
  }
  throwsCode(() => refused.step(bounds.bytesPerStep.min - 1), 'CONFIGURATION_ERROR', 'step below bytesPerStep.min');
  check(typeof refused.step(1024) === 'boolean' && typeof refused.step(2 ** 30) === 'boolean' && typeof refused.step() === 'boolean', 'the bounds and the default are taken');
  refused.free();
  const again = new Document(long, { format: 'markdown' });
  check(JSON.stringify(stepped.sections) === JSON.stringify(again.sections), 'the same sections');
  again.free();
  const sameDoc = stepped.validate(claims, config);
  checkReport(sameDoc, 'DocumentBuilder: Document.validate');
  const noTime = (r: ValidationReport) => JSON.stringify({ ...r, generated: { ...r.generated, timestamp: '' } });
  const oneCall = validateEvidence(source, claims, config);
  const fresh = new Document(long, { format: 'markdown' });
  check(noTime(sameDoc) === noTime(fresh.validate(claims, config)), 'the stepped document validates the same');
  fresh.free();
  const sliceOptions: SliceOptions = { claimsPerSlice: 4, bytesPerStep: 1024 };
  const job = new SlicedValidation(source, claims, config, sliceOptions);
  let jobSteps = 0;
  while (!job.step()) jobSteps++;
  const doneClaims: number = job.claimsDone;
  check(doneClaims === oneCall.validated_claims.length && jobSteps > 2, `SlicedValidation steps (${jobSteps})`);
  const text: string = job.finishJson();
  check(noTime(JSON.parse(text) as ValidationReport) === noTime(oneCall), 'SlicedValidation: the one call\'s report');
  const onDoc: SlicedValidation = stepped.validateInSlices(claims, config, null);
  const sliced: ValidationReport = onDoc.finish();
  checkReport(sliced, 'Document.validateInSlices');
  check(noTime(sliced) === noTime(sameDoc), 'validateInSlices: the same report');
  throwsCode(() => new SlicedValidation(source, claims, config, { claimsPerSlice: 2 }), 'CONFIGURATION_ERROR', 'claimsPerSlice below 4');
  throwsCode(() => new SlicedValidation(source, claims, { strict: 1 } as unknown as ValidationConfig), 'CONFIGURATION_ERROR', 'the one call\'s config check');
  stepped.free();

  const disposable = new Document('plain text', null);
  if (typeof Symbol.dispose === 'symbol' && typeof disposable[Symbol.dispose] === 'function') disposable[Symbol.dispose]();
  else disposable.free();
}

export function testConfigAndJson(): void {
  const defaults: DefaultConfig = defaultConfig();
  shape(defaults, {
    fuzzy_matching: 'required', exact_matching: 'required', semantic_matching: 'required', context_validation: 'required',
    performance_limits: 'required', strict: 'required', document_processing: 'required', anchoring: 'required',
  }, 'defaultConfig()');
  shape(defaults.anchoring, { ellipsis_max_gap: 'required', disambiguation_margin: 'required', max_position_distance: 'required' }, 'defaults.anchoring');
  shape(defaults.fuzzy_matching, { enabled: 'required', similarity_threshold: 'required', max_edit_distance: 'required', algorithm: 'required' }, 'defaults.fuzzy_matching');
  shape(defaults.exact_matching, { enabled: 'required', case_sensitive: 'required', normalize_whitespace: 'required' }, 'defaults.exact_matching');
  shape(defaults.semantic_matching, { enabled: 'required', chunk_size: 'required', overlap_size: 'required', similarity_threshold: 'required' }, 'defaults.semantic_matching');
  shape(defaults.context_validation, { enabled: 'required', context_window: 'required', section_awareness: 'required' }, 'defaults.context_validation');
  shape(defaults.performance_limits, {
    max_document_size_mb: 'required', max_claims: 'required', max_processing_time_seconds: 'required', max_memory_mb: 'required',
  }, 'defaults.performance_limits');
  shape(defaults.document_processing, { include_hidden_text: 'required' }, 'defaults.document_processing');
  const memory: number = defaults.performance_limits.max_memory_mb;
  const hidden: boolean = defaults.document_processing.include_hidden_text;
  const strict: boolean = defaults.strict;
  check(memory === 100 && hidden === false && strict === false, 'default values');
  // the defaults are a valid configuration
  const asConfig: ValidationConfig = defaults;
  checkReport(validateEvidence(source, [claim], asConfig), 'defaults as config');

  const parsed: JsonValue = parseJson('\uFEFF{"a": [1, 2.5, "x", null, true], "b": {"c": false}}');
  check(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), 'an object');
  const a: JsonValue | undefined = parsed['a'];
  check(Array.isArray(a) && a.length === 5, 'the array');
  const dup = throwsCode(() => parseJson('{"id": 1, "id": 2}'), 'VALIDATION_ERROR', 'parseJson duplicate');
  check(dup.details['json_path'] === '$.id', 'the duplicate key named');
  const v: string = version();
  check(/^\d+\.\d+\.\d+/.test(v), 'version');
}

export function testErrors(): void {
  try {
    validateEvidence(source, [{ ...claim, id: 'X1' }]);
    throw new Error('did not throw');
  } catch (e) {
    const err = e as EvidenceValidatorError;
    shape(err, { name: 'required', message: 'required', stack: 'optional', cause: 'optional', code: 'required', details: 'required' }, 'thrown error');
    check(err instanceof Error && err.name === 'EvidenceValidatorError' && err.code === 'VALIDATION_ERROR', 'the error');
    expectType<Equal<typeof err.details, Record<string, unknown>>>();
  }
}

/** Wrong inputs the declarations refuse (each still throws at run time). */
export async function testRejectedByTypes(): Promise<void> {
  // @ts-expect-error a number is not a source
  throwsCode(() => validateEvidence(42, [claim]), 'DOCUMENT_PARSING_ERROR', 'number source');
  // @ts-expect-error an unknown evidence_type
  throwsCode(() => validateEvidence(source, [{ ...claim, evidence_type: 'hearsay' }]), 'VALIDATION_ERROR', 'evidence_type');
  // @ts-expect-error claims must be an object or an array
  throwsCode(() => validateEvidence(source, 'claims'), 'VALIDATION_ERROR', 'string claims');
  // @ts-expect-error an unknown configuration key
  throwsCode(() => validateEvidence(source, [claim], { fuzzy_matching: { bogus: 1 } }), 'CONFIGURATION_ERROR', 'config key');
  // @ts-expect-error a string where the configuration wants a boolean
  throwsCode(() => validateEvidence(source, [claim], { document_processing: { include_hidden_text: 'yes' } }), 'CONFIGURATION_ERROR', 'include_hidden_text');
  // @ts-expect-error strict is a boolean
  throwsCode(() => validateEvidence(source, [claim], { strict: 1 }), 'CONFIGURATION_ERROR', 'strict');
  // @ts-expect-error an unknown algorithm
  throwsCode(() => validateEvidence(source, [claim], { fuzzy_matching: { algorithm: 'soundex' } }), 'CONFIGURATION_ERROR', 'algorithm');
  // @ts-expect-error embed must be a function
  throwsCode(() => validateEvidence(source, [claim], null, { embed: 42 }), 'CONFIGURATION_ERROR', 'embed');
  // @ts-expect-error an unknown format
  throwsCode(() => new Document(source, { format: 'docx' }), 'CONFIGURATION_ERROR', 'format');
  // @ts-expect-error a number is not a source
  throwsCode(() => new Document(17), 'DOCUMENT_PARSING_ERROR', 'Document number');
  const doc = new Document(source);
  // @ts-expect-error maxResult is not an option (maxResults is)
  throwsCode(() => doc.find('user', { maxResult: 5 }), 'CONFIGURATION_ERROR', 'find option key');
  // @ts-expect-error caseSensitive is a boolean
  throwsCode(() => doc.find('user', { caseSensitive: 'yes' }), 'CONFIGURATION_ERROR', 'caseSensitive');
  // @ts-expect-error the quote is a string
  throwsCode(() => doc.find(17), 'VALIDATION_ERROR', 'find number');
  try {
    // @ts-expect-error format is read-only (a getter: assigning throws in a module)
    doc.format = 'html';
  } catch (e) {
    check(e instanceof TypeError, 'format has no setter');
  }
  // @ts-expect-error parseJson takes text
  throwsCode(() => parseJson({ a: 1 }), 'VALIDATION_ERROR', 'parseJson object');
  await rejectsCode(
    // @ts-expect-error an unknown configuration key
    validateEvidenceAsync(source, [claim], { performance_limits: { max_memory: 5 } }),
    'CONFIGURATION_ERROR', 'async config key');
  // results are typed: no field that is not declared
  const found = doc.find('user');
  // @ts-expect-error FindResult has no `length`: it is not an array
  check(found.length === undefined, 'FindResult is not an array');
  doc.free();
}
