import { bootstrapStatistic } from '../bootstrap/index.js';
import type { Seed } from '../random/index.js';
import type { AlphaValue } from './krippendorff.js';

/** Settings of the bootstrap interval for Krippendorff's alpha. */
export interface AlphaIntervalOptions {
  /** Resamples of the items, a whole number ≥ 1; default 9999. */
  nResamples?: number;
  /** Default 0. The same seed and labels give the same interval. */
  seed?: Seed;
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
}

/** A percentile bootstrap interval for nominal Krippendorff's alpha, resampling items. */
export interface AlphaIntervalResult {
  /** Nominal α on the items as given. */
  alpha: number;
  /** [low, high]: the (1 − level)/2 and (1 + level)/2 quantiles of the resampled alphas. */
  confidenceInterval: [number, number];
  /** SD of the resampled alphas. */
  standardError: number;
  method: 'percentile';
  nResamples: number;
  seed: string;
  confidenceLevel: number;
  /** Items resampled: those with at least two labels. */
  units: number;
  warnings: string[];
}

/**
 * Per-item pieces of nominal alpha. With multiplicities w_u of a resample,
 * n = Σ w_u m_u, n_c = Σ w_u n_uc, D = Σ w_u D_u where D_u = (m_u² − Σ_c n_uc²) / (m_u − 1)
 * is item u's off-diagonal mass in the coincidence matrix, and
 *   α = 1 − (n − 1) D / (n² − Σ_c n_c²)
 * (the coincidence-matrix α with δ² = [c ≠ k], rearranged), so one resample costs O(items).
 */
export interface NominalTerms {
  size: Float64Array;
  disagreement: Float64Array;
  /** Per unit, its (value index, count) pairs, flattened: offsets[u] … offsets[u + 1]. */
  offsets: Int32Array;
  codes: Int32Array;
  counts: Float64Array;
  values: number;
}

/** Per-item pieces of nominal alpha (exported for tests; not part of the public API). */
export function nominalTerms(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>): NominalTerms {
  const index = new Map<string, number>();
  const pairable: Array<Map<number, number>> = [];
  for (const row of units) {
    const counts = new Map<number, number>();
    let m = 0;
    for (const x of row) {
      if (x === null || x === undefined) continue;
      const key = String(x);
      let code = index.get(key);
      if (code === undefined) {
        code = index.size;
        index.set(key, code);
      }
      counts.set(code, (counts.get(code) ?? 0) + 1);
      m += 1;
    }
    if (m >= 2) pairable.push(counts);
  }
  const size = new Float64Array(pairable.length);
  const disagreement = new Float64Array(pairable.length);
  const offsets = new Int32Array(pairable.length + 1);
  const total = pairable.reduce((s, counts) => s + counts.size, 0);
  const codes = new Int32Array(total);
  const counts = new Float64Array(total);
  let at = 0;
  pairable.forEach((unit, u) => {
    let m = 0;
    let squares = 0;
    for (const [code, count] of unit) {
      codes[at] = code;
      counts[at] = count;
      at += 1;
      m += count;
      squares += count * count;
    }
    size[u] = m;
    disagreement[u] = (m * m - squares) / (m - 1);
    offsets[u + 1] = at;
  });
  return { size, disagreement, offsets, codes, counts, values: index.size };
}

/** Nominal alpha of the resample `indices` (indices into the pairable items, with repeats); `margins` is scratch of length terms.values. */
export function nominalAlphaOf(terms: NominalTerms, indices: ArrayLike<number>, margins: Float64Array): number {
  margins.fill(0);
  let n = 0;
  let d = 0;
  for (let i = 0; i < indices.length; i++) {
    const u = indices[i];
    n += terms.size[u];
    d += terms.disagreement[u];
    for (let j = terms.offsets[u]; j < terms.offsets[u + 1]; j++) margins[terms.codes[j]] += terms.counts[j];
  }
  let squares = 0;
  for (let c = 0; c < margins.length; c++) squares += margins[c] * margins[c];
  const spread = n * n - squares;
  // No variation in this resample: every label the same, so α is 0/0.
  return spread > 0 ? 1 - ((n - 1) * d) / spread : NaN;
}

/**
 * A seeded percentile bootstrap interval for nominal Krippendorff's alpha: resample the items
 * (with at least two labels) with replacement, recompute α on each resample, and read the
 * interval off the quantiles of those alphas. Items, not single labels, are resampled because
 * an item's labels are not independent of each other.
 * Delegates the resampling and the quantiles to `bootstrapStatistic` (src/bootstrap) with
 * method `'percentile'`. A resample in which every label is the same value has no alpha (0/0):
 * such resamples are left out of the interval (`dropNonFinite`) and counted in a warning.
 * Reference: Hayes & Krippendorff (2007), "Answering the call for a standard reliability
 * measure for coding data", Communication Methods and Measures 1:77–89 (bootstrapping α);
 * Efron & Tibshirani (1993) ch. 13 (percentile interval).
 * @param units items × annotators, null = missing (as for `krippendorffAlpha`).
 * @returns alpha, confidenceInterval, standardError and the settings used.
 * Cost: O(nResamples × items).
 * @example krippendorffAlphaInterval(labels, { seed: 0 }).confidenceInterval // => [low, high], the same on every run
 */
export function krippendorffAlphaInterval(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>, options: AlphaIntervalOptions = {}): AlphaIntervalResult {
  const nResamples = options.nResamples ?? 9999;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const seed = options.seed ?? 0;
  if (!(Number.isInteger(nResamples) && nResamples >= 1)) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${nResamples})`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const terms = nominalTerms(units);
  const n = terms.size.length;
  const margins = new Float64Array(terms.values);
  const all = Int32Array.from({ length: n }, (_, u) => u);
  const alpha = nominalAlphaOf(terms, all, margins);
  const warnings: string[] = [];
  const settings = { method: 'percentile' as const, nResamples, seed: String(seed), confidenceLevel, units: n };
  if (n < 2 || !Number.isFinite(alpha)) {
    warnings.push(n < 2 ? `only ${n} item(s) have two labels: no bootstrap interval for alpha` : 'alpha is undefined on these labels: no bootstrap interval');
    return { alpha, confidenceInterval: [NaN, NaN], standardError: NaN, ...settings, warnings };
  }
  let undefinedResamples = 0;
  const result = bootstrapStatistic(
    n,
    (indices) => {
      const value = nominalAlphaOf(terms, indices, margins);
      if (Number.isNaN(value)) undefinedResamples += 1;
      return value;
    },
    // A resample with one label value throughout has no alpha (0/0): it is left out, and the
    // interval is over the resamples on which alpha is defined, as the warning says.
    { method: 'percentile', nResamples, seed, confidenceLevel, dropNonFinite: true },
  );
  if (undefinedResamples > 0) {
    warnings.push(`${undefinedResamples} of ${nResamples} resamples had a single label value throughout (alpha undefined there) and are left out of the interval`);
    warnings.push(...result.warnings.filter((w) => !w.includes('not finite numbers')));
  } else warnings.push(...result.warnings);
  return { alpha, confidenceInterval: result.confidenceInterval, standardError: result.standardError, ...settings, warnings };
}
