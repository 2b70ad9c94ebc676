import { normalQuantile } from '../distributions/index.js';
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

/** Stratified PPI++: per-stratum results and their weighted combination. */
export interface StratifiedPpiResult {
  estimate: number;
  standardError: number;
  confidenceInterval: [number, number];
  confidenceLevel: number;
  classicalEstimate: number;
  classicalStandardError: number;
  classicalInterval: [number, number];
  nLabelled: number;
  nUnlabelled: number;
  /** Σ n_h · SE²(classical) / SE²(PPI): labels a labels-only stratified design would need for the same width. */
  effectiveLabels: number;
  /** The weights used, normalised to sum to 1. */
  strata: Array<PpiMeanResult & { stratum: string; weight: number }>;
  warnings: string[];
}

/**
 * Stratified prediction-powered inference: PPI++ in each stratum with its own tuned λ, combined
 * with fixed stratum weights. θ̂ = Σ_h w_h θ̂_h, SE² = Σ_h w_h² SE_h², normal interval; the
 * classical (labels-only) stratified estimate is combined the same way.
 * Use it when labels were drawn at random within strata (possibly at different rates), or to
 * reweight strata to production traffic.
 * Reference: Fisch, Maynez, Hofer, Dhingra, Globerson & Cohen (2024), "Stratified
 * Prediction-Powered Inference for Hybrid Language Model Evaluation", NeurIPS (StratPPI with
 * per-stratum λ); Cochran (1977) §5.3 for the stratified combination.
 * @param strata each stratum's labels, its judge scores on them and on its unlabelled items.
 * @param options confidenceLevel (default 0.95); lambda fixes λ in every stratum.
 * @returns see {@link StratifiedPpiResult}.
 * @throws {RangeError} for no strata, a negative or non-finite weight, all weights 0, or a
 *   stratum {@link ppiMean} refuses (fewer than 2 labels, no unlabelled item).
 * @example stratifiedPpiMean([{ stratum: 'x', weight: 1, labels: [1, 0, 1, 1], predictions: [0.9, 0.2, 0.8, 0.6], unlabelledPredictions: [0.7, 0.1, 0.9] }]).estimate // => 0.72509… (one stratum: ppiMean)
 */
export function stratifiedPpiMean(strata: readonly PpiStratum[], options: PpiMeanOptions = {}): StratifiedPpiResult {
  if (strata.length === 0) throw new RangeError('stratifiedPpiMean needs at least one stratum');
  let total = 0;
  for (const s of strata) {
    if (!(Number.isFinite(s.weight) && s.weight >= 0)) throw new RangeError(`stratum "${s.stratum}": weight must be a finite number ≥ 0 (got ${s.weight})`);
    total += s.weight;
  }
  if (!(total > 0)) throw new RangeError('stratum weights must not all be 0');
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const results = strata.map((s) => {
    try {
      return { ...ppiMean(s.labels, s.predictions, s.unlabelledPredictions, options), stratum: s.stratum, weight: s.weight / total };
    } catch (error) {
      if (error instanceof RangeError) throw new RangeError(`stratum "${s.stratum}": ${error.message}`);
      throw error;
    }
  });
  let estimate = 0;
  let variance = 0;
  let classicalEstimate = 0;
  let classicalVariance = 0;
  let nLabelled = 0;
  let nUnlabelled = 0;
  let effectiveLabels = 0;
  const warnings: string[] = [];
  for (const r of results) {
    estimate += r.weight * r.estimate;
    variance += r.weight ** 2 * r.standardError ** 2;
    classicalEstimate += r.weight * r.classicalEstimate;
    classicalVariance += r.weight ** 2 * r.classicalStandardError ** 2;
    nLabelled += r.nLabelled;
    nUnlabelled += r.nUnlabelled;
    if (!(r.standardError > 0)) warnings.push(`stratum "${r.stratum}": its ${r.nLabelled} labels show no variation, so the combined interval counts it as known exactly; label more of its items`);
    else for (const w of r.warnings) warnings.push(`stratum "${r.stratum}": ${w}`);
  }
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const standardError = Math.sqrt(variance);
  const classicalStandardError = Math.sqrt(classicalVariance);
  effectiveLabels = variance > 0 ? (nLabelled * classicalVariance) / variance : NaN;
  const interval = (m: number, se: number): [number, number] => (se > 0 ? [m - z * se, m + z * se] : [NaN, NaN]);
  return {
    estimate,
    standardError,
    confidenceInterval: interval(estimate, standardError),
    confidenceLevel,
    classicalEstimate,
    classicalStandardError,
    classicalInterval: interval(classicalEstimate, classicalStandardError),
    nLabelled,
    nUnlabelled,
    effectiveLabels,
    strata: results,
    warnings,
  };
}
