import { bootstrapClassCounts, countsPathHolds } from '../bootstrap/class-counts.js';
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

/** Per-item pieces of nominal alpha (exported for tests; not part of the public API); `labels` receives the label text of each value index. */
export function nominalTerms(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>, labels: string[] = []): NominalTerms {
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
        labels.push(key);
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
 * The items of NominalTerms grouped into classes: items with the same label counts (the same
 * multiset of (label, count) pairs) are interchangeable for nominal alpha, so a resample's alpha
 * depends on it only through how many items of each class it holds. Classes are sorted by their
 * labels and counts, so their order does not depend on the order of the items.
 */
export interface NominalClasses {
  /** Per item (pairable unit), its class. */
  classOf: Int32Array;
  /** Per class: its items (c_k), labels per item (m_k), and D_k, bit for bit the D_u of each of its items. */
  units: Float64Array;
  size: Float64Array;
  disagreement: Float64Array;
  /** Per class, its (value index, count) pairs: offsets[k] … offsets[k + 1]. */
  offsets: Int32Array;
  codes: Int32Array;
  counts: Float64Array;
}

/** Groups the items of `terms` into classes (exported for tests; not part of the public API). O(entries · log). */
export function nominalClasses(terms: NominalTerms, labels: readonly string[]): NominalClasses {
  const n = terms.size.length;
  const byKey = new Map<string, number>();
  const first: number[] = [];
  const keys: string[] = [];
  const itemKey = new Int32Array(n);
  for (let u = 0; u < n; u++) {
    const parts: string[] = [];
    for (let j = terms.offsets[u]; j < terms.offsets[u + 1]; j++) parts.push(`${JSON.stringify(labels[terms.codes[j]])}:${terms.counts[j]}`);
    const key = parts.sort().join(',');
    let k = byKey.get(key);
    if (k === undefined) {
      k = keys.length;
      byKey.set(key, k);
      keys.push(key);
      first.push(u);
    }
    itemKey[u] = k;
  }
  const order = keys.map((_, k) => k).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const rank = new Int32Array(order.length);
  order.forEach((k, r) => (rank[k] = r));
  const K = order.length;
  const units = new Float64Array(K);
  const classOf = new Int32Array(n);
  for (let u = 0; u < n; u++) {
    classOf[u] = rank[itemKey[u]];
    units[classOf[u]] += 1;
  }
  const size = new Float64Array(K);
  const disagreement = new Float64Array(K);
  const offsets = new Int32Array(K + 1);
  const codes: number[] = [];
  const counts: number[] = [];
  order.forEach((k, r) => {
    const u = first[k];
    size[r] = terms.size[u];
    disagreement[r] = terms.disagreement[u];
    for (let j = terms.offsets[u]; j < terms.offsets[u + 1]; j++) {
      codes.push(terms.codes[j]);
      counts.push(terms.counts[j]);
    }
    offsets[r + 1] = codes.length;
  });
  return { classOf, units, size, disagreement, offsets, codes: Int32Array.from(codes), counts: Float64Array.from(counts) };
}

/**
 * Nominal alpha from a resample's class counts x (x_k items of class k) and its off-diagonal mass
 * d = Σ D_u over its items (summed by the caller, in whatever order it fixes):
 * n = Σ x_k m_k and n_c = Σ x_k n_kc are whole numbers, exact in any order, so this equals
 * nominalAlphaOf bit for bit when d is summed in the same order.
 */
export function nominalAlphaOfClasses(classes: NominalClasses, x: Float64Array, d: number, margins: Float64Array): number {
  margins.fill(0);
  let n = 0;
  for (let k = 0; k < x.length; k++) {
    const w = x[k];
    if (w === 0) continue;
    n += w * classes.size[k];
    for (let j = classes.offsets[k]; j < classes.offsets[k + 1]; j++) margins[classes.codes[j]] += w * classes.counts[j];
  }
  let squares = 0;
  for (let c = 0; c < margins.length; c++) squares += margins[c] * margins[c];
  const spread = n * n - squares;
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
 * Items with the same label counts are interchangeable for alpha (NominalClasses). When the K
 * classes are few for the n items (countsPathHolds: K ≤ 64, n ≥ 32 (K − 1)), each resample draws
 * its class counts as K − 1 binomials (bootstrapClassCounts) instead of n item indices: the same
 * bootstrap distribution at O(K) cost per resample, from the same chunk streams but not the same
 * draws. Otherwise items are drawn by index as bootstrapStatistic draws them.
 * Cost: O(nResamples × K) on the counts path, else O(nResamples × items).
 * @example krippendorffAlphaInterval(labels, { seed: 0 }).confidenceInterval // => [low, high], the same on every run
 */
export function krippendorffAlphaInterval(units: ReadonlyArray<ReadonlyArray<AlphaValue | undefined>>, options: AlphaIntervalOptions = {}): AlphaIntervalResult {
  const nResamples = options.nResamples ?? 9999;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const seed = options.seed ?? 0;
  if (!(Number.isInteger(nResamples) && nResamples >= 1)) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${nResamples})`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const labels: string[] = [];
  const terms = nominalTerms(units, labels);
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
  const classes = nominalClasses(terms, labels);
  const K = classes.units.length;
  const x = new Float64Array(K);
  const count = (value: number) => {
    if (Number.isNaN(value)) undefinedResamples += 1;
    return value;
  };
  // A resample with one label value throughout has no alpha (0/0): it is left out, and the
  // interval is over the resamples on which alpha is defined, as the warning says.
  const bootstrap = { method: 'percentile' as const, nResamples, seed, confidenceLevel, dropNonFinite: true };
  const result = countsPathHolds(n, K)
    ? // Few classes: draw each resample's class counts (K − 1 binomials) instead of n item indices.
      bootstrapClassCounts(
        classes.units,
        (counts) => {
          let d = 0;
          for (let k = 0; k < K; k++) d += counts[k] * classes.disagreement[k];
          return count(nominalAlphaOfClasses(classes, counts, d, margins));
        },
        bootstrap,
      )
    : bootstrapStatistic(
        n,
        (indices) => {
          // nominalAlphaOf through the classes: d in index order as there, the whole-number sums from class counts.
          x.fill(0);
          let d = 0;
          for (let i = 0; i < indices.length; i++) {
            const k = classes.classOf[indices[i]];
            d += classes.disagreement[k];
            x[k] += 1;
          }
          return count(nominalAlphaOfClasses(classes, x, d, margins));
        },
        bootstrap,
      );
  if (undefinedResamples > 0) {
    warnings.push(`${undefinedResamples} of ${nResamples} resamples had a single label value throughout (alpha undefined there) and are left out of the interval`);
    warnings.push(...result.warnings.filter((w) => !w.includes('not finite numbers')));
  } else warnings.push(...result.warnings);
  return { alpha, confidenceInterval: result.confidenceInterval, standardError: result.standardError, ...settings, warnings };
}
