import { studentTCdf, studentTQuantile } from '../distributions/index.js';
import { checkAlternative, checkConfidenceLevel, finiteValues } from '../bootstrap/settings.js';
import type { Alternative, TIntervalOptions, TIntervalResult } from '../bootstrap/types.js';

/**
 * The Student t confidence interval and test for a mean, e.g. of paired differences A − B:
 * estimate ± t(df, 1 − alpha) · SE with SE = sd(x, ddof 1) / √n and df = n − 1, where
 * alpha = (1 − confidenceLevel) / 2 two-sided and 1 − confidenceLevel one-sided.
 * Under normal differences its coverage is exact; it is the analytic yardstick beside the bootstrap.
 * Reference: scipy `ttest_rel(a, b, alternative=…).confidence_interval(confidence_level)` (equivalently
 * `ttest_1samp(a − b, 0)`); R `t.test(a, b, paired = TRUE)`.
 * @param x the values (for a paired comparison, the differences), finite, at least two.
 * @returns estimate, confidenceInterval, standardError, df, tStatistic (estimate / SE), pValue of
 *   H0 mean = 0 against `alternative`, confidenceLevel, alternative, n, warnings (zero spread).
 * @throws {RangeError} on fewer than two values, non-finite values, a level outside (0, 1).
 * @example tInterval([1, 2, 3, 4]).confidenceInterval // => [0.44573974323947896, 4.5542602567605215]
 */
export function tInterval(x: ArrayLike<number>, options: TIntervalOptions = {}): TIntervalResult {
  const values = finiteValues('x', x);
  const n = values.length;
  if (n < 2) throw new RangeError(`a t interval needs at least two values (got ${n})`);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    squares += d * d;
  }
  const standardError = Math.sqrt(squares / (n - 1) / n);
  return tIntervalFromStandardError(mean, standardError, n - 1, n, checkConfidenceLevel(options.confidenceLevel), checkAlternative(options.alternative));
}

/**
 * The t interval and test from an estimate, its standard error and degrees of freedom (used for
 * clustered and stratified standard errors too).
 */
export function tIntervalFromStandardError(estimate: number, standardError: number, df: number, n: number, confidenceLevel: number, alternative: Alternative): TIntervalResult {
  const warnings: string[] = [];
  const alpha = alternative === 'two-sided' ? (1 - confidenceLevel) / 2 : 1 - confidenceLevel;
  const q = df > 0 ? studentTQuantile(1 - alpha, df) : NaN;
  const halfWidth = standardError === 0 ? 0 : q * standardError;
  let low = estimate - halfWidth;
  let high = estimate + halfWidth;
  if (alternative === 'less') low = -Infinity;
  else if (alternative === 'greater') high = Infinity;
  const tStatistic = estimate / standardError;
  let pValue: number;
  if (Number.isNaN(tStatistic) || !(df > 0)) pValue = NaN;
  else if (alternative === 'two-sided') pValue = Math.min(1, 2 * studentTCdf(-Math.abs(tStatistic), df));
  else if (alternative === 'less') pValue = studentTCdf(tStatistic, df);
  else pValue = studentTCdf(-tStatistic, df);
  if (standardError === 0) warnings.push('every value is the same: the standard error is 0, so the interval is the single point estimate');
  if (!(df > 0)) warnings.push(`the t interval needs at least one degree of freedom (got ${df})`);
  return { estimate, confidenceInterval: [low, high], standardError, df, tStatistic, pValue, confidenceLevel, alternative, n, warnings };
}
