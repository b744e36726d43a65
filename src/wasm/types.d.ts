
/** Spec 000 §2.1: the kind of evidence a claim cites. */
export type EvidenceType = "direct_quote" | "paraphrase" | "section_reference" | "concept_reference";

/** The format of a source document. */
export type SourceFormat = "markdown" | "html" | "plain_text";

/** One evidence claim (spec 000 §2.1). */
/**
 * Where a span is in its text: code points (`start`, `end`), UTF-16 units
 * (`text.slice(utf16_start, utf16_end)` in JS), UTF-8 bytes, 1-based line
 * and column (`end_line`: the line of its last character). One shape for
 * every span the library reports outside a validation report.
 */
export interface TextSpan {
  start: number;
  end: number;
  utf16_start: number;
  utf16_end: number;
  byte_start: number;
  byte_end: number;
  line: number;
  column: number;
  end_line: number;
}

export interface Claim {
  /** `EV` followed by digits, e.g. `EV001`. */
  id: string;
  /** `P<n>.T<n>`, e.g. `P1.T001`. */
  task_id: string;
  /** The cited text, 10–2000 code points. */
  quote: string;
  evidence_type: EvidenceType;
  /** Words expected near the quote. */
  context_hint?: string;
  /** The section the quote should be in. */
  expected_section?: string;
  /** Minimum confidence for VALIDATED, 0–1 (default 0.8). */
  confidence_threshold?: number;
  /** Text expected just before the quote (a TextQuoteSelector's prefix), to choose among several places. */
  prefix?: string;
  /** Text expected just after the quote (a TextQuoteSelector's suffix). */
  suffix?: string;
  /** Where the quote is expected to start, in code points; places farther than `anchoring.max_position_distance` are not candidates. */
  position?: number;
}

/** The claims input (spec 000 §2.1). */
export interface EvidenceClaims {
  source_metadata?: { filename?: string; format?: SourceFormat; encoding?: string };
  claims: Claim[];
}

/** Configuration overrides (spec 000 §1.3); every field is optional. */
export interface ValidationConfigBody {
  fuzzy_matching?: {
    enabled?: boolean;
    similarity_threshold?: number;
    max_edit_distance?: number;
    algorithm?: "levenshtein" | "sequence_matcher";
  };
  exact_matching?: { enabled?: boolean; case_sensitive?: boolean; normalize_whitespace?: boolean };
  semantic_matching?: { enabled?: boolean; chunk_size?: number; overlap_size?: number; similarity_threshold?: number };
  context_validation?: { enabled?: boolean; context_window?: number; section_awareness?: boolean };
  /** Refuse input fields the schema does not define (default false: they are listed in an UNKNOWN_FIELDS warning). */
  strict?: boolean;
  performance_limits?: {
    max_document_size_mb?: number;
    /** At most 1000 (the schema's maxItems). */
    max_claims?: number;
    max_processing_time_seconds?: number;
    /** Estimated peak memory of the call, in MiB (default 100). */
    max_memory_mb?: number;
  };
  /**
   * How the source is read (not in spec 000). `include_hidden_text` (default
   * false): also search text no reader sees (HTML `hidden`,
   * `aria-hidden="true"`, inline `display:none` / `visibility:hidden`,
   * `<template>`, `<noscript>`, `<script>`, `<style>`, and such raw HTML in
   * markdown). Off, a quote found only there is not VALIDATED and gets a
   * `HIDDEN_TEXT` warning and an attempted match at the hidden place.
   */
  document_processing?: { include_hidden_text?: boolean };
  /**
   * Ellipsis quotes and choosing among places (not in spec 000):
   * `ellipsis_max_gap` (characters an ellipsis may stand for, default 300),
   * `disambiguation_margin` (0–1, default 0.1: how much the best place's
   * score must beat the runner-up's, else AMBIGUOUS), `max_position_distance`
   * (characters from a claim's `position`, default 2000).
   */
  anchoring?: { ellipsis_max_gap?: number; disambiguation_margin?: number; max_position_distance?: number };
}

/** The configuration, bare or inside the spec's `validation_config` wrapper. */
export type ValidationConfig = ValidationConfigBody | { validation_config: ValidationConfigBody };

