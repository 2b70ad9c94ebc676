import { millerVariance } from '../paired/clustered-se.js';

/** How much sharing a cluster (the document an item's slot belongs to) inflates the variance. */
export interface ClusterDesign {
  /** C: clusters in the pilot. */
  clusters: number;
  /** N: items in the pilot. */
  items: number;
  /** m̄ = N / C. */
  meanClusterSize: number;
  /** s_e² = Σ_c e_c² / (C − 1), e_c = Σ_{i ∈ c} (d_i − d̄): the variance of cluster residual totals. */
  varianceOfClusterTotals: number;
  /**
   * Var(d̄) = Σ_c e_c² / N² + Σ_i (d_i − d̄)² / (N² (N − 1)): Miller's cluster-robust variance of the
   * pilot's mean difference, the same as `compare --cluster` reports (clusteredStandardError²).
   */
  varianceOfMean: number;
  /** deff = Var(d̄) / (s² / N): the factor clustering multiplies the item count by (compare's designEffect). */
  designEffect: number;
  /** ρ ≈ (deff − 1) / (m̄ − 1), the intraclass correlation the design effect implies; NaN when m̄ = 1. */
  intraclassCorrelation: number;
  /** deff · s² = N · Var(d̄): the per-item variance to size with. */
  effectiveVariance: number;
}

/**
 * The design effect of clustered items, from the pilot's paired differences.
 *
 * Items of one cluster (slots of one contract) tend to be right or wrong together, so N items
 * in C clusters carry less information than N independent items. The mean difference's variance
 * is Miller's cluster-robust variance (millerVariance in src/paired/clustered-se.ts, the very
 * function behind `compare --cluster`, so both commands report the same design effect on the same data):
 *
 *   e_c = Σ_{i∈c} (d_i − d̄),  Var(d̄) = Σ_c e_c² / N² + Σ_i (d_i − d̄)² / (N² (N − 1)),
 *   deff = Var(d̄) / (s²/N),   effective per-item variance = deff · s² = N · Var(d̄).
 *
 * R `survey::svymean(~d, svydesign(ids = ~cluster, data = pilot))` gives C/(C − 1) · Σ_c e_c² / N²
 * instead; Var(d̄) = (C − 1)/C · survey SE² + s²/N² (Miller 2024 leaves out survey's C/(C − 1)). With
 * one item per cluster deff = 1 exactly.
 * Sizing with the effective variance gives items; dividing by m̄ gives clusters (documents to
 * annotate, assuming new clusters are about as large as the pilot's).
 * Reference: Miller (2024), "Adding Error Bars to Evals", arXiv:2411.00640, §2.2 and Appendix A;
 * Kish (1965), Survey Sampling, §5.4 (the design effect).
 * @param differences d_i per item; cluster index per item in 0…clusterCount − 1.
 * @returns the design; designEffect NaN when s² = 0, varianceOfClusterTotals NaN with one cluster.
 * @throws {TypeError} when the arrays differ in length; {RangeError} for a cluster index out of range.
 * Cost: O(N + C).
 * @example clusterDesign([1, 1, 0, 0], [0, 0, 1, 1], 2).designEffect // => 1.75 (Var(d̄) = 2/16 + 1/48 = 7/48, s²/N = 1/12)
 */
export function clusterDesign(differences: ArrayLike<number>, cluster: ArrayLike<number>, clusterCount: number): ClusterDesign {
  const items = differences.length;
  if (cluster.length !== items) throw new TypeError(`clusterDesign: ${items} differences but ${cluster.length} cluster labels`);
  let sum = 0;
  for (let i = 0; i < items; i++) sum += differences[i];
  const mean = sum / items;
  const residuals = new Float64Array(items);
  const totals = new Float64Array(clusterCount);
  for (let i = 0; i < items; i++) {
    const c = cluster[i];
    if (!(c >= 0 && c < clusterCount)) throw new RangeError(`clusterDesign: cluster index ${c} of item ${i} is outside 0…${clusterCount - 1}`);
    residuals[i] = differences[i] - mean;
    totals[c] += residuals[i];
  }
  const v = millerVariance(residuals, cluster, clusterCount, 1 / items);
  const clusters = v.clusters;
  let totalSquares = 0;
  for (let c = 0; c < clusterCount; c++) totalSquares += totals[c] * totals[c];
  const varianceOfClusterTotals = clusters > 1 ? totalSquares / (clusters - 1) : NaN;
  const meanClusterSize = items / clusters;
  const varianceOfMean = v.clustered;
  const designEffect = v.naive > 0 ? varianceOfMean / v.naive : NaN;
  return {
    clusters,
    items,
    meanClusterSize,
    varianceOfClusterTotals,
    varianceOfMean,
    designEffect,
    intraclassCorrelation: meanClusterSize > 1 ? (designEffect - 1) / (meanClusterSize - 1) : NaN,
    effectiveVariance: items * varianceOfMean,
  };
}
