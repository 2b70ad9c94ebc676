import { binomialFromState } from '../random/binomial.js';
import { seedState } from '../random/seed.js';
import { COUNTS_PATH_RULE } from './design.js';
import { intervalsFromDistribution } from './intervals.js';
import { chunkCount, CHUNK_RESAMPLES } from './resample.js';
import { resolveSettings } from './settings.js';
import type { BootstrapOptions, BootstrapResult } from './types.js';

/** Settings of bootstrapClassCounts: BootstrapOptions without clusters, strata or BCa. */
export type ClassCountsOptions = Pick<BootstrapOptions, 'confidenceLevel' | 'nResamples' | 'seed' | 'alternative' | 'dropNonFinite'> & {
  /** `'percentile'` (default) or `'basic'`: BCa needs a jackknife over units, which a class statistic does not see. */
  method?: 'percentile' | 'basic';
};

/**
 * Whether m units in K classes are cheaper to resample by class counts than by index: the
 * bootstrap's COUNTS_PATH_RULE (K ≤ 64 and m ≥ 32 · (K − 1); one binomial draw costs about as much
 * as 25–30 index draws). The rule bootstrapMean applies per group, for any statistic of class counts.
 * @example countsPathHolds(1000, 4) // => true
 */
export function countsPathHolds(m: number, classes: number): boolean {
  return classes <= COUNTS_PATH_RULE.maxClasses && m >= COUNTS_PATH_RULE.unitsPerBinomial * (classes - 1);
}

/**
 * Bootstrap interval of a statistic that depends on a resample only through how many units of
 * each class it holds (units of one class are interchangeable for the statistic: e.g. the items
 * with the same label counts, for nominal Krippendorff's alpha). Drawing m units uniformly with
 * replacement from classes of c_1 … c_K units makes the class counts Multinomial(m; c_1/m … c_K/m),
 * drawn exactly as K − 1 conditional binomials
 *   X_k ~ Binomial(m − Σ_{j<k} X_j, c_k / Σ_{j≥k} c_j),   X_K = what is left
 * (the counts path of bootstrapMean, for any statistic): the same bootstrap distribution as m index
 * draws, at O(K) cost per resample instead of O(m). Resample r draws from the stream of its chunk,
 * `${seed}:chunk:${⌊r / 256⌋}`, as every bootstrap here does; the class order is the caller's and is
 * part of the stream (give classes in an order that does not depend on the order of the items).
 * Reference: Efron & Tibshirani (1993) ch. 6 and 13 (the bootstrap distribution, percentile and
 * basic intervals); Davison & Hinkley (1997) §2.3 (resampling as multinomial weights).
 * @param classUnits c_k: units per class, whole numbers ≥ 0, Σ c_k ≥ 1.
 * @param statistic the statistic of a resample's class counts (X_1 … X_K, a reused buffer: read it, do not keep it);
 *   called once on c itself for the estimate.
 * @returns a BootstrapResult with n = Σ c_k; biasCorrection, acceleration and naiveStandardError NaN.
 * @throws {RangeError} for a class size that is not a whole number ≥ 0, no units, method 'bca' or 't', or as resolveSettings.
 * Cost: O(B · K) time, O(B + K) memory.
 * @example bootstrapClassCounts([30, 70], (x) => x[1] / (x[0] + x[1]), { seed: 0 }).confidenceInterval // => about [0.61, 0.79], the same every run
 */
export function bootstrapClassCounts(classUnits: ArrayLike<number>, statistic: (counts: Float64Array) => number, options: ClassCountsOptions = {}): BootstrapResult {
  const method = options.method ?? 'percentile';
  if (method !== 'percentile' && method !== 'basic') throw new RangeError(`bootstrapClassCounts has methods 'percentile' and 'basic' (got ${String(method)})`);
  const settings = resolveSettings({ ...options, method });
  const K = classUnits.length;
  const sizes = new Float64Array(K);
  let m = 0;
  for (let k = 0; k < K; k++) {
    const c = classUnits[k];
    if (!(Number.isInteger(c) && c >= 0)) throw new RangeError(`class sizes must be whole numbers ≥ 0 (got ${c} at ${k})`);
    sizes[k] = c;
    m += c;
  }
  if (m < 1) throw new RangeError('bootstrapClassCounts needs at least one unit (got class sizes summing to 0)');
  // Conditional probabilities of the sequential multinomial, c_k / Σ_{j ≥ k} c_j.
  const probability = new Float64Array(K);
  let rest = 0;
  for (let k = K - 1; k >= 0; k--) {
    rest += sizes[k];
    probability[k] = rest > 0 ? sizes[k] / rest : 0;
  }
  const estimate = statistic(Float64Array.from(sizes));
  const distribution = new Float64Array(settings.nResamples);
  const counts = new Float64Array(K);
  for (let chunk = 0; chunk < chunkCount(settings.nResamples); chunk++) {
    const st = new Int32Array(seedState(settings.seed, 'chunk', chunk).buffer);
    const last = Math.min(settings.nResamples, (chunk + 1) * CHUNK_RESAMPLES);
    for (let r = chunk * CHUNK_RESAMPLES; r < last; r++) {
      let remaining = m;
      counts.fill(0);
      for (let k = 0; k < K && remaining > 0; k++) {
        const x = k === K - 1 ? remaining : binomialFromState(st, remaining, probability[k]);
        counts[k] = x;
        remaining -= x;
      }
      distribution[r] = statistic(counts);
    }
  }
  const outcome = intervalsFromDistribution(distribution, estimate, null, {
    method,
    confidenceLevel: settings.confidenceLevel,
    alternative: settings.alternative,
    dropNonFinite: options.dropNonFinite ?? false,
  });
  return {
    estimate,
    confidenceInterval: outcome.confidenceInterval,
    standardError: outcome.standardError,
    method,
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.nResamples,
    seed: settings.seed,
    alternative: settings.alternative,
    n: m,
    bias: outcome.bias,
    biasCorrection: NaN,
    acceleration: NaN,
    naiveStandardError: NaN,
    warnings: outcome.warnings,
  };
}
