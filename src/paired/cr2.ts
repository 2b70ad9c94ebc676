import { studentTCdf, studentTQuantile } from '../distributions/index.js';
import { clusteredStandardError } from './clustered-se.js';
import { checkAlternative, checkConfidenceLevel, finiteValues } from '../bootstrap/settings.js';
import type { Alternative } from '../bootstrap/types.js';

/** Settings of cr2Interval / cr2StratifiedInterval. */
export interface Cr2Options {
  /** Confidence level in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Default `'two-sided'`; `less` gives (−∞, high], `greater` gives [low, +∞). */
  alternative?: Alternative;
}

/** Settings of cr2StratifiedInterval. */
export interface Cr2StratifiedOptions extends Cr2Options {
  /**
   * Weight per stratum name (e.g. traffic shares): the estimate is Σ_h w_h · mean_h. Used as given
   * (need not sum to 1); each finite and ≥ 0; every stratum in the data needs one. Default: each
   * stratum's share of the items, n_h / n.
   */
  weights?: Readonly<Record<string, number>> | null;
}

/** A mean (or weighted sum of stratum means) with its CR2 cluster-robust t interval. */
export interface Cr2Result {
  method: 'cr2';
  /** The mean of the values (stratified: Σ_h w_h · mean_h). */
  estimate: number;
  /** √V_CR2 (see cr2Interval). */
  standardError: number;
  /** Satterthwaite degrees of freedom of V_CR2 under the working model (independent, equal-variance items). */
  df: number;
  /** estimate ± t(df, 1 − α) · SE; one-sided alternatives leave the other end infinite. */
  confidenceInterval: [number, number];
  /** P-value of H0 "the mean is 0" against `alternative`, from t(df). */
  pValue: number;
  /** estimate / standardError. */
  statistic: number;
  /** Miller's clustered SE of the same values (clusteredStandardError), for comparison; NaN for fewer than two items. */
  millerStandardError: number;
  confidenceLevel: number;
  alternative: Alternative;
  n: number;
  nClusters: number;
  /** Number of strata (1 for cr2Interval). */
  nStrata: number;
  /**
   * Why the data cannot support an interval, or null when they can: the cluster totals of residuals
   * all cancel (every cluster's mean equals its stratum's mean, so the between-cluster spread
   * estimates 0), or every difference is the same. The interval, statistic and p-value are then NaN;
   * never the point [estimate, estimate].
   */
  noInterval: string | null;
  warnings: string[];
}

/**
 * The CR2 (Bell–McCaffrey) cluster-robust t interval for the mean of per-item values (e.g. paired
 * differences A − B) whose items come in clusters, with Satterthwaite degrees of freedom. Use it
 * when there are few clusters (down to about 8) or clusters of unequal size, where Miller's
 * clustered SE with a normal or t(G − 1) quantile under-covers.
 *
 * The mean is the OLS intercept of d ~ 1. With residuals e_i = d_i − d̄, cluster totals
 * T_g = Σ_{i∈g} e_i and sizes n_g, the hat matrix's cluster block is H_gg = J / n, so the CR2
 * adjustment A_g = (I − H_gg)^(−1/2) scales the constant direction by 1/√(1 − n_g/n), and
 *   V_CR2 = (1/n²) Σ_g T_g² / (1 − n_g/n).
 * Under the working model (independent items of equal variance σ²) V_CR2 = Σ_g (u_gᵀ d)² with
 * u_g = (1/n)(1 − n_g/n)^(−1/2) (δ_g − (n_g/n)·1), so E V = σ² Σ_g u_gᵀu_g = σ²/n (exactly unbiased) and
 *   df = (Σ_g u_gᵀu_g)² / Σ_g Σ_k (u_gᵀu_k)²,
 *   u_gᵀu_g = n_g / n², u_gᵀu_k = −n_g n_k / (n³ √((1 − n_g/n)(1 − n_k/n))) for g ≠ k.
 * With G equal clusters df = G − 1; with one item per cluster V_CR2 = s²/n (HC2) and df = n − 1.
 * Reference: Bell & McCaffrey (2002), Survey Methodology 28(2):169–181; Pustejovsky & Tipton (2018),
 * JBES 36(4):672–683; R clubSandwich
 * `coef_test(lm(d ~ 1), vcov = "CR2", cluster = cl, test = "Satterthwaite")` and `conf_int(...)`.
 *
 * @param values per item, finite.
 * @param clusters per item its cluster id (any string); one id per item gives HC2 with df n − 1.
 * @param options confidenceLevel (default 0.95), alternative (default two-sided).
 * @returns method, estimate, standardError, df, confidenceInterval, pValue, statistic,
 *   millerStandardError, confidenceLevel, alternative, n, nClusters, nStrata (1), noInterval, warnings.
 *   With one cluster the SE, df and interval are NaN (a warning says why). When the cluster totals of
 *   residuals all cancel (V_CR2 = 0: e.g. 4 documents whose mean differences are equal) the SE is 0, and a 0 estimated from G totals is no evidence
 *   that the spread is 0: the interval, statistic and p-value are NaN and `noInterval` says why
 *   (never the point [estimate, estimate]).
 * @throws {RangeError} on fewer than two values, non-finite values, clusters of the wrong length,
 *   a level outside (0, 1). @throws {TypeError} for a cluster id that is not a string.
 * @example cr2Interval([1, 2, 3, 4, 6, 8], ['a', 'a', 'b', 'b', 'c', 'c']).df // => 2 (G − 1 for equal clusters)
 * O(n + G).
 */
