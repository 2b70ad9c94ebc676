/**
 * src/bootstrap: paired / cluster / stratified bootstrap intervals (percentile, basic, BCa, t),
 * the sign-flip permutation test, McNemar, Holm, and all-pairs model comparison.
 * Conventions are scipy.stats.bootstrap's; see each function's JSDoc.
 */
export {
  type IntervalMethod,
  type Alternative,
  type BootstrapOptions,
  type ParallelBootstrapOptions,
  type BootstrapResult,
  type TIntervalOptions,
  type TIntervalResult,
  type McNemarOptions,
  type McNemarResult,
  type SignFlipOptions,
  type SignFlipResult,
  type CompareModelsOptions,
  type CompareMethod,
  type ParallelCompareModelsOptions,
  INTERVAL_METHODS,
  COMPARE_METHODS,
  ALTERNATIVE_HYPOTHESES,
} from './types.js';
export { bootstrapMean, bootstrapMeanDifference } from './mean.js';
export { bootstrapStatistic } from './statistic.js';
export { bootstrapMeanParallel, bootstrapMeanDifferenceParallel } from './parallel.js';
export { tInterval } from './t-interval.js';
export { mcnemarTest, mcnemarFromCounts } from './mcnemar.js';
export { signFlipTest } from './sign-flip.js';
export { holmAdjust } from './holm.js';
export { compareModels, compareModelsParallel, type PairComparison, type CompareModelsResult } from './compare-models.js';
export { clusteredStandardError, type ClusteredStandardErrorResult } from './clustered-se.js';
export { nonInferiorityFromScores, nonInferiorityGate, reasonNumber, GATE_METHODS, type GateMethod, type NonInferiorityOptions, type NonInferiorityData, type NonInferiorityCheck, type NonInferiorityResult, type NonInferiorityGateOptions } from './gate.js';
export { gateVerdict, combineVerdicts, verdictExitCode, GATE_VERDICTS, VERDICT_EXIT_CODES, type GateVerdict, type VerdictBounds } from './verdict.js';
export { chooseIntervalMethod, AUTO_BCA_MIN_ITEMS, type AutoMethodUsed, type IntervalMethodChoice, type ChooseIntervalMethodData, type ChooseIntervalMethodOptions } from './choose-method.js';
export { exactScoreNonInferiority, type ExactScoreOptions, type ExactScoreResult } from './exact-score.js';
export { pairedProportionInterval, pairedCounts, pairedItemsNeeded, pairedProportionBounds, tangoStatistic, PAIRED_PROPORTION_METHODS, type PairedProportionMethod, type PairedCounts, type PairedProportionOptions, type PairedProportionResult } from './paired-proportion.js';
export { cr2Interval, cr2StratifiedInterval, type Cr2Options, type Cr2StratifiedOptions, type Cr2Result } from './cr2.js';
export { autoPairedInterval, type AutoIntervalOptions, type AutoIntervalResult } from './auto-interval.js';
export { rescaledStratumValues, studentizedBootstrap, studentizedFromResamples, type StudentizedOptions, type StudentizedResult } from './studentized.js';
export { bettingInterval, type BettingIntervalOptions, type BettingIntervalResult } from './betting-interval.js';
export { sampleSkewness, cochranMinimumItems, COCHRAN_FACTOR } from './skewness.js';
export { collapseSmallStrata, COLLAPSE_MIN_ITEMS, type CollapsedStrata } from './collapse-strata.js';
