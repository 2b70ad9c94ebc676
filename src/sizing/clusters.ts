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
  /** Var(d̄) = s_e² · C / N²: the cluster-robust variance of the pilot's mean difference (R survey's SE²). */
  varianceOfMean: number;
  /** deff = Var(d̄) / (s² / N) = s_e² / (m̄ · s²): the factor clustering multiplies the item count by. */
  designEffect: number;
  /** ρ ≈ (deff − 1) / (m̄ − 1), the intraclass correlation the design effect implies; NaN when m̄ = 1. */
  intraclassCorrelation: number;
  /** deff · s² = s_e² / m̄: the per-item variance to size with. */
  effectiveVariance: number;
}

/**
 * The design effect of clustered items, from the pilot's paired differences.
 *
 * Items of one cluster (slots of one contract) tend to be right or wrong together, so N items
 * in C clusters carry less information than N independent items. The mean difference's variance
 * is estimated from cluster residual totals (the linearised, cluster-robust variance):
 *
 *   e_c = Σ_{i∈c} (d_i − d̄),  s_e² = Σ_c e_c² / (C − 1),  Var(d̄) = s_e² · C / N²,
 *   deff = Var(d̄) / (s²/N),   effective per-item variance = deff · s² = s_e² / m̄.
 *
 * Sizing with the effective variance gives items; dividing by m̄ gives clusters (documents to
 * annotate, assuming new clusters are about as large as the pilot's).
 * Reference: Kish (1965), Survey Sampling, §5.4; R `survey::svymean(~d, svydesign(ids = ~cluster,
 * data = pilot))` gives SE² = Var(d̄); Miller (2024), "Adding Error Bars to Evals", §2.2
 * (clustered standard errors).
 * @param differences d_i per item; cluster index per item in 0…clusterCount − 1.
 * @returns the design; designEffect NaN when s² = 0, varianceOfClusterTotals NaN with one cluster.
 * @throws {TypeError} when the arrays differ in length; {RangeError} for a cluster index out of range.
 * Cost: O(N + C).
 * @example clusterDesign([2, 0, 0, -2], [0, 0, 1, 1], 2).designEffect // => 1.5 (s_e² = 8, Var(d̄) = 1, s²/N = 2/3)
 */
export function clusterDesign(differences: ArrayLike<number>, cluster: ArrayLike<number>, clusterCount: number): ClusterDesign {
  const items = differences.length;
  if (cluster.length !== items) throw new TypeError(`clusterDesign: ${items} differences but ${cluster.length} cluster labels`);
  let sum = 0;
  for (let i = 0; i < items; i++) sum += differences[i];
  const mean = sum / items;
  const totals = new Float64Array(clusterCount);
  const sizes = new Int32Array(clusterCount);
  let squares = 0;
  for (let i = 0; i < items; i++) {
    const c = cluster[i];
    if (!(c >= 0 && c < clusterCount)) throw new RangeError(`clusterDesign: cluster index ${c} of item ${i} is outside 0…${clusterCount - 1}`);
    totals[c] += differences[i] - mean;
    sizes[c] += 1;
    squares += (differences[i] - mean) ** 2;
  }
  let clusters = 0;
  let totalSquares = 0;
  for (let c = 0; c < clusterCount; c++) {
    if (sizes[c] === 0) continue;
    clusters += 1;
    totalSquares += totals[c] * totals[c];
  }
  const itemVariance = items > 1 ? squares / (items - 1) : NaN;
  const varianceOfClusterTotals = clusters > 1 ? totalSquares / (clusters - 1) : NaN;
  const meanClusterSize = items / clusters;
  const varianceOfMean = (varianceOfClusterTotals * clusters) / (items * items);
  const designEffect = itemVariance > 0 ? varianceOfMean / (itemVariance / items) : NaN;
  return {
    clusters,
    items,
    meanClusterSize,
    varianceOfClusterTotals,
    varianceOfMean,
    designEffect,
    intraclassCorrelation: meanClusterSize > 1 ? (designEffect - 1) / (meanClusterSize - 1) : NaN,
    effectiveVariance: varianceOfClusterTotals / meanClusterSize,
  };
}