/** The default configuration, every field present (`defaultConfig()`). */
export interface DefaultConfig {
  fuzzy_matching: { enabled: boolean; similarity_threshold: number; max_edit_distance: number; algorithm: "levenshtein" | "sequence_matcher" };
  exact_matching: { enabled: boolean; case_sensitive: boolean; normalize_whitespace: boolean };
  semantic_matching: { enabled: boolean; chunk_size: number; overlap_size: number; similarity_threshold: number };
  context_validation: { enabled: boolean; context_window: number; section_awareness: boolean };
  performance_limits: { max_document_size_mb: number; max_claims: number; max_processing_time_seconds: number; max_memory_mb: number };
  strict: boolean;
  document_processing: { include_hidden_text: boolean };
  anchoring: { ellipsis_max_gap: number; disambiguation_margin: number; max_position_distance: number };
}

/** A JSON value (what `parseJson` returns). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type ValidationStatus = "VALIDATED" | "FAILED" | "AMBIGUOUS" | "LOW_CONFIDENCE";
export type FailureReason = "NOT_FOUND" | "LOW_CONFIDENCE" | "MULTIPLE_MATCHES" | "CONTEXT_MISMATCH";
export type MatchType = "exact" | "fuzzy" | "semantic" | "contextual";
export type ErrorCode = "VALIDATION_ERROR" | "DOCUMENT_PARSING_ERROR" | "CONFIGURATION_ERROR" | "PROCESSING_ERROR";

/**
 * Where a match is in the ORIGINAL source. `source.slice(utf16_start, utf16_end)`
 * in JS equals the matched text.
 */
export interface Location {
  /** Code point offset of the start (the spec's position). */
  start_position: number;
  end_position: number;
  /** UTF-16 offsets: JS string indices, DOM Range offsets. */
  utf16_start: number;
  utf16_end: number;
  /** UTF-8 byte offsets. */
  byte_start: number;
  byte_end: number;
  /** 1-based line and column (code points) of the start. */
  line_number: number;
  column: number;
  end_line_number: number;
  /** Title of the enclosing section. */
  section?: string;
}

/**
 * A number, negation or word that differs between quote and source, or
 * (`markup`) a part of the quote's markup (a link's destination, an image's
 * source, a tag's attributes) that the source does not have at that place.
 */
export interface Discrepancy {
  kind: "number" | "negation" | "word" | "markup";
  quote: string[];
  source: string[];
}

/**
 * One word-level difference between the quote and the matched text.
 * `cosmetic` (case, punctuation, hyphenation, a number written differently
 * but equal) and `typo` (a small slip whose quoted form is not a word) keep
 * a match VALIDATED; a `substitution` never does.
 */
export interface MatchEdit extends Location {
  kind: "cosmetic" | "typo" | "substitution";
  /** For substitutions: what changed. */
  change?: "number" | "negation" | "word";
  /** Why, in a few words: "case", "hyphenation", "typo", "pronoun", "number", "name", "markup" (the quote's link destination, image source or tag attributes are not the source's here), … */
  reason: string;
  /** The quote's text here ("" when the quote has nothing here). */
  quote: string;
  /** The source's text at the span ("" for a point where the quote adds words). */
  source: string;
}

export interface MatchDetails extends Location {
  match_type: MatchType;
  matched_text: string;
  confidence_score: number;
  similarity_score: number;
  /** Character edit distance of the quote and the match; -1 where none applies (semantic and contextual matches, spec 000 §3.5). */
  edit_distance: number;
  context_score?: number;
  discrepancies?: Discrepancy[];
  /** Word-level differences (non-exact matches, and exact ones cut inside a word). */
  edits?: MatchEdit[];
  /** For semantic matches: the host's embeddings, the lexical fallback, or a token passage beyond the fuzzy limits. */
  semantic_method?: "embedding" | "lexical" | "tokens";
  /** For an ellipsis quote: where each fragment was found, in order. */
  fragments?: TextAt[];
  /** For an ellipsis quote: the source text each ellipsis stands for. */
  omitted?: TextAt[];
  /** W3C Web Annotation selectors of the match (positions in code points). */
  selectors: Selector[];
  /** A URL text fragment (`#:~:text=…`): append it to the source's URL to open the page at the passage, highlighted. */
  text_fragment?: string;
  /** When several places matched cleanly: how much the chosen place's score beats the runner-up's. */
  margin?: number;
}

/** A piece of the source and where it is. */
export interface TextAt extends Location {
  text: string;
}

/** W3C TextQuoteSelector: the text and up to 32 characters either side. */
export interface TextQuoteSelector {
  type: "TextQuoteSelector";
  exact: string;
  prefix: string;
  suffix: string;
}

/** W3C TextPositionSelector: code point offsets into the source. */
export interface TextPositionSelector {
  type: "TextPositionSelector";
  start: number;
  end: number;
}

export type Selector = TextQuoteSelector | TextPositionSelector;

