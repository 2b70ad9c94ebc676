/**
 * src/costs: outcome kinds weighed by cost, expected cost per document, recall / precision /
 * hallucination rate with Wilson intervals, and the exchange-rate sweep with exact crossings.
 */
export { wilsonInterval, type WilsonResult, type WilsonOptions } from './wilson.js';
export { tallyOutcomes, emptyOutcomeCounts, type OutcomeCounts, type OutcomeTally, type TallyOptions } from './tally.js';
export { outcomeRates, type OutcomeRate, type OutcomeRates } from './rates.js';
export {
  lineCrossings,
  pairCrossing,
  type CostLine,
  type PairCrossing,
  type Crossing,
  type RankingInterval,
  type LineCrossingsOptions,
  type LineCrossingsResult,
} from './crossings.js';
export { costSweep, totalCostLines, checkPolicyCovers, type ModelCost, type CostSweepOptions, type CostSweepResult } from './sweep.js';
export { sweepUncertainty, type SweepUncertainty, type SweepUncertaintyOptions, type CostGap, type CrossingInterval } from './uncertainty.js';
export { compareScorings, bandRankings, type ScoringComparison, type ChangedOutcomes } from './alternative.js';
