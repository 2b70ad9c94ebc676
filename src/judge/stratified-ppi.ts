import { studentTQuantile } from '../distributions/index.js';
import { smallStrataVariance } from '../strata/small-strata-variance.js';
import { ppiMean, type PpiMeanOptions, type PpiMeanResult } from './ppi-mean.js';

/** One stratum's data for {@link stratifiedPpiMean}. */
export interface PpiStratum {
  stratum: string;
  /** The stratum's weight in the headline (its share of the items, or of traffic); ≥ 0. */
  weight: number;
  labels: ArrayLike<number>;
  predictions: ArrayLike<number>;
  unlabelledPredictions: ArrayLike<number>;
}

/** Strata with fewer labels than this are pooled with a neighbour (stratifiedPpiMean's default). */
export const PPI_MIN_STRATUM_LABELS = 3;

/** Settings of stratifiedPpiMean. */
export interface StratifiedPpiOptions extends PpiMeanOptions {
  /** Strata with fewer labels (or no unlabelled item) are pooled with a neighbour; default PPI_MIN_STRATUM_LABELS (3). */
  minLabels?: number;
}

/** Stratified PPI++: per-stratum results and their weighted combination. */
export interface StratifiedPpiResult {
  estimate: number;
  /** √V, V the variance actually used (unbiased, small strata floored, see stratifiedPpiMean). */
  standardError: number;
  /** estimate ± t(df, 1 − α/2) · SE; NaN when the data cannot support one (noInterval). */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  /** Satterthwaite's degrees of freedom of V. */
  df: number;
  classicalEstimate: number;
  classicalStandardError: number;
  classicalInterval: [number, number];
  nLabelled: number;
  nUnlabelled: number;
  /** nLabelled · V(classical) / V, both the variances actually used: labels a labels-only stratified design would need for the same width. */
  effectiveLabels: number;
  /** Per stratum as estimated (pooled strata as one, named "a + b"); weights normalised to sum to 1. */
  strata: Array<PpiMeanResult & { stratum: string; weight: number; members: string[] }>;
  /** The groups of strata pooled because a member had too few labels (empty when none was). */
  collapsedStrata: string[][];
  /** Why there is no interval (every stratum's labels and residuals constant), or null. */
  noInterval: string | null;
  warnings: string[];
}

/**
 * Stratified prediction-powered inference: PPI++ in each stratum with its own tuned λ, combined
 * with fixed stratum weights, built to hold with a few labels in a stratum (a random draw of 30
 * labels leaves a 5% stratum 0 or 1 of them 55% of the time).
 * 1. Strata with fewer than `minLabels` labels (or no unlabelled item) are pooled with an adjacent
 *    stratum in the given order (the smaller-labelled neighbour; repeated until every group has
 *    enough), weights added: the "collapsed strata" of survey practice (Cochran 1977 §5A.12). With
 *    labels drawn at random over the items and item-share weights this is exact; with traffic
 *    weights it assumes the pooled strata's judge errors (Y − λf) share a mean. A warning names them.
 * 2. Per stratum θ̂_h = λ_h mean(f̃) + mean(Y − λ_h f) and unbiased variances (divisor n − 1 and
 *    N − 1, not ppi_py's n and N): SE_h² = s²(Y − λ_h f)/n_h + λ_h² s²(f̃)/N_h.
 * 3. The label terms go through smallStrataVariance: a stratum of fewer than 10 labels has its
 *    residual variance floored at the pooled within-stratum one (2–3 equal labels give s² = 0);
 *    V = Σ_h w_h² SE_h², read with Satterthwaite's df (label terms on n_h − 1, judge terms on N_h − 1):
 *    interval θ̂ ± t(df, 1 − α/2) √V. The labels-only estimate is combined the same way.
 * Reference: Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen (2024), "Stratified
 * Prediction-Powered Inference for Hybrid Language Model Evaluation", NeurIPS (StratPPI with
 * per-stratum λ); Cochran (1977) §5.3–5.4 (stratified combination, Satterthwaite df), §5A.12
 * (collapsed strata). Coverage: bench/strata-small-study.txt.
 * @param strata each stratum's labels, its judge scores on them and on its unlabelled items.
 * @param options confidenceLevel (default 0.95); lambda fixes λ in every stratum; minLabels (default 3).
 * @returns see {@link StratifiedPpiResult}.
 * @throws {RangeError} for no strata, a negative or non-finite weight, all weights 0, fewer than 2
 *   labels or no unlabelled item in all, or a stratum ppiMean refuses for its values (non-finite).
 * @example stratifiedPpiMean([{ stratum: 'x', weight: 1, labels: [1, 0, 1, 1], predictions: [0.9, 0.2, 0.8, 0.6], unlabelledPredictions: [0.7, 0.1, 0.9] }]).estimate // => 0.72509… (one stratum: ppiMean's estimate)
 */