/** An annotation saved against an earlier version of a document. */
export interface SavedAnnotation {
  id: string;
  /** A TextQuoteSelector (required) and optionally a TextPositionSelector. */
  selectors: Selector[];
}

/** What happened to an annotation's passage in the edited document. */
export type AnchorStatus = "unchanged" | "moved" | "changed" | "orphaned";

/** One annotation re-anchored (`Document.reanchor`). */
export interface Reanchored {
  id: string;
  status: AnchorStatus;
  /** Where it is now; null when orphaned. */
  span: Location | null;
  matched_text: string | null;
  /** Edits between the saved quote and the text now (0 unchanged or moved); null when orphaned. */
  edit_distance: number | null;
  /** Selectors of the new place (empty when orphaned). */
  selectors: Selector[];
}

export interface AlternativeMatch extends Location {
  matched_text: string;
  confidence_score: number;
  /** Code point start. */
  position: number;
  match_type: MatchType;
}

export interface ClaimResult {
  claim_id: string;
  task_id: string;
  evidence_type: EvidenceType;
  validation_status: ValidationStatus;
  confidence_score: number;
  match_details?: MatchDetails;
  alternative_matches: AlternativeMatch[];
}

export interface AttemptedMatch extends Location {
  candidate_text: string;
  confidence_score: number;
  /** Why it was rejected; starts with `HIDDEN_TEXT:` for a quote found only in hidden text (first in the list). */
  rejection_reason: string;
}

export interface FailedClaim {
  claim_id: string;
  failure_reason: FailureReason;
  attempted_matches: AttemptedMatch[];
  suggestions: string[];
}

export interface ReportWarning {
  /** E.g. `NUMBER_MISMATCH`, `WORD_SUBSTITUTION`, `NEGATION_MISMATCH`, `MARKUP_MISMATCH`, `HIDDEN_TEXT`, `DUPLICATE_CLAIM_ID`. */
  code: string;
  message: string;
  claim_id?: string;
}

export interface ReportError {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
  affected_claims?: string[];
}

export interface DocumentMetadata {
  size_bytes: number;
  line_count: number;
  section_count: number;
  estimated_reading_time_minutes: number;
  format: SourceFormat;
  char_count: number;
  utf16_length: number;
  word_count: number;
}

export interface ValidationSummary {
  total_claims: number;
  validated_claims: number;
  failed_claims: number;
  ambiguous_claims: number;
  low_confidence_claims: number;
  average_confidence: number;
  validation_rate: number;
}

/** The report (spec 000 §2.2). */
export interface ValidationReport {
  ok: boolean;
  errors: ReportError[];
  warnings: ReportWarning[];
  generated: { by: string; timestamp: string; contentHash: string };
  document_metadata: DocumentMetadata;
  validation_summary: ValidationSummary;
  /** One result per claim, in input order, whatever its status. */
  validated_claims: ClaimResult[];
  /** Diagnostics for every claim that is not VALIDATED. */
  failed_claims: FailedClaim[];
}

export interface DocumentOptions {
  format?: SourceFormat;
}

export interface FindOptions {
  /** Largest edit distance for fuzzy matches when there is no exact one (default 3, at most 2000). */
  maxEditDistance?: number;
  caseSensitive?: boolean;
  normalizeWhitespace?: boolean;
  /** Most matches returned (default 1000, at most 100000); the rest are counted in `omitted`. */
  maxResults?: number;
  /** Time limit of the search in seconds (default 120); past it `complete` is false. */
  maxProcessingTimeSeconds?: number;
}

/** What `Document.find` found. */
export interface FindResult {
  /** The matches in document order: at most `maxResults`, and at most 16 MiB of matched text. */
  matches: FoundMatch[];
  /** Places found in all (those seen before the time limit when not `complete`). */
  total: number;
  /** Places found but not in `matches`. */
  omitted: number;
  /** False when the time limit ended the search. */
  complete: boolean;
}

export interface FoundMatch extends Location {
  match_type: "exact" | "fuzzy";
  matched_text: string;
  edit_distance: number;
  similarity_score: number;
  /** True when the match says something else than the quote (a changed word, number or negation): see `edits`. */
  substitution: boolean;
  /** Word-level differences, when there are any. */
  edits?: MatchEdit[];
}

export interface Section {
  type: "section" | "preamble";
  level: number;
  title: string;
  start_line: number;
  byte_start: number;
  byte_end: number;
  heading_end: number;
}

