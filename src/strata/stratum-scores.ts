import { wilsonInterval } from '../costs/wilson.js';
import { normalQuantile } from '../distributions/index.js';
import { STRATUM_INTERVAL_METHODS, type StratumIntervalMethod } from './proportion-interval.js';

/** One model's score in one stratum: the primary output of an enriched set. */
export interface StratumScore {
  stratum: string;
  /** Items in the stratum. */
  n: number;
  /** Mean score ȳ_h; NaN with no items. */
  mean: number;
  /** Sample sd s_h (n − 1); NaN with fewer than two items. */
  sd: number;
  /** s_h / √n_h; NaN with fewer than two items. */
  standardError: number;
  /** Wald: mean ± z·standardError, z = Φ⁻¹(1 − α/2); Wilson: the score interval of n·mean successes in n. */
  interval: [number, number];
  /** The interval method used for this stratum. */
  method: 'wald' | 'wilson';
  /** Every item scores 0 or 1 (false with no items). */
  binary: boolean;
  /** Every item scores in [0, 1] (false with no items). */
  withinUnit: boolean;
}

export interface StratumScoresOptions {
  /** The strata to report, in this order (default: `names`); one with no items gets n = 0 and NaN with a warning. */
  strata?: readonly string[];
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
  /**
   * 'auto' (default): Wilson for a stratum whose scores are all 0/1, Wald otherwise; 'wilson': Wilson
   * for every stratum (scores must lie in [0, 1]); 'wald': the normal interval for every stratum (before 0.2).
   */
  intervalMethod?: StratumIntervalMethod;
}

export interface StratumScoresResult {
  strata: StratumScore[];
  confidenceLevel: number;
  /** The method asked for (each row says which it used). */
  intervalMethod: StratumIntervalMethod;
  /** Items whose stratum is not among `options.strata` (they are not in any row). */
  unlisted: Array<{ stratum: string; n: number }>;
  warnings: string[];
}

/**
 * Per-stratum mean score with its standard error and interval: what a selection set built by
 * quota reports first (the chapter: "report per-stratum scores as the primary output").
 *
 * Formulas for stratum h with items y_1 … y_n: mean = Σ y_i / n; s² = Σ (y_i − mean)² / (n − 1);
 * standardError = s / √n. Interval, by `intervalMethod`:
 * - Wilson (the default for 0/1 scores): the score interval of x = n · mean successes in n trials
 *   (src/costs/wilson.ts; R `prop.test(x, n, correct = FALSE)$conf.int`), inside [0, 1] and never a
 *   point, even at 80/80 or 0/12.
 * - Wald (the default for other scores, and `wald`): mean ± Φ⁻¹(1 − α/2) · standardError, the one R
 *   survey gives: `confint(svyby(~score, ~stratum, design, svymean))` on the design of
 *   {@link reweightedHeadline}. With a dozen items it is optimistic (Student t would be wider); a
 *   warning says so under 10 items. On 0/1 scores it runs past 1 near 1 (0.988 [0.963, 1.01]).
 *
 * @param scores per-item scores (repeats already averaged).
 * @param stratum per item: an index into `names`.
 * @param names the stratum names the indices refer to.
 * @param options which strata to report and in what order; the confidence level.
 * @returns one row per stratum; items in strata not listed; warnings for strata with 0, 1 or
 *   fewer than 10 items and for zero-width intervals.
 * @throws {TypeError} for mismatched lengths or an index out of range; {RangeError} for a
 *   confidence level outside (0, 1) or a non-finite score.
 * Cost: O(n).
 * @example stratumScores([1, 0, 1, 1], [0, 0, 1, 1], ['x', 'y']).strata[0].mean // => 0.5
 */
