import { finiteValues } from './settings.js';

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

/**
 * The cluster-robust standard error of a mean, beside the naive one, when items come in clusters
 * (slots of one document, questions about one passage) and so are not independent.
 *
 * Formula (Miller 2024, "Adding Error Bars to Evals: A Statistical Approach to Language Model
 * Evaluations", arXiv:2411.00640, §2.2 and Appendix A), with s̄ the mean over all n items:
 *   SE_clustered = √( SE_CLT² + (1/n²) Σ_c Σ_{i∈c} Σ_{j∈c, j≠i} (s_i − s̄)(s_j − s̄) ),
 *   SE_CLT = √( Σ_i (s_i − s̄)² / (n − 1) / n ).
 * The cross-term sum is computed in O(n) as Σ_c (Σ_{i∈c}(s_i − s̄))² − Σ_i (s_i − s̄)².
 * With one item per cluster the cross terms vanish and SE_clustered = SE_CLT (design effect 1).
 * The sum of cross terms can be negative (negatively correlated slots); when it makes the variance
 * negative the clustered SE is NaN, with a warning. The same quantity in survey-sampling terms is
 * the with-replacement variance of a ratio mean (cf. R `survey::svymean` with `svydesign(ids = ~cluster)`,
 * up to its G/(G − 1) factor).
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
  const clusterDeviation = new Float64Array(maxLabel + 1);
  const seen = new Uint8Array(maxLabel + 1);
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    squares += d * d;
    clusterDeviation[cluster[i]] += d;
    seen[cluster[i]] = 1;
  }
  let nClusters = 0;
  let clusterSquares = 0;
  for (let c = 0; c <= maxLabel; c++) {
    if (!seen[c]) continue;
    nClusters += 1;
    clusterSquares += clusterDeviation[c] * clusterDeviation[c];
  }
  const warnings: string[] = [];
  const naiveVariance = squares / (n - 1) / n;
  const crossTerms = (clusterSquares - squares) / (n * n);
  const clusteredVariance = naiveVariance + crossTerms;
  const naiveStandardError = Math.sqrt(naiveVariance);
  let clusteredStandardError = clusteredVariance >= 0 ? Math.sqrt(clusteredVariance) : NaN;
  if (Number.isNaN(clusteredStandardError)) warnings.push('the clustered variance is negative (strongly negatively correlated items within clusters); the clustered standard error is undefined');
  if (squares === 0) clusteredStandardError = 0;
  const designEffect = naiveVariance > 0 ? clusteredVariance / naiveVariance : NaN;
  if (nClusters < 10) warnings.push(`only ${nClusters} clusters: a cluster-robust standard error from so few clusters is itself very uncertain`);
  return { estimate: mean, naiveStandardError, clusteredStandardError, designEffect, n, nClusters, warnings };
}