/** What the library throws: an `Error` with the spec's code and details. */
export interface EvidenceValidatorError extends Error {
  name: "EvidenceValidatorError";
  code: ErrorCode;
  details: Record<string, unknown>;
}

/**
 * Validates evidence claims against a source document (spec 000
 * `validate_evidence`). Throws an {@link EvidenceValidatorError} on bad input.
 * `source` is text, or bytes decoded as `claims.source_metadata.encoding`
 * says (default `utf-8`; `windows-1252`/`latin1`/`iso-8859-1`, `utf-16`,
 * `utf-16le`, `utf-16be`; a byte order mark decides over the label).
 */
export function validateEvidence(
  source: string | Uint8Array,
  claims: EvidenceClaims | Claim[],
  config?: ValidationConfig | null,
  options?: ValidateOptions | null,
): ValidationReport;

/** {@link validateEvidence} for an `embed` that returns a Promise (rejects with an {@link EvidenceValidatorError}). */
export function validateEvidenceAsync(
  source: string | Uint8Array,
  claims: EvidenceClaims | Claim[],
  config?: ValidationConfig | null,
  options?: ValidateOptions | null,
): Promise<ValidationReport>;

/** One vector per text, in order, all of the same length. */
export type EmbeddingVectors = ArrayLike<number>[] | Float32Array[] | Float64Array[];

/**
 * Host callbacks of a validation. `embed` is the host's embedding model for
 * semantic matching (paraphrase, concept and section references): it gets
 * the document's chunks and the quotes in one call and returns their vectors
 * (cosine similarity against `semantic_matching.similarity_threshold`).
 * Without it, the lexical fallback is used (`semantic_method: "lexical"`).
 * A semantic match never validates a `direct_quote`.
 */
export interface ValidateOptions {
  embed?: (texts: string[]) => EmbeddingVectors | Promise<EmbeddingVectors>;
}

/** The library version. */
export function version(): string;
/** Parses JSON text strictly: a duplicate key throws an EvidenceValidatorError naming its path; a byte order mark is skipped. Where a scan shows `JSON.parse` gives the same value, `JSON.parse` parses it (object keys then in text order, else sorted). */
export function parseJson(text: string): JsonValue;
/** The default configuration, as the library applies it. */
export function defaultConfig(): DefaultConfig;
/** The bounds (inclusive) and default of one {@link SliceOptions} value. */
export interface SliceOptionBound {
  min: number;
  max: number;
  default: number;
}
/** The bounds and defaults of {@link SliceOptions} (`bytesPerStep`'s are also {@link DocumentBuilder.step}'s budget's), so that a host writes none of its own; outside them the library throws CONFIGURATION_ERROR. */
export interface SliceOptionBounds {
  claimsPerSlice: SliceOptionBound;
  bytesPerStep: SliceOptionBound;
}
/** The library's bounds and defaults of {@link SliceOptions}. */
export function sliceOptionBounds(): SliceOptionBounds;

/** A source document parsed and indexed once, validated against many times. */
export class Document {
  /** Parses `source`; `options.format` overrides format detection. */
  constructor(source: string, options?: DocumentOptions | null);
  /** Releases the wasm memory held by this document. */
  free(): void;
  [Symbol.dispose](): void;
  /** Validates claims against this document: the same report as `validateEvidence`. */
  validate(claims: EvidenceClaims | Claim[], config?: ValidationConfig | null, options?: ValidateOptions | null): ValidationReport;
  /**
   * {@link Document.validate} a bounded amount per step: `step()` until it
   * returns true, then `finish()` (no `embed`: semantic matching is lexical).
   */
  validateInSlices(claims: EvidenceClaims | Claim[], config?: ValidationConfig | null, options?: SliceOptions | null): SlicedValidation;
  /** {@link Document.validate} for an `embed` that returns a Promise. */
  validateAsync(claims: EvidenceClaims | Claim[], config?: ValidationConfig | null, options?: ValidateOptions | null): Promise<ValidationReport>;
  /** Every place `quote` occurs: exact matches, or fuzzy ones within `maxEditDistance` (default 3) when there is none. */
  find(quote: string, options?: FindOptions | null): FindResult;
  /** Finds annotations saved against an earlier version in this (edited) document: unchanged, moved, changed (fuzzy) or orphaned. */
  reanchor(annotations: SavedAnnotation[]): Reanchored[];
  /** The format used to read the source. */
  readonly format: SourceFormat;
  /** `document_metadata` of the report. */
  readonly metadata: DocumentMetadata;
  /** The sections, in order. */
  readonly sections: Section[];
}

