/**
 * Recall domain library: confidence, hybrid merge, selector block and wire schemas.
 * Pure TypeScript, no I/O (DESIGN §3). See spec/recall-confidence.md.
 */
export {
  computeConfidence,
  toWireConfidence,
  backgroundMeanFromProminence,
  triageAdvice,
  levelRank,
  LEVELS,
  MAX_POOL_SCORES,
  MAX_ABS_SCORE,
  RATIONALE_EMPTY,
  RATIONALE_SINGLE,
  type Level,
  type Basis,
  type ConfidenceInput,
  type ConfidenceResult,
  type RecallConfidenceBlock,
  type TraceStep,
  type TraceRule,
  type TriageAdvice,
  type TriageVerdict,
} from "./confidence";
export {
  DEFAULT_THRESHOLDS,
  DEFAULT_PROFILE_NAME,
  CUSTOM_PROFILE_NAME,
  THRESHOLD_KEYS,
  THRESHOLD_RANGES,
  ThresholdsOverrideSchema,
  ThresholdsProfileSchema,
  resolveThresholds,
  validateThresholds,
  type Thresholds,
  type ThresholdKey,
  type ThresholdsOverride,
} from "./thresholds";
export {
  mergeHybrid,
  buildCandidatePool,
  confidenceInputFromPool,
  fetchSize,
  candidatesK,
  armsForMode,
  DEFAULT_HYBRID_WEIGHTS,
  MAX_FETCH_SIZE,
  type ArmHit,
  type HybridWeights,
  type MergedCandidate,
  type PoolCandidate,
  type ScoredCandidate,
  type SearchMode,
  type BuildPoolOptions,
  type CandidatesKOptions,
} from "./merge";
export {
  selectorApplied,
  selectorNotApplied,
  serializeSelector,
  parseSelector,
  isCompleteSelector,
  SelectorBlockSchema,
  SelectorWireSchema,
  MAX_DROPPED_IDS,
  type SelectorBlock,
  type SelectorApplied,
  type SelectorNotApplied,
  type IngestedSelectorBlock,
} from "./selector";
export * from "./schemas";
export { explainStep, explainTrace } from "./explain";
export { round3, format2, formatFixed, roundHalfEven, fsum, fmean, pstdev } from "./numeric";
export {
  RecallInputError,
  ThresholdsError,
  isRecallInputError,
  MAX_LISTED_ISSUES,
  type RecallIssue,
  type RecallIssuePath,
  type RecallErrorCode,
  type RecallErrorDetails,
} from "./errors";
