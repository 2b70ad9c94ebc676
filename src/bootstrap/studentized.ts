import { createRng, type Seed } from '../random/index.js';
import { sortedQuantile, type QuantileRule } from './quantile.js';
import { checkAlternative, checkConfidenceLevel, finiteValues, seedText } from './settings.js';
import type { Alternative } from './types.js';

const TWO_32 = 4294967296;
const HUGE = 1e300;

/**
 * A quantile that touched a ±HUGE stand-in is that infinity: interpolation gives it a weight of at
 * least about 1/B, so anything beyond 1e250 came from one (finite t* are far below it).
 */
function infinite(q: number): number {
  return q >= 1e250 ? Infinity : q <= -1e250 ? -Infinity : q;
}

/** Settings of studentizedBootstrap. */
export interface StudentizedOptions {
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default `'two-sided'`. */
  alternative?: Alternative;
  /** Bootstrap resamples B; default 9999. */
  nResamples?: number;
  /** Default 0; the resampling stream is `${seed}:studentized`. */
  seed?: Seed;
  /** Per value its stratum index (0 … H − 1): resample within strata, stratum sizes fixed. */
  strata?: ArrayLike<number> | null;
  /** How the quantiles of t* are read; default `linear` (numpy); `boot` is R boot's, to compare with R. */
  quantileRule?: QuantileRule;
  /**
   * Resample each stratum's values rescaled about their mean, ỹ = ȳ_h + √(n_h/(n_h − 1))·(y − ȳ_h)
   * (rescaledStratumValues), so that the bootstrap world's variance of the stratified mean is the
   * data's se² exactly instead of Σ_h W_h² s_h² (n_h − 1)/n_h²; the estimate and se of the data are
   * unchanged. Matters only with small strata (one stratum: t* is scale-free, the interval is the
   * same). Default false; `auto` turns it on with strata.
   */
  rescale?: boolean;
}

/** The studentized (bootstrap-t) interval for a mean, with what produced it. */
export interface StudentizedResult {
  method: 'studentized';
  /** The mean (with strata: Σ_h W_h ȳ_h, W_h = n_h / n, which is the plain mean). */
  estimate: number;
  /** √(Σ_h W_h² s_h² / n_h) (one stratum: s / √n). */
  standardError: number;
  confidenceInterval: [number, number];
  confidenceLevel: number;
  alternative: Alternative;
  nResamples: number;
  seed: string;
  n: number;
  nStrata: number;
  /** Resamples whose own SE was 0 (t* taken as ±∞, or 0 when the resampled mean equals the estimate). */
  zeroSpreadResamples: number;
  warnings: string[];
}

/**
 * The studentized bootstrap interval from the resampled estimates and standard errors:
 *   t*_b = (θ*_b − θ̂) / se*_b,   interval [θ̂ − se · q(1 − α), θ̂ − se · q(α)],
 * q the quantiles of t* (α = (1 − level)/2 two-sided, 1 − level one-sided: one end infinite).
 * A resample with se*_b = 0 gets t* = +∞ or −∞ by the sign of θ*_b − θ̂ (0 when equal): the limit
 * of a vanishing SE, so such resamples push the quantiles outward rather than being dropped.
 * Reference: Efron & Tibshirani (1993) §12.5; R `boot.ci(b, type = "stud")` (var.t in column 2),
 * which reads quantiles by `norm.inter` (quantileRule `boot`).
 * @param estimate θ̂. @param standardError se of θ̂ (the data's own).
 * @param estimates θ*_b. @param standardErrors se*_b, same length.
 * @returns [low, high].
 * @example studentizedFromResamples(0, 1, [-1, 0, 1], [1, 1, 1], 0.5, 'two-sided', 'linear') // => [-0.5, 0.5]
 */