/** How much one {@link SlicedValidation.step} does. Unknown keys and values out of range throw a CONFIGURATION_ERROR. */
export interface SliceOptions {
  /** Claims validated per step, 4 to 1000 (default 50). A slice holds more when it must: the uses of a repeated claim id stay in one slice, and no slice is left under 4 claims. */
  claimsPerSlice?: number;
  /** Source bytes read per step while the document is built, 1024 to 2^30 (default 65536). */
  bytesPerStep?: number;
}

/**
 * A {@link Document} built a bounded amount of source per step, for hosts
 * with one thread that serve others between steps: the same document as
 * `new Document(source, options)`.
 */
export class DocumentBuilder {
  /** The checks of `new Document(source, options)`; nothing is read yet. */
  constructor(source: string, options?: DocumentOptions | null);
  /** Releases the wasm memory held by this builder. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads about `budget` more source bytes (default 65536); true once the document is built. `budget` has the bounds of {@link SliceOptions.bytesPerStep}, a whole number from 1024 to 2^30: anything else throws the CONFIGURATION_ERROR it gives (`details.json_path` `$.budget`), never clamped. */
  step(budget?: number | null): boolean;
  /** The document (any steps left are done first); the builder is used up. */
  finish(): Document;
  /** The format the source is read as. */
  readonly format: SourceFormat;
}

/**
 * `validateEvidence` a bounded amount per step: the constructor makes the
 * same checks in the same order and throws the same errors; each `step()`
 * builds a part of the document, validates a slice of claims, or writes a
 * slice of the report's JSON text. The report is the one call's (its
 * timestamp aside). No `embed`: semantic matching is lexical.
 */
export class SlicedValidation {
  constructor(source: string | Uint8Array, claims: EvidenceClaims | Claim[], config?: ValidationConfig | null, options?: SliceOptions | null);
  /** Releases the wasm memory held by this validation. */
  free(): void;
  [Symbol.dispose](): void;
  /** Does the next step; true once the report's text is complete. */
  step(): boolean;
  /** Claims done so far (all of them once time ran out). */
  readonly claimsDone: number;
  /** The report as JSON text (the steps left are done first); the validation is used up. */
  finishJson(): string;
  /** The report (the steps left are done first); the validation is used up. */
  finish(): ValidationReport;
}

// @end-of-core: `evidence-validator/core` (the `wasm-core` build) declares what is above this line; scripts/build-pkg.mjs cuts the rest.

// ---------------------------------------------------------------------------
// The citation pipeline (spec 004 part 1: stages 1, 3, 5, 6 and the metrics).
// ---------------------------------------------------------------------------

/** Stage 1's ranking method. `semantic` and `hybrid` need `options.embed`; without it `keyword` stands in. */
export type CiteRelevanceMethod = "keyword" | "semantic" | "hybrid";
/** Stage 5's strategy. `keyword_semantic_hybrid` needs `options.embed`; without it `keyword` stands in. */
export type CiteCorrectionMethod = "keyword" | "keyword_semantic_hybrid";
/** The five-tier verdict of spec 004. */
export type CiteVerdict = "SUPPORTED" | "PARTIAL" | "UNSUPPORTED" | "CONTRADICTED" | "NEI";
/** Stage 3's buckets. */
export type CiteConfidenceLevel = "HIGH" | "MEDIUM" | "LOW";
/** Stage 5's actions. */
export type CiteAction = "KEEP" | "REPLACE" | "REMOVE" | "ADD_ALTERNATE";

