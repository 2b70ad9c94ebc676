import { finiteValues } from '../bootstrap/settings.js';

/** Analytic standard errors of a mean: assuming independent items, and cluster-robust. */
export interface ClusteredStandardErrorResult {
  /** The mean of x. */
  estimate: number;
  /** SE_CLT = sd(x, ddof 1) / √n. */
  naiveStandardError: number;
  /** Miller's SE_clustered (see clusteredStandardError). */
  clusteredStandardError: number;
  /** (clustered / naive)²: how many times the variance of the mean is inflated by clustering. */
  designEffect: number;
  n: number;
  nClusters: number;
  warnings: string[];
}

/** Miller's clustered variance and the independent-items variance of one linear statistic. */
export interface MillerVariance {
  /** Items. */
  items: number;
  /** Non-empty clusters (items, when there are no clusters). */
  clusters: number;
  /** scale² · (Σ_c (T_c − T̄)² + Σ_i (r_i − r̄)² / (n − 1)); NaN for fewer than two items. */
  clustered: number;
  /** scale² · Σ_i (r_i − r̄)² · n / (n − 1): the same with every item its own cluster; NaN for fewer than two items. */
  naive: number;
}

/**
 * Miller's clustered variance: the ONE implementation behind clusteredStandardError, the bootstrap's
 * analytic SEs (bootstrapMean's naiveStandardError / clusteredStandardError / designEffect and its
 * method 't', per stratum) and `size`'s design effect (src/sizing/clusters.ts), so they agree on the
 * same data.
 *
 * For items i with residuals r_i (value minus the centre of the statistic), cluster totals
 * T_c = Σ_{i∈c} r_i with mean T̄ over the non-empty clusters, and a scale (1/n for a mean):
 *   clustered = scale² · ( Σ_c (T_c − T̄)² + Σ_i (r_i − r̄)² / (n − 1) ),
 *   naive     = scale² · Σ_i (r_i − r̄)² · n / (n − 1)   (the same with one item per cluster).
 * For a mean (r_i = s_i − s̄, so T̄ = r̄ = 0, scale 1/n) this is Miller (2024), "Adding Error Bars to
 * Evals", arXiv:2411.00640, Appendix A, term for term: SE_clustered² = SE_CLT² +
 * (1/n²) Σ_c Σ_{i≠j∈c} (s_i − s̄)(s_j − s̄) = Σ_c T_c² / n² + Σ_i r_i² / (n² (n − 1)), and naive = SE_CLT² =
 * s² / n. Both terms are sums of squares, so the variance is never negative. R survey's
 * `svymean(~x, svydesign(ids = ~cluster))` is C/(C − 1) · Σ_c T_c² / n² instead (with-replacement
 * ultimate clusters); benchplan keeps Miller's convention, without C/(C − 1):
 * clustered = (C − 1)/C · survey SE² + s² / n².
 * Per stratum h of a stratified linear statistic, the caller passes that stratum's residuals and
 * scale, and sums the stratum terms (centring T_c within the stratum, as survey does per stratum).
 *
 * @param residuals r_i per item, finite (not checked: callers pass checked values).
 * @param cluster per item its cluster index in 0 … clusterCount − 1, or null for one item per cluster.
 * @param clusterCount the number of cluster indices (ignored without clusters).
 * @param scale the statistic's coefficient on Σ r_i (1/n for a mean; w_h / n_h for stratum h of Σ w_h mean_h).
 * @returns items, clusters, clustered and naive variances (NaN for fewer than two items).
 * @example millerVariance([0.5, 0.5, -0.5, -0.5], [0, 0, 1, 1], 2, 1 / 4).clustered // => 7 / 48 (= 2/16 + 1/48)
 * O(n + clusterCount).
 */
