/**
 * src/strata: allocating a selection set by stratum (quota, proportional, Neyman, cost-optimal,
 * bounds by recursive Neyman, whole items by largest remainder), what each allocation buys,
 * per-stratum discordance and scores, and the traffic-reweighted headline.
 */
export { StratumRangeError } from './errors.js';
export { boundedAllocation, type BoundedAllocation } from './bounded-allocation.js';
export { largestRemainder } from './largest-remainder.js';
export {
  ALLOCATION_METHODS,
  allocateSample,
  allocationTargets,
  type AllocationMethod,
  type AllocationStratum,
  type AllocationOptions,
  type StratumAllocation,
  type AllocationResult,
} from './allocate.js';
export { compareAllocations, type CompareAllocationsOptions, type AllocationTradeoff, type CompareAllocationsResult } from './compare-allocations.js';
export { stratumDiscordance, allocationSds, type StratifiedPairs, type StratumDiscordance, type DiscordanceResult } from './discordance.js';
export { stratumScores, type StratumScore, type StratumScoresOptions, type StratumScoresResult } from './stratum-scores.js';
export { reweightedHeadline, type StratumWeight, type StratumSummary, type ReweightedHeadline, type ReweightedHeadlineOptions } from './headline.js';
export {
  weightedProportionInterval,
  STRATUM_INTERVAL_METHODS,
  HEADLINE_INTERVAL_METHODS,
  type StratumIntervalMethod,
  type HeadlineIntervalMethod,
  type WeightedProportionInput,
  type WeightedProportionInterval,
} from './proportion-interval.js';
export {
  stratifiedHeadlines,
  type StratifiedModelScores,
  type StratifiedHeadlinesOptions,
  type ModelHeadline,
  type HeadlineDifference,
  type StratifiedHeadlinesResult,
} from './headlines.js';
export { smallStrataVariance, SMALL_STRATUM_ITEMS, type SmallStrataInput, type SmallStrataPart, type SmallStrataVariance, type SmallStrataOptions } from './small-strata-variance.js';
export { smallStrataInterval, type SmallStrataIntervalOptions, type SmallStrataIntervalResult } from './small-strata-interval.js';