/** The pipeline's configuration: Appendix B's toggles and each stage's settings (all optional; `citeDefaultConfig()` lists the defaults). Unknown keys throw a CONFIGURATION_ERROR naming their path. */
export interface CiteConfig {
  enable_evidence_preselection?: boolean;
  enable_interleaved_generation?: boolean;
  enable_confidence_classification?: boolean;
  enable_citation_correction?: boolean;
  enable_numeric_qa_verification?: boolean;
  enable_abstention?: boolean;
  enable_nei_verdict?: boolean;
  enable_verification_retrieval?: boolean;
  max_processing_time_seconds?: number;
  evidence_preselection?: {
    min_span_chars?: number;
    max_span_chars?: number;
    relevance_computation_method?: CiteRelevanceMethod;
    hybrid_weight?: number;
    numeric_content_boost?: number;
    relevance_threshold?: number;
    max_spans_per_source?: number;
    fallback_max_chars?: number;
  };
  confidence_classification?: {
    high_threshold?: number;
    low_threshold?: number;
    quote_match_bonus?: number;
    hedging_word_penalty?: number;
  };
  citation_correction?: {
    correction_method?: CiteCorrectionMethod;
    lambda_weight?: number;
    correction_threshold?: number;
    allow_alternate_citations?: boolean;
  };
  numeric_qa_verification?: {
    rounding_tolerance?: number;
    match_threshold?: number;
  };
  /** Stage 2 (part 2). */
  interleaved_generation?: {
    max_claims_per_section?: number;
    min_evidence_similarity?: number;
    entailment_threshold?: number;
  };
  /** Stage 4 (part 2). */
  isolated_verification?: {
    max_cove_questions?: number;
  };
  /** The bounds on the host's LLM calls (part 2): stage 4's calls by their claim's confidence tier (Part VI: 5 HIGH, 3 MEDIUM, 2 LOW at once, the tiers side by side), stages 2 and 6 by `max_in_flight` (4); each call at most `call_timeout_seconds`, shortened to the run's time left. */
  llm_calls?: {
    max_in_flight?: number;
    max_in_flight_high?: number;
    max_in_flight_medium?: number;
    max_in_flight_low?: number;
    call_timeout_seconds?: number;
    max_retries?: number;
  };
}

/** Every setting of {@link CiteConfig}, with its value. */
export type CiteDefaultConfig = {
  [K in keyof CiteConfig]-?: NonNullable<CiteConfig[K]> extends object ? Required<NonNullable<CiteConfig[K]>> : NonNullable<CiteConfig[K]>;
};

/** The pipeline's input. */
export interface CiteInput {
  query: string;
  sources: { id: string; title?: string | null; url?: string | null; content: string }[];
  claims: { text: string; citations?: string[] | null; verdict?: CiteVerdict | Lowercase<CiteVerdict> | null }[];
}

/** Where a span of a citation source is ({@link TextSpan}). */
export type CitePosition = TextSpan;

/** A span of the evidence pool (stage 1). */
export interface CiteEvidenceSpan {
  quote: string;
  source_id: string;
  source_title: string;
  source_url: string;
  relevance_score: number;
  has_numeric: boolean;
  /** Its place in the source's `content`. */
  position: CitePosition;
  truncated: boolean;
}

/** A signal of the confidence classifier that fired. */
export interface CiteSignal {
  signal: string;
  weight: number;
  matched: string[];
}

/** Stage 3's result for a claim. */
export interface CiteClaimConfidence {
  score: number;
  level: CiteConfidenceLevel;
  signals: CiteSignal[];
  /** false when the stage was off (every claim LOW, 0.3). */
  classified: boolean;
}

/** A span of the pool named by its index. */
export interface CiteSpanRef {
  span: number;
  source_id: string;
  score: number;
}

/** Stage 5's result for a claim. */
export interface CiteCorrection {
  action: CiteAction;
  citations_before: string[];
  citations_after: string[];
  current: CiteSpanRef | null;
  new_evidence: CiteSpanRef | null;
  verdict: CiteVerdict;
  verdict_source: "given" | "keyword_proxy" | "none";
}

/** The numeric components of one side (stage 6). */
export interface CiteNumericComponents {
  raw_value: string;
  normalized_value: number;
  normalized_range?: [number, number];
  unit: string | null;
  entity: string | null;
  time_period: string | null;
  derivation_type: "direct" | "derived";
  position: CitePosition;
}

/** Stage 6's result. */
export interface CiteNumericResult {
  method: "qa" | "text";
  verdict: "SUPPORTED" | "CONTRADICTED";
  match_score: number;
  value_score: number;
  claim: CiteNumericComponents;
  evidence: CiteNumericComponents | null;
  mismatches: { field: "entity" | "time_period" | "unit"; claim: string; evidence: string }[];
  derivation?: { operation: "sum" | "average"; inputs: string[]; value: number };
}

/** The pipeline's report. */
export interface CiteReport {
  evidence_pool: CiteEvidenceSpan[];
  relevance_method_used: CiteRelevanceMethod | "none";
  candidate_spans: number;
  correction_method_used: CiteCorrectionMethod | "none";
  claims: {
    text: string;
    confidence: CiteClaimConfidence;
    correction: CiteCorrection;
    numeric: CiteNumericResult | null;
  }[];
  stages: {
    evidence_preselection: boolean;
    confidence_classification: boolean;
    citation_correction: boolean;
    numeric_qa_verification: boolean;
  };
}