export function millerVariance(residuals: ArrayLike<number>, cluster: ArrayLike<number> | null, clusterCount: number, scale: number): MillerVariance {
  const n = residuals.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += residuals[i];
  const mean = n > 0 ? sum / n : NaN;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = residuals[i] - mean;
    squares += d * d;
  }
  let clusterSquares = squares;
  let clusters = n;
  if (cluster !== null) {
    const totals = new Float64Array(clusterCount);
    const seen = new Uint8Array(clusterCount);
    for (let i = 0; i < n; i++) {
      totals[cluster[i]] += residuals[i];
      seen[cluster[i]] = 1;
    }
    clusters = 0;
    let totalSum = 0;
    for (let c = 0; c < clusterCount; c++) {
      if (!seen[c]) continue;
      clusters += 1;
      totalSum += totals[c];
    }
    const totalMean = clusters > 0 ? totalSum / clusters : 0;
    clusterSquares = 0;
    for (let c = 0; c < clusterCount; c++) {
      if (!seen[c]) continue;
      const d = totals[c] - totalMean;
      clusterSquares += d * d;
    }
  }
  if (n < 2) return { items: n, clusters, clustered: NaN, naive: NaN };
  const s2 = scale * scale;
  return { items: n, clusters, clustered: s2 * (clusterSquares + squares / (n - 1)), naive: (s2 * squares * n) / (n - 1) };
}

/**
 * The cluster-robust standard error of a mean, beside the naive one, when items come in clusters
 * (slots of one document, questions about one passage) and so are not independent.
 *
 * Formula (Miller 2024, "Adding Error Bars to Evals: A Statistical Approach to Language Model
 * Evaluations", arXiv:2411.00640, §2.2 and Appendix A), with s̄ the mean over all n items:
 *   SE_clustered = √( SE_CLT² + (1/n²) Σ_c Σ_{i∈c} Σ_{j∈c, j≠i} (s_i − s̄)(s_j − s̄) ),
 *   SE_CLT = √( Σ_i (s_i − s̄)² / (n − 1) / n ).
 * Computed by millerVariance as Σ_c e_c² / n² + Σ_i (s_i − s̄)² / (n² (n − 1)) with e_c = Σ_{i∈c}(s_i − s̄):
 * a sum of squares, never negative (cross terms can be negative, but never by more than SE_CLT² less
 * Σ_i (s_i − s̄)² / (n² (n − 1))). With one item per cluster SE_clustered = SE_CLT (design effect 1).
 * The same quantity in survey-sampling terms is the with-replacement variance of a ratio mean
 * (R `survey::svymean` with `svydesign(ids = ~cluster)`) without its G/(G − 1) factor, plus s²/n².
 *
 * @param x per-item values (e.g. paired differences A − B), finite.
 * @param cluster per item: its cluster index ≥ 0.
 * @returns estimate, naiveStandardError, clusteredStandardError, designEffect, n, nClusters, warnings.
 * @throws {RangeError} on non-finite values, fewer than two items, or labels of the wrong length.
 * @example clusteredStandardError([1, 1, 0, 0], Int32Array.of(0, 0, 1, 1)).designEffect // => 1.75  (SE_CLT² = 1/12, cross terms 1/16)
 * O(n + G).
 */
export function clusteredStandardError(x: ArrayLike<number>, cluster: Int32Array): ClusteredStandardErrorResult {
  const values = finiteValues('x', x);
  const n = values.length;
  if (n < 2) throw new RangeError(`a standard error needs at least two items (got ${n})`);
  if (!(cluster instanceof Int32Array) || cluster.length !== n) throw new RangeError(`cluster must be an Int32Array with one entry per item: ${n} (got ${cluster?.length})`);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let maxLabel = -1;
  for (let i = 0; i < n; i++) {
    if (cluster[i] < 0) throw new RangeError(`cluster[${i}] must be an index ≥ 0 (got ${cluster[i]})`);
    if (cluster[i] > maxLabel) maxLabel = cluster[i];
  }
  const residuals = new Float64Array(n);
  for (let i = 0; i < n; i++) residuals[i] = values[i] - mean;
  const v = millerVariance(residuals, cluster, maxLabel + 1, 1 / n);
  const warnings: string[] = [];
  const designEffect = v.naive > 0 ? v.clustered / v.naive : NaN;
  if (v.clusters < 10) warnings.push(`only ${v.clusters} clusters: a cluster-robust standard error from so few clusters is itself very uncertain`);
  return { estimate: mean, naiveStandardError: Math.sqrt(v.naive), clusteredStandardError: Math.sqrt(v.clustered), designEffect, n, nClusters: v.clusters, warnings };
}
