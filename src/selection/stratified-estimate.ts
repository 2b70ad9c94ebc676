import { normalQuantile } from '../distributions/index.js';

/** One cell's labelled paired differences for {@link stratifiedDifferenceEstimate}. */
export interface LabelledCell {
  cell: string;
  /** Items of the pool in the cell, N_h ≥ 1. */
  size: number;
  /** A − B of each labelled item in the cell (a simple random sample of the cell's items). */
  differences: readonly number[];
  /** The cluster (document) of each labelled item, parallel to differences; give it for every cell or none. */
  clusters?: readonly string[];
}

/** What the interval is about. */
export type Estimand = 'population' | 'pool';

/** The pool's mean paired difference from a stratified sample. */
export interface StratifiedDifferenceResult {
  /** Σ_h (N_h / N) · mean_h. */
  estimate: number;
  /** SE for the estimand asked for (population: phase 1 + phase 2; pool: phase 2 only). */
  standardError: number;
  estimand: Estimand;
  /** SE of the pool's own mean difference: the subsampling error alone (0 when every item is labelled). */
  poolStandardError: number;
  confidenceInterval: [number, number];
  confidenceLevel: number;
  poolSize: number;
  labelled: number;
  /** Clusters among the labelled items when clusters were given (the phase-1 variance is then by cluster), else null. */
  nClusters: number | null;
  cells: Array<{ cell: string; size: number; labelled: number; mean: number; variance: number; standardError: number }>;
  warnings: string[];
}

/**
 * Horvitz–Thompson (stratified expansion) estimate of a pool's mean paired difference from
 * simple random samples without replacement within cells (stratification by agree/disagree and
 * stratum), as a two-phase design: the pool is a sample of the items the benchmark stands for
 * (phase 1), the labelled items a stratified subsample of the pool (phase 2).
 *   θ̂ = Σ_h W_h ȳ_h,  W_h = N_h / N,
 *   V₂ = Σ_h W_h² (1 − n_h / N_h) s_h² / n_h   (s_h² with divisor n_h − 1)   — subsampling,
 *   V₁ = (1 / N²) Σ_h (N_h / n_h) Σ_{i ∈ s_h} (y_i − θ̂)²                      — the pool itself,
 * With clusters (documents the pool's items come from), V₁ is computed over clusters,
 *   V₁ = C/(C − 1) · Σ_c z_c² / N²,  z_c = Σ_{i ∈ s, cluster c} (N_h / n_h)(y_i − θ̂),
 * with C the clusters among the labelled items (the pool is then a sample of documents; with
 * every item labelled this is R `svymean(~d, svydesign(ids = ~cluster))`).
 * SE = √(V₁ + V₂) for estimand 'population' (default: what a fully labelled paired comparison's
 * interval is about, and equal to its SE with divisor N when every item is labelled), or √V₂ for
 * 'pool' (the pool's own mean). Normal interval θ̂ ± z · SE. A fully labelled cell contributes no
 * V₂; a cell with one label of several has no variance estimate (NaN, with a warning), as R survey
 * refuses a lonely PSU.
 * Reference: Cochran (1977) §5.3 eq. 5.6 and §12.2 (double sampling for stratification); R survey:
 * pool: `svymean(~d, svydesign(ids = ~1, strata = ~cell, fpc = ~N_h))`; population:
 * `svymean(~d, twophase(id = list(~id, ~id), strata = list(NULL, ~cell), subset = ~selected))`
 * (tests/reference/selection).
 * @param cells every cell of the pool, each with its size and labelled differences.
 * @param confidenceLevel two-sided level in (0, 1); default 0.95.
 * @param estimand 'population' (default) or 'pool'.
 * @returns see {@link StratifiedDifferenceResult}; NaN estimate with a warning when a non-empty cell has no labels.
 * @throws {RangeError} for no cells, a size below 1, more labels than items, a non-finite difference, or a level outside (0, 1).
 * @example stratifiedDifferenceEstimate([{ cell: 'disagree', size: 3, differences: [1, -1, 1] }, { cell: 'agree', size: 7, differences: [0, 0] }]).estimate // => 0.1 = 0.3 · (1/3) + 0.7 · 0
 */