/** The input of {@link citeMetrics}: any of its parts. */
export interface CiteMetricsInput {
  ranking?: { relevance: number[][]; k: number };
  binary?: { y_true: (0 | 1 | boolean)[]; y_score: number[] };
  classes?: { y_true: (string | number)[]; y_pred: (string | number)[] };
  raters?: { a: (string | number)[]; b: (string | number)[] };
  calibration?: { confidence: number[]; correct: (0 | 1 | boolean)[]; bins?: number };
  citations?: { predicted: (string | number)[][]; gold: (string | number)[][] };
}

/** The metrics of the parts given (scikit-learn's definitions where it has them). `brier` only when every `y_score` is in [0, 1]. */
export interface CiteMetricsReport {
  precision_at_k?: number;
  recall_at_k?: number;
  f1_at_k?: number;
  ndcg_at_k?: number;
  auroc?: number;
  brier?: number;
  macro_f1?: number;
  cohen_kappa?: number;
  ece?: number;
  citation_precision?: number;
  citation_recall?: number;
  citation_f1?: number;
}

/** Host callbacks of {@link cite}: `embed` as for validation (synchronous only; use {@link citeAsync} for one that returns a Promise). */
export interface CiteOptions {
  embed?: (texts: string[]) => EmbeddingVectors;
}

/** Host callbacks of {@link citeAsync}: `embed` may return a Promise; it is called at most once, with every text the pipeline will embed. */
export interface CiteAsyncOptions {
  embed?: (texts: string[]) => EmbeddingVectors | Promise<EmbeddingVectors>;
}

/** Runs the citation pipeline's deterministic stages (1, 3, 5, 6) on `input`. Throws an EvidenceValidatorError on bad input. */
export function cite(input: CiteInput, config?: CiteConfig | null, options?: CiteOptions | null): CiteReport;
/** {@link cite} for an asynchronous `embed`: the same report. Rejects with an EvidenceValidatorError on bad input, and with a PROCESSING_ERROR naming embed when `embed` throws, rejects or returns the wrong number of vectors. */
export function citeAsync(input: CiteInput, config?: CiteConfig | null, options?: CiteAsyncOptions | null): Promise<CiteReport>;
/** Stage 6 on two texts: the claim's number against the evidence's. Throws a VALIDATION_ERROR when the claim holds no number. */
export function citeNumeric(claim: string, evidence: string, config?: CiteConfig | null): CiteNumericResult;
/** Evaluation metrics of the parts of `input` given. */
export function citeMetrics(input: CiteMetricsInput): CiteMetricsReport;
/** The pipeline's default configuration. */
export function citeDefaultConfig(): CiteDefaultConfig;

/** The input of {@link citePipeline}: {@link CiteInput} (claims given skip stage 2; `claims: []` lets the host's `generate` write them) and stage 2's section outline. */
export interface CitePipelineInput extends CiteInput {
  outline?: string[] | null;
}

/** What an LLM request asks. */
export type CiteRequestKind = "generate" | "draft" | "verify" | "cove_questions" | "cove_answer" | "cove_compare" | "numeric_qa";

/** One LLM request: a single user message built from fixed instructions and exactly the text its stage may see (a verify request: the claim and its evidence only). */
export interface CiteLlmRequest {
  id: number;
  kind: CiteRequestKind;
  callback: "generate" | "verify" | "qa";
  /** The claim it is about (its index), or null (stage 2). */
  claim: number | null;
  /** Stage 4: the claim's confidence tier (HIGH asks the spec's quick check, for a fast model), which sets how many such calls run at once; null for stages 2 and 6. */
  confidence: CiteConfidenceLevel | null;
  /** 1, then 2 for the first retry, … */
  attempt: number;
  prompt: string;
  max_tokens: number;
  /** The host's AbortSignal, when it gave one (to pass on to fetch). */
  signal?: AbortSignal;
}

/** An LLM callback: the answer's text (or a Promise of it). A throw, a rejection or a timeout is retried up to `llm_calls.max_retries` times. */
export type CiteLlmCallback = (request: CiteLlmRequest) => string | Promise<string>;

/** A claim produced (stage 2, or read from the input). */
export interface CiteClaimEvent {
  event: "claim";
  index: number;
  text: string;
  citations: string[];
  section?: string;
}

/** A claim's stage 4 ended (again, for a claim whose evidence stage 5 replaced). */
export interface CiteVerifiedEvent {
  event: "verified";
  index: number;
  verdict: CiteVerdict | null;
  abstained: boolean;
  method: CiteVerificationMethod;
}

/** What the pipeline streams. */
export type CiteEvent = CiteClaimEvent | CiteVerifiedEvent;