export function cr2Interval(values: readonly number[] | ArrayLike<number>, clusters: readonly string[], options: Cr2Options = {}): Cr2Result {
  const n = values.length;
  return cr2StratifiedInterval(values, clusters, new Array<string>(n).fill(''), { ...options, weights: null });
}

/**
 * The CR2 interval for a weighted sum of stratum means Σ_h w_h · mean_h (a reweighted headline, or
 * the stratified mean of paired differences), clusters nested in strata: OLS of d on one intercept
 * per stratum, the contrast w, CR2 and Satterthwaite df as in cr2Interval.
 *
 * Per stratum h (n_h items, mean m_h), cluster g in h with size n_g and residual total T_g:
 *   V_CR2 = Σ_h (w_h/n_h)² Σ_{g∈h} T_g² / (1 − n_g/n_h);
 *   df = (Σ_h w_h² (n_h − n_h1)/n_h²)² / Σ_h (w_h⁴/n_h⁴) [Σ_{g∈h} n_g² + (B_h² − Σ_{g∈h} b_g⁴)/n_h²],
 *   b_g = n_g / √(1 − n_g/n_h), B_h = Σ_{g∈h} b_g², n_h1 = n_h when h is a single cluster, else 0.
 * A stratum made of a single cluster contributes nothing to V (its residuals sum to 0 and
 * clubSandwich's pseudo-inverse square root drops that direction); a warning names it.
 * Reference: R clubSandwich
 * `linear_contrast(lm(d ~ 0 + stratum), vcov = "CR2", cluster = cl, contrasts = matrix(w, 1), test = "Satterthwaite")`.
 *
 * @param values per item, finite.
 * @param clusters per item its cluster id; every cluster must lie within one stratum.
 * @param strata per item its stratum name.
 * @param options weights per stratum (default n_h / n), confidenceLevel, alternative.
 * @returns as cr2Interval, with nStrata.
 * @throws {RangeError} as cr2Interval, and for a cluster spanning two strata, a missing or negative
 *   weight, or a stratum with a single item. @throws {TypeError} for non-string ids.
 * @example cr2StratifiedInterval([1, 2, 3, 4, 6, 8], ['a', 'a', 'b', 'b', 'c', 'c'], ['x', 'x', 'x', 'x', 'y', 'y'], { weights: { x: 0.5, y: 0.5 } }).estimate // => 4.75 (0.5 · 2.5 + 0.5 · 7)
 * O(n + G).
 */