export function stratifiedDifferenceEstimate(cells: readonly LabelledCell[], confidenceLevel = 0.95, estimand: Estimand = 'population'): StratifiedDifferenceResult {
  if (cells.length === 0) throw new RangeError('stratifiedDifferenceEstimate needs at least one cell');
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  let N = 0;
  for (const c of cells) {
    if (!(Number.isInteger(c.size) && c.size >= 1)) throw new RangeError(`cell ${c.cell}: size must be a whole number ≥ 1 (got ${c.size})`);
    if (c.differences.length > c.size) throw new RangeError(`cell ${c.cell}: ${c.differences.length} labelled items but only ${c.size} in the cell`);
    c.differences.forEach((d, i) => {
      if (!Number.isFinite(d)) throw new RangeError(`cell ${c.cell}: difference ${i} must be a finite number (got ${d})`);
    });
    N += c.size;
  }
  const warnings: string[] = [];
  let estimate = 0;
  let variance = 0;
  let labelled = 0;
  const out = cells.map((c) => {
    const n = c.differences.length;
    labelled += n;
    const W = c.size / N;
    if (n === 0) {
      warnings.push(`cell ${c.cell}: none of its ${c.size} items is labelled, so the pool's difference cannot be estimated`);
      estimate = NaN;
      return { cell: c.cell, size: c.size, labelled: 0, mean: NaN, variance: NaN, standardError: NaN };
    }
    const mean = c.differences.reduce((a, b) => a + b, 0) / n;
    let s2 = 0;
    if (n > 1) {
      for (const d of c.differences) s2 += (d - mean) ** 2;
      s2 /= n - 1;
    }
    let v: number;
    if (n === c.size) v = 0;
    else if (n === 1) {
      warnings.push(`cell ${c.cell}: 1 labelled item of ${c.size}; its variance cannot be estimated`);
      v = NaN;
    } else v = (W * W * (1 - n / c.size) * s2) / n;
    estimate += W * mean;
    variance += v;
    return { cell: c.cell, size: c.size, labelled: n, mean, variance: s2, standardError: Math.sqrt(v) / W };
  });
  // Phase 1: the pool's own spread around θ̂, estimated from the labels weighted by N_h / n_h
  // (by cluster when the items come in clusters: their residuals add up before squaring).
  const clustered = cells.some((c) => c.clusters !== undefined);
  let phase1 = 0;
  let nClusters: number | null = null;
  if (clustered) {
    const z = new Map<string, number>();
    for (const c of cells) {
      if (c.clusters === undefined || c.clusters.length !== c.differences.length) throw new RangeError(`cell ${c.cell}: clusters must be given for every labelled item of every cell, or for none`);
      const n = c.differences.length;
      c.differences.forEach((d, i) => {
        const key = (c.clusters as readonly string[])[i];
        z.set(key, (z.get(key) ?? 0) + (c.size / n) * (d - estimate));
      });
    }
    nClusters = z.size;
    let sum = 0;
    for (const v of z.values()) sum += v * v;
    phase1 = nClusters > 1 ? (nClusters / (nClusters - 1)) * sum / (N * N) : NaN;
    if (nClusters < 2) warnings.push('the labelled items come from one cluster: the pool-level variance cannot be estimated');
  } else {
    for (const c of cells) {
      const n = c.differences.length;
      for (const d of c.differences) phase1 += (c.size / n) * (d - estimate) ** 2;
    }
    phase1 /= N * N;
  }
  const poolStandardError = Math.sqrt(variance);
  const standardError = estimand === 'pool' ? poolStandardError : Math.sqrt(variance + phase1);
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const ok = Number.isFinite(estimate) && Number.isFinite(standardError);
  return {
    estimate,
    standardError,
    estimand,
    poolStandardError,
    confidenceInterval: ok ? [estimate - z * standardError, estimate + z * standardError] : [NaN, NaN],
    confidenceLevel,
    poolSize: N,
    labelled,
    nClusters,
    cells: out,
    warnings,
  };
}