export function stratumScores(scores: ArrayLike<number>, stratum: ArrayLike<number>, names: readonly string[], options: StratumScoresOptions = {}): StratumScoresResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const intervalMethod = options.intervalMethod ?? 'auto';
  if (!STRATUM_INTERVAL_METHODS.includes(intervalMethod)) throw new RangeError(`intervalMethod must be one of ${STRATUM_INTERVAL_METHODS.join(', ')} (got ${String(intervalMethod)})`);
  if (scores.length !== stratum.length) throw new TypeError(`stratumScores: scores and stratum must have the same length (got ${scores.length}, ${stratum.length})`);
  const listed = options.strata ?? names;
  const slot = new Map<string, number>();
  listed.forEach((name, k) => {
    if (slot.has(name)) throw new TypeError(`stratumScores: stratum "${name}" is listed twice`);
    slot.set(name, k);
  });
  const row = names.map((name) => slot.get(name) ?? -1);
  const H = listed.length;
  const count = new Float64Array(H);
  const total = new Float64Array(H);
  const unlistedCount = new Float64Array(names.length);
  const nonBinary = new Uint8Array(H);
  const outsideUnit = new Uint8Array(H);
  for (let i = 0; i < scores.length; i++) {
    const s = stratum[i];
    if (!(s >= 0 && s < names.length) || !Number.isInteger(s)) throw new TypeError(`stratumScores: stratum[${i}] must index names (got ${s})`);
    const y = scores[i];
    if (!Number.isFinite(y)) throw new RangeError(`stratumScores: scores[${i}] must be finite (got ${y})`);
    const h = row[s];
    if (h < 0) {
      unlistedCount[s] += 1;
      continue;
    }
    count[h] += 1;
    total[h] += y;
    if (y !== 0 && y !== 1) nonBinary[h] = 1;
    if (!(y >= 0 && y <= 1)) outsideUnit[h] = 1;
  }
  const mean = Float64Array.from(total, (t, h) => (count[h] > 0 ? t / count[h] : NaN));
  const squares = new Float64Array(H);
  for (let i = 0; i < scores.length; i++) {
    const h = row[stratum[i]];
    if (h < 0) continue;
    const e = scores[i] - mean[h];
    squares[h] += e * e;
  }
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const warnings: string[] = [];
  const strata = listed.map((name, h): StratumScore => {
    const n = count[h];
    const sd = n > 1 ? Math.sqrt(squares[h] / (n - 1)) : NaN;
    const standardError = sd / Math.sqrt(n);
    const binary = n > 0 && nonBinary[h] === 0;
    const withinUnit = n > 0 && outsideUnit[h] === 0;
    if (intervalMethod === 'wilson' && n > 0 && !withinUnit) throw new RangeError(`stratum "${name}": a Wilson interval needs scores in [0, 1]`);
    const method = intervalMethod === 'wilson' || (intervalMethod === 'auto' && binary) ? 'wilson' : 'wald';
    if (n === 0) warnings.push(`stratum "${name}" has no items: its mean, standard error and interval are NaN`);
    else if (method === 'wilson') {
      if (n < 10) warnings.push(`stratum "${name}" has only ${n} items: its interval is wide and supports no per-stratum conclusion`);
    } else if (n === 1) warnings.push(`stratum "${name}" has one item: its standard error and interval are NaN (a standard error needs at least two)`);
    else {
      if (n < 10) warnings.push(`stratum "${name}" has only ${n} items: its normal interval is optimistic and supports no per-stratum conclusion`);
      if (sd === 0) warnings.push(`stratum "${name}": every item scores ${mean[h]}, so its standard error is 0 and its interval has zero width`);
    }
    const interval: [number, number] =
      method === 'wilson' ? wilsonInterval(Math.min(n, Math.max(0, total[h])), n, { confidenceLevel }).confidenceInterval : [mean[h] - z * standardError, mean[h] + z * standardError];
    return { stratum: name, n, mean: mean[h], sd, standardError, interval, method, binary, withinUnit };
  });
  const unlisted = names.map((name, s) => ({ stratum: name, n: unlistedCount[s] })).filter((u) => u.n > 0);
  return { strata, confidenceLevel, intervalMethod, unlisted, warnings };
}
