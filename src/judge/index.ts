/**
 * src/judge: prediction-powered inference (PPI++) — an LLM judge's scores on every item plus
 * human labels on a random subset give a valid interval, narrower the better the judge tracks
 * the humans.
 */
export { sampleMean, populationVariance, populationCovariance } from './moments.js';
export { powerTuningLambda } from './power-tuning.js';
export { ppiMean, type PpiMeanOptions, type PpiMeanResult } from './ppi-mean.js';
export { stratifiedPpiMean, PPI_MIN_STRATUM_LABELS, type PpiStratum, type StratifiedPpiOptions, type StratifiedPpiResult } from './stratified-ppi.js';
export { labelledSubsetCheck, type LabelledSubsetCheck } from './subset-check.js';
export { judgedComparison, NotRandomSubsetError, type JudgedItem, type JudgedComparisonOptions, type JudgedComparisonResult } from './judged-comparison.js';
export { judgedItemsFromPool } from './judged-items.js';
export { judgeHumanCorrelation } from './correlation.js';