export function studentizedFromResamples(
  estimate: number,
  standardError: number,
  estimates: ArrayLike<number>,
  standardErrors: ArrayLike<number>,
  confidenceLevel: number,
  alternative: Alternative,
  quantileRule: QuantileRule = 'linear',
): [number, number] {
  const B = estimates.length;
  if (standardErrors.length !== B) throw new RangeError(`estimates and standardErrors must have the same length (got ${B} and ${standardErrors.length})`);
  const t = new Float64Array(B);
  for (let k = 0; k < B; k++) {
    const diff = estimates[k] - estimate;
    const se = standardErrors[k];
    // ±∞ is stood in for by ±HUGE so that interpolating next to it stays infinite instead of NaN.
    t[k] = se > 0 ? diff / se : diff > 0 ? HUGE : diff < 0 ? -HUGE : 0;
  }
  t.sort();
  const alpha = alternative === 'two-sided' ? (1 - confidenceLevel) / 2 : 1 - confidenceLevel;
  const qLow = infinite(sortedQuantile(t, alpha, quantileRule));
  const qHigh = infinite(sortedQuantile(t, 1 - alpha, quantileRule));
  let low = estimate - standardError * qHigh;
  let high = estimate - standardError * qLow;
  if (standardError === 0) {
    low = estimate;
    high = estimate;
  }
  if (alternative === 'less') low = -Infinity;
  else if (alternative === 'greater') high = Infinity;
  return [low, high];
}

/**
 * The studentized (bootstrap-t) confidence interval for a mean, optionally stratified (values
 * resampled within their strata, stratum sizes fixed). Each resample is studentized by its own
 * standard error, so the interval follows the skewness of the data's mean (a long right tail
 * gives a longer upper arm), which the t interval ignores: second-order accurate (Hall 1988), where
 * t and percentile are first-order. Use it for a mean of skewed, unbounded scores; its price is a
 * wider and more variable interval at small n.
 *   θ̂ = Σ_h W_h ȳ_h, se² = Σ_h W_h² s_h² / n_h (W_h = n_h / n; s_h² with divisor n_h − 1; a
 *   one-value stratum contributes 0), and per resample the same on the resampled values; then
 *   studentizedFromResamples.
 * Reference: Efron & Tibshirani, "An Introduction to the Bootstrap" (1993) §12.5; Hall (1988)
 * Ann. Statist. 16:927; R `boot.ci(boot(x, function(x, i) c(mean(x[i]), var(x[i]) / length(i)),
 * R = B, strata = h), type = "stud")`.
 * Cost: O(B · n) time, O(B) memory.
 * @param x the values (for a paired comparison, the differences a − b), finite, at least two.
 * With `rescale`, each stratum's resamples draw from its values rescaled by √(n_h/(n_h − 1)) about
 * their mean (Bickel & Freedman 1984, Ann. Statist. 12:470: without the scaling the stratified
 * bootstrap's variance is biased by (n_h − 1)/n_h, which matters in strata of a few items; Rao & Wu
 * 1988, JASA 83:231): bench/strata-variants-study.txt.
 * @param options confidenceLevel, alternative, nResamples, seed, strata, quantileRule, rescale.
 * @returns method, estimate, standardError, confidenceInterval, the settings, n, nStrata,
 *   zeroSpreadResamples, warnings (every value equal; a stratum with one value).
 * @throws {RangeError} for fewer than two values, non-finite values, bad settings, strata of the wrong length.
 * @example studentizedBootstrap([0.1, 0.4, 0.2, 2.5, 0.3, 0.2], { nResamples: 999 }).confidenceInterval[1] > 1.2 // => true (the long right arm)
 */
