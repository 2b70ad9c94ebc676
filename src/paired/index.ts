/**
 * src/paired: paired statistics that are not resampling: score intervals for paired proportions
 * (Newcombe, Tango) and the exact score test, McNemar, Student t, CR2 and cluster-robust standard errors,
 * the betting interval, Holm, the `auto` method choice and all-pairs model comparison.
 */
export { tInterval } from './t-interval.js';
export { mcnemarTest, mcnemarFromCounts } from './mcnemar.js';
export { holmAdjust } from './holm.js';
export { compareModels, compareModelsParallel, type PairComparison, type CompareModelsResult } from './compare-models.js';
export { clusteredStandardError, type ClusteredStandardErrorResult } from './clustered-se.js';
export { chooseIntervalMethod, AUTO_BCA_MIN_ITEMS, type AutoMethodUsed, type IntervalMethodChoice, type ChooseIntervalMethodData, type ChooseIntervalMethodOptions } from './choose-method.js';
export { exactScoreNonInferiority, type ExactScoreOptions, type ExactScoreResult } from './exact-score.js';
export { pairedProportionInterval, pairedCounts, pairedItemsNeeded, pairedProportionBounds, tangoStatistic, PAIRED_PROPORTION_METHODS, type PairedProportionMethod, type PairedCounts, type PairedProportionOptions, type PairedProportionResult } from './paired-proportion.js';
export { cr2Interval, cr2StratifiedInterval, type Cr2Options, type Cr2StratifiedOptions, type Cr2Result } from './cr2.js';
export { autoPairedInterval, type AutoIntervalOptions, type AutoIntervalResult } from './auto-interval.js';
export { bettingInterval, type BettingIntervalOptions, type BettingIntervalResult } from './betting-interval.js';
export { sampleSkewness, cochranMinimumItems, COCHRAN_FACTOR } from './skewness.js';
export { collapseSmallStrata, COLLAPSE_MIN_ITEMS, type CollapsedStrata } from './collapse-strata.js';
