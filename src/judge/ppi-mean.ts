import { normalQuantile } from '../distributions/index.js';
import { populationVariance, sampleMean } from './moments.js';
import { powerTuningLambda } from './power-tuning.js';

/** Options of {@link ppiMean}. */
export interface PpiMeanOptions {
  /** Two-sided confidence level in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** A fixed λ in [0, 1] (0: labels only, 1: plain PPI); default: power-tuned ({@link powerTuningLambda}). */
  lambda?: number;
}

/** The PPI++ estimate of a mean with its interval, and the labels-only interval beside it. */
export interface PpiMeanResult {
  /** λ·mean(f unlabelled) + mean(Y − λ·f labelled). */
  estimate: number;
  standardError: number;
  confidenceInterval: [number, number];
  confidenceLevel: number;
  /** The λ used, and whether it was tuned from the data. */
  lambda: number;
  lambdaTuned: boolean;
  /** Labelled (n) and unlabelled (N) items. */
  nLabelled: number;
  nUnlabelled: number;
  /** Mean of the labels alone, its standard error sd(Y)/√n and normal interval (λ = 0). */
  classicalEstimate: number;
  classicalStandardError: number;
  classicalInterval: [number, number];
  /**
   * Human labels a labels-only interval would need to be as narrow: n · SE²(classical) / SE²(PPI).
   * Above n means the judge is worth labels; equal to n when λ = 0.
   */
  effectiveLabels: number;
  warnings: string[];
}

/**
 * Prediction-powered (PPI++) estimate and normal interval of a mean, from human labels on a
 * random subset of items and a judge's scores on every item.
 *
 * With n labelled pairs (Y_i, f_i) and N unlabelled judge scores f̃_j:
 *   θ̂ = λ · mean(f̃) + mean(Y − λ f),
 *   SE² = λ² · var(f̃) / N + var(Y − λ f) / n   (variances divide by their count, as np.std),
 *   interval θ̂ ± z_{1−α/2} · SE.
 * λ = Cov(Y, f) / ((1 + n/N) Var(f)) clipped to [0, 1] unless fixed. Valid whatever the judge's
 * bias, provided the labelled items are a uniformly random subset of all items; the better the
 * judge tracks the humans, the narrower the interval.
 * Reference: Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023), Science 382; Angelopoulos,
 * Duchi & Zrnic (2023) PPI++; ppi_py `ppi_mean_ci(Y, Yhat, Yhat_unlabeled, alpha)`.
 * @param labels human scores on the labelled items (0/1 or continuous).
 * @param predictions the judge's scores on the same items, same order.
 * @param unlabelledPredictions the judge's scores on the items without human labels.
 * @returns see {@link PpiMeanResult}; NaN interval plus a warning when every term is constant.
 * @throws {RangeError} for fewer than 2 labelled items, no unlabelled item, unequal lengths,
 *   a non-finite value, or a confidence level or λ outside its range.
 * Cost O(n + N).
 * @example ppiMean([1, 0, 1, 1], [0.9, 0.2, 0.8, 0.6], [0.7, 0.1, 0.9]).estimate // => 0.72509… (tests/reference/judge/ppi.json, case "toy")
 */
export function ppiMean(labels: ArrayLike<number>, predictions: ArrayLike<number>, unlabelledPredictions: ArrayLike<number>, options: PpiMeanOptions = {}): PpiMeanResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const n = labels.length;
  const N = unlabelledPredictions.length;
  if (predictions.length !== n) throw new RangeError(`labels and predictions must pair up (got ${n} and ${predictions.length})`);
  if (n < 2) throw new RangeError(`PPI needs at least 2 labelled items (got ${n})`);
  if (N < 1) throw new RangeError('PPI needs at least 1 item without a human label');
  for (const [name, x] of [['labels', labels], ['predictions', predictions], ['unlabelledPredictions', unlabelledPredictions]] as const) {
    for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) throw new RangeError(`${name}[${i}] must be a finite number (got ${x[i]})`);
  }
  let lambda: number;
  if (options.lambda !== undefined) {
    if (!(options.lambda >= 0 && options.lambda <= 1)) throw new RangeError(`lambda must be in [0, 1] (got ${options.lambda})`);
    lambda = options.lambda;
  } else {
    lambda = powerTuningLambda(labels, predictions, unlabelledPredictions);
  }
  const rectified = new Float64Array(n);
  for (let i = 0; i < n; i++) rectified[i] = labels[i] - lambda * predictions[i];
  const estimate = lambda * sampleMean(unlabelledPredictions) + sampleMean(rectified);
  const standardError = Math.sqrt((lambda * lambda * populationVariance(unlabelledPredictions)) / N + populationVariance(rectified) / n);
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const classicalEstimate = sampleMean(labels);
  const classicalStandardError = Math.sqrt(populationVariance(labels) / n);
  const warnings: string[] = [];
  const interval = (m: number, se: number): [number, number] => (se > 0 ? [m - z * se, m + z * se] : [NaN, NaN]);
  if (!(standardError > 0)) warnings.push(`the standard error is 0 (the human labels${lambda > 0 ? ', the judge scores' : ''} and their residuals are constant, λ = ${lambda}): the interval is undefined`);
  return {
    estimate,
    standardError,
    confidenceInterval: interval(estimate, standardError),
    confidenceLevel,
    lambda,
    lambdaTuned: options.lambda === undefined,
    nLabelled: n,
    nUnlabelled: N,
    classicalEstimate,
    classicalStandardError,
    classicalInterval: interval(classicalEstimate, classicalStandardError),
    effectiveLabels: standardError > 0 ? (n * classicalStandardError ** 2) / standardError ** 2 : NaN,
    warnings,
  };
}
