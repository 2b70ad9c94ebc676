import { populationCovariance } from './moments.js';

/**
 * The power-tuning weight λ of PPI++ for a mean: the λ that minimises the variance of
 * mean(λ·f(unlabelled)) + mean(Y − λ·f(labelled)), estimated from the data and clipped to [0, 1].
 *
 * λ = Cov(Y, f) / ((1 + n/N) · Var(f)), with Cov over the n labelled pairs (divide by n) and
 * Var(f) over all n + N predictions, labelled and unlabelled together (divide by n + N − 1).
 * λ = 0 gives the classical mean of the labels, λ = 1 plain PPI; clipping means the tuned
 * estimate is never worse than the labels alone (asymptotically).
 * Reference: Angelopoulos, Duchi & Zrnic (2023), "PPI++: Efficient Prediction-Powered
 * Inference", Example 6.1; ppi_py `_calc_lam_glm` with the mean's gradients and unit Hessian.
 * @param labels human scores Y on the n labelled items.
 * @param predictions the judge's scores f on those same n items.
 * @param unlabelledPredictions the judge's scores on the N items without human labels.
 * @returns λ in [0, 1]; 0 when the judge's scores do not vary (nothing to learn from them).
 * @throws {RangeError} for fewer than 2 labelled items, no unlabelled ones, or unequal lengths.
 * @example powerTuningLambda([1, 0, 1, 1], [0.9, 0.2, 0.8, 0.6], [0.7, 0.1, 0.9]) // => 0.42689… (tests/reference/judge/ppi.json, case "toy")
 */
export function powerTuningLambda(labels: ArrayLike<number>, predictions: ArrayLike<number>, unlabelledPredictions: ArrayLike<number>): number {
  const n = labels.length;
  const N = unlabelledPredictions.length;
  if (predictions.length !== n) throw new RangeError(`labels and predictions must pair up (got ${n} and ${predictions.length})`);
  if (n < 2) throw new RangeError(`power tuning needs at least 2 labelled items (got ${n})`);
  if (N < 1) throw new RangeError('power tuning needs at least 1 unlabelled item');
  const covariance = populationCovariance(labels, predictions);
  // Var of every prediction, labelled and not, with the n + N − 1 divisor numpy's np.cov uses.
  let sum = 0;
  for (let i = 0; i < n; i++) sum += predictions[i];
  for (let i = 0; i < N; i++) sum += unlabelledPredictions[i];
  const mean = sum / (n + N);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (predictions[i] - mean) ** 2;
  for (let i = 0; i < N; i++) ss += (unlabelledPredictions[i] - mean) ** 2;
  const variance = ss / (n + N - 1);
  if (!(variance > 0)) return 0;
  const lambda = covariance / ((1 + n / N) * variance);
  return Math.min(1, Math.max(0, lambda));
}