export function stratifiedPpiMean(strata: readonly PpiStratum[], options: StratifiedPpiOptions = {}): StratifiedPpiResult {
  if (strata.length === 0) throw new RangeError('stratifiedPpiMean needs at least one stratum');
  const minLabels = options.minLabels ?? PPI_MIN_STRATUM_LABELS;
  if (!Number.isInteger(minLabels) || minLabels < 2) throw new RangeError(`minLabels must be a whole number ≥ 2 (got ${String(minLabels)})`);
  let total = 0;
  let labelsInAll = 0;
  let unlabelledInAll = 0;
  for (const s of strata) {
    if (!(Number.isFinite(s.weight) && s.weight >= 0)) throw new RangeError(`stratum "${s.stratum}": weight must be a finite number ≥ 0 (got ${s.weight})`);
    if (s.labels.length !== s.predictions.length) throw new RangeError(`stratum "${s.stratum}": labels and predictions must pair up (got ${s.labels.length} and ${s.predictions.length})`);
    total += s.weight;
    labelsInAll += s.labels.length;
    unlabelledInAll += s.unlabelledPredictions.length;
  }
  if (!(total > 0)) throw new RangeError('stratum weights must not all be 0');
  if (labelsInAll < 2) throw new RangeError(`PPI needs at least 2 labelled items (got ${labelsInAll})`);
  if (unlabelledInAll < 1) throw new RangeError('PPI needs at least 1 item without a human label');
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const groups = collapseByLabels(strata, minLabels);
  const results = groups.map((members) => {
    const labels: number[] = [];
    const predictions: number[] = [];
    const unlabelled: number[] = [];
    let weight = 0;
    for (const k of members) {
      const s = strata[k];
      for (let i = 0; i < s.labels.length; i++) labels.push(s.labels[i]);
      for (let i = 0; i < s.predictions.length; i++) predictions.push(s.predictions[i]);
      for (let i = 0; i < s.unlabelledPredictions.length; i++) unlabelled.push(s.unlabelledPredictions[i]);
      weight += s.weight / total;
    }
    const names = members.map((k) => strata[k].stratum);
    try {
      return { ...ppiMean(labels, predictions, unlabelled, { confidenceLevel, lambda: options.lambda }), stratum: names.join(' + '), weight, members: names, labels, predictions, unlabelled };
    } catch (error) {
      if (error instanceof RangeError) throw new RangeError(`stratum "${names.join(' + ')}": ${error.message}`);
      throw error;
    }
  });
  const warnings: string[] = [];
  const collapsedStrata = results.filter((r) => r.members.length > 1).map((r) => r.members);
  for (const members of collapsedStrata) {
    const counts = members.map((name) => `"${name}" ${strata.find((s) => s.stratum === name)!.labels.length}`).join(', ');
    warnings.push(`strata with fewer than ${minLabels} labels are pooled with a neighbour: ${members.map((m) => `"${m}"`).join(' + ')} estimated as one stratum (labels ${counts}); label more of them to keep them apart`);
  }
  // Unbiased per-stratum pieces: residual variance on the labels, judge variance on the rest.
  const labelParts: Array<{ weight: number; n: number; variance: number }> = [];
  const classicalParts: Array<{ weight: number; n: number; variance: number }> = [];
  const judgeTerms: Array<{ variance: number; df: number }> = [];
  let estimate = 0;
  let classicalEstimate = 0;
  let nLabelled = 0;
  let nUnlabelled = 0;
  for (const r of results) {
    const rectified = r.labels.map((y, i) => y - r.lambda * r.predictions[i]);
    labelParts.push({ weight: r.weight, n: r.nLabelled, variance: sampleVariance(rectified) });
    classicalParts.push({ weight: r.weight, n: r.nLabelled, variance: sampleVariance(r.labels) });
    const N = r.nUnlabelled;
    if (N >= 2 && r.lambda > 0) judgeTerms.push({ variance: (r.weight ** 2 * r.lambda ** 2 * sampleVariance(r.unlabelled)) / N, df: N - 1 });
    estimate += r.weight * r.estimate;
    classicalEstimate += r.weight * r.classicalEstimate;
    nLabelled += r.nLabelled;
    nUnlabelled += N;
  }
  const v = smallStrataVariance(labelParts, { extra: judgeTerms });
  const c = smallStrataVariance(classicalParts);
  for (const [k, part] of v.parts.entries()) {
    const r = results[k];
    if (r.weight > 0 && part.pooled) {
      warnings.push(`stratum "${r.stratum}": its ${r.nLabelled} labels ${labelParts[k].variance === 0 ? 'show no variation' : 'vary less than the other strata\'s'}, so the pooled within-stratum variance (${v.pooledDf} df) stands in for theirs; label more of its items`);
    }
  }
  const standardError = Math.sqrt(v.variance);
  const classicalStandardError = Math.sqrt(c.variance);
  const level = (df: number) => studentTQuantile(1 - (1 - confidenceLevel) / 2, df);
  const interval = (m: number, se: number, df: number): [number, number] => (se > 0 && df > 0 ? [m - level(df) * se, m + level(df) * se] : [NaN, NaN]);
  const noInterval = v.variance > 0 ? null : `the ${nLabelled} labels and the judge's residuals are constant in every stratum, so there is no variance to size an interval from: the data cannot support an interval; label more items`;
  if (noInterval !== null) warnings.push(noInterval);
  return {
    estimate,
    standardError,
    confidenceInterval: interval(estimate, standardError, v.df),
    confidenceLevel,
    df: v.df,
    classicalEstimate,
    classicalStandardError,
    classicalInterval: interval(classicalEstimate, classicalStandardError, c.df),
    nLabelled,
    nUnlabelled,
    effectiveLabels: v.variance > 0 ? (nLabelled * c.variance) / v.variance : NaN,
    strata: results.map(({ labels: _l, predictions: _p, unlabelled: _u, ...r }) => r),
    collapsedStrata,
    noInterval,
    warnings,
  };
}

