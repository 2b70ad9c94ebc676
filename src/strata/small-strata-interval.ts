import { studentTQuantile } from '../distributions/index.js';
import { SMALL_STRATUM_ITEMS, smallStrataVariance } from './small-strata-variance.js';

/** Settings of smallStrataInterval. */
export interface SmallStrataIntervalOptions {
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Strata with fewer items get the pooled variance as a floor; default SMALL_STRATUM_ITEMS (10). */
  minItems?: number;
  /** Stratum names (by index), for the warnings. */
  strataNames?: readonly string[] | null;
}

/** A stratified mean with the small-strata variance and Satterthwaite's t interval. */
export interface SmallStrataIntervalResult {
  methodUsed: 'satterthwaite-t';
  /** Σ_h W_h ȳ_h. */
  estimate: number;
  /** √V of smallStrataVariance. */
  standardError: number;
  /** Satterthwaite's degrees of freedom. */
  df: number;
  /** estimate ± t(df, 1 − α/2) · SE; NaN when the data cannot support one (see noInterval). */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  /** Why there is no interval (V = 0: no stratum's values vary), or null. */
  noInterval: string | null;
  /** Per weighted stratum of fewer than minItems items: what its variance rests on. */
  warnings: string[];
}

/**
 * Two-sided t interval for a weighted sum of stratum means Σ_h W_h ȳ_h (e.g. the difference of two
 * models' traffic-reweighted headlines, the values being per-item differences A − B), built to hold
 * when a stratum of a few items carries much of the weight: the variance of smallStrataVariance
 * (small strata floored at the pooled within-stratum variance) and Satterthwaite's df instead of
 * n − H. Every weighted stratum needs an item; a stratum of one item takes the pooled variance.
 * Coverage: bench/strata-small-study.txt (5-item stratum at 30% traffic).
 * Reference: Cochran (1977) §5.4 (Satterthwaite's df for a stratified mean), §5A.12 (collapsed
 * strata); survey::svymean on svydesign(ids = ~1, strata, weights) for V when no stratum is small.
 * @param values per item (finite).
 * @param strata per item its stratum index 0 … H − 1.
 * @param weights W_h per stratum index (≥ 0; a weighted stratum must have items).
 * @param options confidenceLevel, minItems, strataNames.
 * @returns methodUsed 'satterthwaite-t', estimate, standardError, df, confidenceInterval,
 *   confidenceLevel, noInterval, warnings.
 * @throws {RangeError} for unequal lengths, a non-finite value, a weighted stratum without items, a bad level.
 * @example smallStrataInterval([1, 0, 1, 0, 1, 1, 1, 1], Int32Array.from([0, 0, 0, 0, 1, 1, 1, 1]), [0.5, 0.5]).df // => 6 (Satterthwaite: one stratum on its own 3 df, the constant one on the pooled 6)
 */
export function smallStrataInterval(values: ArrayLike<number>, strata: ArrayLike<number>, weights: readonly number[], options: SmallStrataIntervalOptions = {}): SmallStrataIntervalResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const minItems = options.minItems ?? SMALL_STRATUM_ITEMS;
  const n = values.length;
  if (strata.length !== n) throw new RangeError(`strata must have one index per value: ${n} (got ${strata.length})`);
  const H = weights.length;
  const count = new Float64Array(H);
  const sum = new Float64Array(H);
  for (let i = 0; i < n; i++) {
    const h = strata[i];
    if (!(Number.isInteger(h) && h >= 0 && h < H)) throw new RangeError(`strata[${i}] must be a stratum index in 0 … ${H - 1} (got ${h})`);
    if (!Number.isFinite(values[i])) throw new RangeError(`values[${i}] must be a finite number (got ${values[i]})`);
    count[h] += 1;
    sum[h] += values[i];
  }
  const name = (h: number) => `"${options.strataNames?.[h] ?? `#${h}`}"`;
  const mean = Float64Array.from(sum, (s, h) => (count[h] > 0 ? s / count[h] : NaN));
  const squares = new Float64Array(H);
  const spread = new Float64Array(H); // largest |value − mean| per stratum: exact "all equal" test
  for (let i = 0; i < n; i++) {
    const r = values[i] - mean[strata[i]];
    squares[strata[i]] += r * r;
    spread[strata[i]] = Math.max(spread[strata[i]], Math.abs(r));
  }
  const inputs: Array<{ weight: number; n: number; variance: number }> = [];
  const index: number[] = [];
  let estimate = 0;
  for (let h = 0; h < H; h++) {
    if (count[h] === 0) {
      if (weights[h] > 0) throw new RangeError(`stratum ${name(h)} has weight ${weights[h]} but no items`);
      continue;
    }
    estimate += weights[h] * mean[h];
    inputs.push({ weight: weights[h], n: count[h], variance: count[h] > 1 ? (spread[h] === 0 ? 0 : squares[h] / (count[h] - 1)) : NaN });
    index.push(h);
  }
  const v = smallStrataVariance(inputs, { minItems });
  const warnings: string[] = [];
  for (const [k, part] of v.parts.entries()) {
    const h = index[k];
    const s = inputs[k];
    if (s.weight === 0 || s.n >= minItems) continue;
    const share = `${Number((s.weight * 100).toPrecision(3))}%`;
    const what = part.pooled
      ? spread[h] === 0 || s.n === 1
        ? `its ${s.n} value${s.n === 1 ? '' : 's'} ${s.n === 1 ? 'gives' : 'are all equal, giving'} no variance of its own, so the pooled within-stratum variance (${v.pooledDf} df) stands in`
        : `its own variance is below the pooled within-stratum variance, which stands in (${v.pooledDf} df)`
      : `its variance rests on ${s.n - 1} degree${s.n === 2 ? '' : 's'} of freedom`;
    warnings.push(`stratum ${name(h)} has only ${s.n} item${s.n === 1 ? '' : 's'} and carries ${share} of the weight: ${what}; the interval reads the variance with Satterthwaite's df (${Number(v.df.toPrecision(3))}), not n − H`);
  }
  const standardError = Math.sqrt(v.variance);
  let confidenceInterval: [number, number] = [NaN, NaN];
  let noInterval: string | null = null;
  if (!(v.variance > 0)) {
    noInterval = `no stratum's values vary (every stratum's ${n} items are constant within it), so there is no variance to size an interval from: the data cannot support an interval`;
    warnings.push(noInterval);
  } else {
    const half = studentTQuantile(1 - (1 - confidenceLevel) / 2, v.df) * standardError;
    confidenceInterval = [estimate - half, estimate + half];
  }
  return { methodUsed: 'satterthwaite-t', estimate, standardError, df: v.df, confidenceInterval, confidenceLevel, noInterval, warnings };
}