export function studentizedBootstrap(x: ArrayLike<number>, options: StudentizedOptions = {}): StudentizedResult {
  const values = finiteValues('x', x);
  const n = values.length;
  if (n < 2) throw new RangeError(`a studentized bootstrap needs at least two values (got ${n})`);
  const confidenceLevel = checkConfidenceLevel(options.confidenceLevel);
  const alternative = checkAlternative(options.alternative);
  const nResamples = options.nResamples ?? 9999;
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${String(nResamples)})`);
  const seed = seedText(options.seed);
  const strata = options.strata ?? null;
  if (strata !== null && strata.length !== n) throw new RangeError(`strata must have one entry per value (got ${strata.length} for ${n})`);
  // Group the values by stratum (first-seen order of the stratum indices does not matter: sorted).
  const labels = strata === null ? [0] : [...new Set(Array.from(strata))].sort((p, q) => p - q);
  const groups = labels.map((h) => (strata === null ? values : Float64Array.from(Array.from(values).filter((_, i) => strata[i] === h))));
  // What the resamples draw from: the values themselves, or (rescale) each stratum's values rescaled about its mean.
  const pools = options.rescale === true ? groups.map(rescaledStratumValues) : groups;
  const weights = groups.map((g) => g.length / n);
  const warnings: string[] = [];
  const single = labels.filter((_, k) => groups[k].length < 2);
  if (single.length > 0) warnings.push(`${single.length} stratum${single.length === 1 ? '' : 's'} with a single value: its variance is unknown and counted as 0, so the standard error is too small`);

  const [estimate, standardError] = stratifiedMeanAndSe(groups, weights);
  const rng = createRng(seed, 'studentized');
  // The generator state lives in locals for the hot loop (xoshiro128**, as in resample.ts); an
  // index in [0, m) is Lemire's multiply-shift with rejection of the 2^32 mod m low values (unbiased).
  let s0 = rng.s0;
  let s1 = rng.s1;
  let s2 = rng.s2;
  let s3 = rng.s3;
  const estimates = new Float64Array(nResamples);
  const standardErrors = new Float64Array(nResamples);
  let zeroSpreadResamples = 0;
  for (let k = 0; k < nResamples; k++) {
    let est = 0;
    let variance = 0;
    for (let h = 0; h < pools.length; h++) {
      const g = pools[h];
      const m = g.length;
      // One pass: the resampled values' sum and sum of squares about the stratum's own mean (shift for accuracy).
      const shift = g[0];
      const threshold = TWO_32 % m;
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < m; i++) {
        let index: number;
        for (;;) {
          const y = Math.imul(s1, 5);
          const r = Math.imul((y << 7) | (y >>> 25), 9) >>> 0;
          const t = s1 << 9;
          s2 ^= s0;
          s3 ^= s1;
          s1 ^= s2;
          s0 ^= s3;
          s2 ^= t;
          s3 = (s3 << 11) | (s3 >>> 21);
          const p = r * m;
          index = Math.floor(p / TWO_32);
          if (p - index * TWO_32 >= threshold) break;
        }
        const v = g[index] - shift;
        sum += v;
        squares += v * v;
      }
      const mean = sum / m;
      est += weights[h] * (mean + shift);
      if (m > 1) variance += (weights[h] * weights[h] * Math.max(0, (squares - m * mean * mean) / (m - 1))) / m;
    }
    estimates[k] = est;
    standardErrors[k] = Math.sqrt(variance);
    if (!(standardErrors[k] > 0)) zeroSpreadResamples += 1;
  }
  if (standardError === 0) warnings.push('every value is the same: the standard error is 0, so the interval is the single point estimate');
  const confidenceInterval = studentizedFromResamples(estimate, standardError, estimates, standardErrors, confidenceLevel, alternative, options.quantileRule ?? 'linear');
  return { method: 'studentized', estimate, standardError, confidenceInterval, confidenceLevel, alternative, nResamples, seed, n, nStrata: groups.length, zeroSpreadResamples, warnings };
}

/**
 * One stratum's values rescaled about their mean so that their variance with divisor n equals the
 * sample variance s² (divisor n − 1) of the values: ỹ_i = ȳ + √(n/(n − 1))·(y_i − ȳ). The resampling
 * population of the rescaled stratified bootstrap (Bickel & Freedman 1984; Rao & Wu 1988). A single
 * value is returned as it is.
 * @param values one stratum's values.
 * @returns the rescaled values, same order.
 * @example rescaledStratumValues([0, 2]) // => [-0.41421356, 2.41421356] (1 ∓ √2: variance with divisor 2 is 2, the s² of [0, 2])
 */
export function rescaledStratumValues(values: ArrayLike<number>): Float64Array {
  const m = values.length;
  if (m < 2) return Float64Array.from(values);
  let sum = 0;
  for (let i = 0; i < m; i++) sum += values[i];
  const mean = sum / m;
  const factor = Math.sqrt(m / (m - 1));
  return Float64Array.from(values, (v) => mean + factor * (v - mean));
}

function stratifiedMeanAndSe(groups: Float64Array[], weights: number[]): [number, number] {
  let estimate = 0;
  let variance = 0;
  groups.forEach((g, h) => {
    const m = g.length;
    let sum = 0;
    for (let i = 0; i < m; i++) sum += g[i];
    const mean = sum / m;
    let squares = 0;
    for (let i = 0; i < m; i++) squares += (g[i] - mean) ** 2;
    estimate += weights[h] * mean;
    if (m > 1) variance += (weights[h] * weights[h] * (squares / (m - 1))) / m;
  });
  return [estimate, Math.sqrt(variance)];
}