/** The host of {@link citePipeline}: without `verify` (and `qa`) stage 4 is the deterministic verifier; without `generate` the input must hold claims. */
export interface CiteHost {
  /** Stage 2: writes claims. */
  generate?: CiteLlmCallback | null;
  /** Stage 4: judges a claim against its evidence, in isolation. */
  verify?: CiteLlmCallback | null;
  /** Stage 6: answers one question from one text (`verify` stands in when absent). */
  qa?: CiteLlmCallback | null;
  /** Embeds texts (as {@link citeAsync}'s `embed`): asked for stage 1's candidate spans and the query (`semantic` or `hybrid` relevance), then for the claims and spans not embedded yet (stage 3's similarity signal, stage 5's hybrid). A throw, a rejection or a malformed answer rejects the run with a PROCESSING_ERROR naming embed. */
  embed?: ((texts: string[]) => EmbeddingVectors | Promise<EmbeddingVectors>) | null;
  /** Each claim and verdict as they come. */
  onClaim?: ((event: CiteEvent) => void) | null;
  /** Cancels the run: checked before each call; the run rejects with a PROCESSING_ERROR. */
  signal?: AbortSignal | null;
}

export type CiteVerificationMethod = "quick" | "standard" | "full_cove" | "deterministic" | "no_evidence";

/** One question with its answers. */
export interface CiteQaPair {
  question: string;
  evidence_answer: string;
  claim_answer?: string;
  agree?: boolean;
}

/** A claim of the final assembly. */
export interface CiteVerifiedClaim {
  text: string;
  confidence: CiteClaimConfidence;
  correction: CiteCorrection;
  numeric: CiteNumericResult | null;
  /** The final verdict (stage 4, lowered by stage 6); null when abstained without one. */
  verdict: CiteVerdict | null;
  abstained: boolean;
  section?: string;
  /** The cited spans after correction. */
  evidence: { source_id: string; quote: string; position: CitePosition }[];
  verification: {
    verifier: "llm" | "deterministic";
    method: CiteVerificationMethod;
    evidence: string | null;
    verdict: CiteVerdict | null;
    /** The first verification, against the evidence stage 5 replaced. */
    initial?: { verdict: CiteVerdict | null; reason: string };
    raw_verdict: CiteVerdict | null;
    abstained: boolean;
    reason: string;
    qa?: CiteQaPair[];
  };
  numeric_qa?: { verdict: CiteVerdict; match_score: number; qa: CiteQaPair[] };
}

/** The report of {@link citePipeline}. */
export interface CitePipelineReport {
  evidence_pool: CiteEvidenceSpan[];
  relevance_method_used: CiteRelevanceMethod | "none";
  correction_method_used: CiteCorrectionMethod | "none";
  generation: {
    mode: "interleaved" | "generate_then_cite" | "input";
    sections: string[];
    dropped: { section: string; source_id: string; text: string; reason: string }[];
  };
  claims: CiteVerifiedClaim[];
  /** The spec's end-to-end metrics. */
  summary: {
    claims: number;
    supported: number;
    partial: number;
    unsupported: number;
    contradicted: number;
    nei: number;
    abstained: number;
    corrected: number;
    unsupported_rate: number;
    contradicted_rate: number;
    nei_rate: number;
    correction_rate: number;
    abstention_rate: number;
    llm_calls: number;
    retries: number;
    failed_calls: number;
    p95_call_ms: number;
  };
  warnings: string[];
  stages: {
    evidence_preselection: boolean;
    interleaved_generation: boolean;
    confidence_classification: boolean;
    verifier: "llm" | "deterministic";
    citation_correction: boolean;
    numeric_qa_verification: boolean;
    nei_verdict: boolean;
    abstention: boolean;
  };
}

/** The whole citation pipeline (spec 004): stage 1 with `host.embed` when given, stage 2 through `host.generate` (when the input has no claims), stage 4 isolated through `host.verify` (at most `llm_calls.max_in_flight_high` / `_medium` / `_low` calls at once per confidence tier), stage 6's questions through `host.qa` (at most `llm_calls.max_in_flight`). Rejects with an EvidenceValidatorError on bad input, a passed time limit or cancellation. */
export function citePipeline(input: CitePipelineInput, config?: CiteConfig | null, host?: CiteHost | null): Promise<CitePipelineReport>;
/** {@link citePipeline} as an async iterator: each claim as produced, each verdict, then the report. */
export function citeStream(input: CitePipelineInput, config?: CiteConfig | null, host?: CiteHost | null): AsyncIterableIterator<CiteEvent | { event: "report"; report: CitePipelineReport }>;
