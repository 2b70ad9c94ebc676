/**
 * src/bootstrap: the resampling engine: paired / cluster / stratified bootstrap intervals (percentile,
 * basic, BCa, studentized), the sign-flip permutation test, the worker pool and its kernels.
 * Conventions are scipy.stats.bootstrap's; see each function's JSDoc. Analytic paired statistics are in
 * src/paired, the non-inferiority gate and its verdicts in src/gate.
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
export { signFlipTest } from './sign-flip.js';
export { rescaledStratumValues, studentizedBootstrap, studentizedFromResamples, type StudentizedOptions, type StudentizedResult } from './studentized.js';
