import { normalQuantile } from '../distributions/index.js';

/**
 * How a quantile of the bootstrap distribution is read:
 * - `linear`: Hyndman–Fan type 7, numpy's default `np.percentile(x, 100p)` (scipy.stats.bootstrap):
 *   virtual index h = (B − 1)·p (0-based), linear interpolation between x[⌊h⌋] and x[⌊h⌋ + 1].
 * - `boot`: R boot's `norm.inter`: rank (B + 1)·p (1-based); an integer rank gives that order
 *   statistic, otherwise interpolation between ranks k and k + 1 on the normal-quantile scale.
 *   Used only to compare with R on the very same resamples.
 */
export type QuantileRule = 'linear' | 'boot';

/**
 * The p-quantile of an ascending-sorted sample by the given rule. NaN for NaN p.
 * @param sorted ascending, finite, length ≥ 1.
 * @example sortedQuantile(Float64Array.of(1, 2, 3, 4), 0.5) // => 2.5
 */
export function sortedQuantile(sorted: ArrayLike<number>, p: number, rule: QuantileRule = 'linear'): number {
  const count = sorted.length;
  if (Number.isNaN(p) || count === 0) return NaN;
  if (rule === 'boot') return normInterQuantile(sorted, p);
  // np.percentile is called with q = 100p and divides by 100 again; do the same so p matches bit for bit.
  const q = (p * 100) / 100;
  const h = (count - 1) * q;
  let lo = Math.floor(h);
  if (lo < 0) lo = 0;
  if (lo > count - 1) lo = count - 1;
  const hi = Math.min(lo + 1, count - 1);
  const t = h - lo;
  const a = sorted[lo];
  const b = sorted[hi];
  // numpy's _lerp: a + (b − a)·t below one half, b − (b − a)·(1 − t) from one half on (monotone and exact at the ends).
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** R boot's norm.inter for one probability (see QuantileRule). */
function normInterQuantile(sorted: ArrayLike<number>, p: number): number {
  const count = sorted.length;
  const rank = (count + 1) * p;
  const k = Math.trunc(rank);
  if (k <= 0) return sorted[0];
  if (k >= count) return sorted[count - 1];
  if (k === rank) return sorted[k - 1];
  const zp = normalQuantile(p);
  const zk = normalQuantile(k / (count + 1));
  const zk1 = normalQuantile((k + 1) / (count + 1));
  const tk = sorted[k - 1];
  const tk1 = sorted[k];
  return tk + ((zp - zk) / (zk1 - zk)) * (tk1 - tk);
}