export function cr2StratifiedInterval(
  values: readonly number[] | ArrayLike<number>,
  clusters: readonly string[],
  strata: readonly string[],
  options: Cr2StratifiedOptions = {},
): Cr2Result {
  const d = finiteValues('values', values);
  const n = d.length;
  if (n < 2) throw new RangeError(`a CR2 interval needs at least two values (got ${n})`);
  if (!Array.isArray(clusters) || clusters.length !== n) throw new RangeError(`clusters must have one id per value: ${n} (got ${(clusters as { length?: number })?.length})`);
  if (!Array.isArray(strata) || strata.length !== n) throw new RangeError(`strata must have one name per value: ${n} (got ${(strata as { length?: number })?.length})`);
  const confidenceLevel = checkConfidenceLevel(options.confidenceLevel);
  const alternative = checkAlternative(options.alternative);
  const stratified = options.weights !== null || strata.some((s) => s !== strata[0]);

  // Index strata and clusters in order of first appearance.
  const stratumIndex = new Map<string, number>();
  const clusterIndex = new Map<string, number>();
  const stratumOf = new Int32Array(n);
  const clusterOf = new Int32Array(n);
  const clusterStratum: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = strata[i];
    const c = clusters[i];
    if (typeof s !== 'string') throw new TypeError(`strata[${i}] must be a string (got ${String(s)})`);
    if (typeof c !== 'string') throw new TypeError(`clusters[${i}] must be a string (got ${String(c)})`);
    let h = stratumIndex.get(s);
    if (h === undefined) stratumIndex.set(s, (h = stratumIndex.size));
    let g = clusterIndex.get(c);
    if (g === undefined) {
      clusterIndex.set(c, (g = clusterIndex.size));
      clusterStratum.push(h);
    } else if (clusterStratum[g] !== h) {
      throw new RangeError(`cluster "${c}" spans two strata ("${stratumName(stratumIndex, clusterStratum[g])}" and "${s}"): clusters must be nested in strata`);
    }
    stratumOf[i] = h;
    clusterOf[i] = g;
  }
  const H = stratumIndex.size;
  const G = clusterIndex.size;
  const names = [...stratumIndex.keys()];

  const stratumSize = new Float64Array(H);
  const stratumSum = new Float64Array(H);
  for (let i = 0; i < n; i++) {
    stratumSize[stratumOf[i]] += 1;
    stratumSum[stratumOf[i]] += d[i];
  }
  const weight = new Float64Array(H);
  for (let h = 0; h < H; h++) {
    if (stratified && stratumSize[h] < 2) throw new RangeError(`stratum "${names[h]}" has a single item: its mean has no residual to estimate a variance from`);
    if (options.weights) {
      const w = options.weights[names[h]];
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new RangeError(`weights["${names[h]}"] must be a finite number ≥ 0 (got ${String(w)})`);
      weight[h] = w;
    } else weight[h] = stratified ? stratumSize[h] / n : 1;
  }
  const stratumMean = new Float64Array(H);
  for (let h = 0; h < H; h++) stratumMean[h] = stratumSum[h] / stratumSize[h];
  let estimate = 0;
  for (let h = 0; h < H; h++) estimate += weight[h] * stratumMean[h];

  const clusterSize = new Float64Array(G);
  const clusterTotal = new Float64Array(G);
  for (let i = 0; i < n; i++) {
    clusterSize[clusterOf[i]] += 1;
    clusterTotal[clusterOf[i]] += d[i] - stratumMean[stratumOf[i]];
  }

  const warnings: string[] = [];
  let variance = 0;
  let expected = 0; // Σ_g u_gᵀu_g (σ² = 1)
  let squares = 0; // Σ_g Σ_k (u_gᵀu_k)²
  const bSquares = new Float64Array(H); // B_h = Σ_{g∈h} b_g²
  const bFourth = new Float64Array(H); // Σ_{g∈h} b_g⁴
  const sizeSquares = new Float64Array(H); // Σ_{g∈h, n_g < n_h} n_g²
  const clustersIn = new Int32Array(H);
  for (let g = 0; g < G; g++) {
    const h = clusterStratum[g];
    clustersIn[h] += 1;
    const nh = stratumSize[h];
    const ng = clusterSize[g];
    if (ng >= nh) continue; // the whole stratum: the pseudo-inverse drops the constant direction
    const inflation = nh / (nh - ng); // 1 / (1 − n_g/n_h), exact in integers
    const scale = weight[h] / nh;
    variance += scale * scale * clusterTotal[g] * clusterTotal[g] * inflation;
    expected += (weight[h] * weight[h] * ng) / (nh * nh);
    const b2 = ng * ng * inflation;
    bSquares[h] += b2;
    bFourth[h] += b2 * b2;
    sizeSquares[h] += ng * ng;
  }
  for (let h = 0; h < H; h++) {
    const nh = stratumSize[h];
    const w4 = weight[h] ** 4 / nh ** 4;
    squares += w4 * (sizeSquares[h] + (bSquares[h] * bSquares[h] - bFourth[h]) / (nh * nh));
    if (clustersIn[h] === 1 && weight[h] > 0) {
      warnings.push(
        stratified
          ? `stratum "${names[h]}" is a single cluster: its variance cannot be estimated and counts as 0`
          : 'a single cluster: a cluster-robust standard error needs at least two clusters',
      );
    }
  }

  let standardError = Math.sqrt(variance);
  let df = (expected * expected) / squares;
  if (!(expected > 0)) {
    standardError = NaN;
    df = NaN;
  }
  if (G < 8 && G >= 2) warnings.push(`only ${G} clusters: even the CR2 interval is uncertain with so few`);
  const millerStandardError = stratified ? NaN : Math.sqrt(millerVarianceOf(d, clusterOf));

  const alpha = alternative === 'two-sided' ? (1 - confidenceLevel) / 2 : 1 - confidenceLevel;
  let low = NaN;
  let high = NaN;
  let statistic = NaN;
  let pValue = NaN;
  let noInterval: string | null = null;
  // V_CR2 = 0 (up to rounding in the residual totals): the G totals estimate the between-cluster
  // spread as 0, which a few clusters cannot show; no interval rather than the point estimate.
  let largestResidual = 0;
  for (let i = 0; i < n; i++) largestResidual = Math.max(largestResidual, Math.abs(d[i] - stratumMean[stratumOf[i]]));
  const cancels = Number.isFinite(standardError) && standardError <= 1e-12 * Math.max(1, largestResidual);
  if (cancels) {
    standardError = 0;
    noInterval =
      largestResidual === 0
        ? `every difference${stratified ? ' in each stratum' : ''} is the same, so these ${n} items show no variation to size an interval from: the data cannot support an interval`
        : `the ${G} clusters' totals cancel (every cluster's mean difference equals ${stratified ? 'its stratum\'s' : 'the overall'} mean ${stratified ? '' : formatShort(estimate) + ' '}although items vary within clusters), so the between-cluster spread estimates 0, which ${G} clusters cannot show: the data cannot support an interval; score more clusters`;
    warnings.push(noInterval);
  } else if (df > 0 && Number.isFinite(standardError)) {
    const half = studentTQuantile(1 - alpha, df) * standardError;
    low = alternative === 'less' ? -Infinity : estimate - half;
    high = alternative === 'greater' ? Infinity : estimate + half;
    statistic = estimate / standardError;
    if (alternative === 'two-sided') pValue = Math.min(1, 2 * studentTCdf(-Math.abs(statistic), df));
    else if (alternative === 'less') pValue = studentTCdf(statistic, df);
    else pValue = studentTCdf(-statistic, df);
  }
  return {
    method: 'cr2',
    estimate,
    standardError,
    df,
    confidenceInterval: [low, high],
    pValue,
    statistic,
    millerStandardError,
    confidenceLevel,
    alternative,
    n,
    nClusters: G,
    nStrata: H,
    noInterval,
    warnings,
  };
}

/** A number for a message: up to 4 significant digits. */
function formatShort(x: number): string {
  return String(Number(x.toPrecision(4)));
}

function stratumName(index: Map<string, number>, h: number): string {
  for (const [name, k] of index) if (k === h) return name;
  return `#${h}`;
}

/** Miller's clustered variance of the mean (the one implementation in clustered-se.ts). */
function millerVarianceOf(d: Float64Array, clusterOf: Int32Array): number {
  const se = clusteredStandardError(d, clusterOf).clusteredStandardError;
  return se * se;
}