/** Sample variance (divisor n − 1); 0 for one value; exactly 0 when every value is the same. */
function sampleVariance(x: readonly number[]): number {
  const n = x.length;
  if (n < 2 || x.every((v) => v === x[0])) return 0;
  let m = 0;
  for (const v of x) m += v;
  m /= n;
  let s = 0;
  for (const v of x) s += (v - m) * (v - m);
  return s / (n - 1);
}

/**
 * Groups of stratum indices: repeatedly the stratum (group) with the fewest labels below
 * minLabels, or with no unlabelled item, is merged with its adjacent group having fewer labels
 * (ties: the earlier one). Deterministic, in the given order.
 */
function collapseByLabels(strata: readonly PpiStratum[], minLabels: number): number[][] {
  const groups = strata.map((s, k) => ({ members: [k], labels: s.labels.length, unlabelled: s.unlabelledPredictions.length }));
  for (;;) {
    if (groups.length < 2) break;
    let pick = -1;
    for (let g = 0; g < groups.length; g++) {
      const short = groups[g].labels < minLabels || groups[g].unlabelled < 1;
      if (short && (pick < 0 || groups[g].labels < groups[pick].labels)) pick = g;
    }
    if (pick < 0) break;
    const left = pick - 1;
    const right = pick + 1;
    const other = left < 0 ? right : right >= groups.length ? left : groups[left].labels <= groups[right].labels ? left : right;
    const [first, second] = other < pick ? [other, pick] : [pick, other];
    groups[first] = {
      members: [...groups[first].members, ...groups[second].members],
      labels: groups[first].labels + groups[second].labels,
      unlabelled: groups[first].unlabelled + groups[second].unlabelled,
    };
    groups.splice(second, 1);
  }
  return groups.map((g) => g.members);
}
