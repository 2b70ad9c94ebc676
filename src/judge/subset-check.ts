import { normalCdf } from '../distributions/index.js';
import { populationVariance, sampleMean } from './moments.js';

/** Result of {@link labelledSubsetCheck}. */
export interface LabelledSubsetCheck {
  /** Mean judge score on the labelled and on the unlabelled items. */
  labelledMean: number;
  unlabelledMean: number;
  /** Two-sample z statistic of the difference, and its two-sided p-value. */
  z: number;
  pValue: number;
  /** pValue < threshold: the labelled items do not look like a random subset. */
  rejected: boolean;
  threshold: number;
}

/**
 * Does the labelled subset look like a uniformly random sample of the judged items? Compares the
 * judge's mean score on labelled and unlabelled items with a two-sample z test,
 * z = (m_L − m_U) / √(v_L/n + v_U/N) (variances divide by their count).
 * PPI is valid only for a random (or known-probability) subset; a subset chosen by where the
 * candidates disagree, or by what the judge found hard, shows up as a shift in the judge's
 * scores. Passing the check does not prove randomness; failing it (p below a strict threshold,
 * default 0.001, so a truly random subset is refused once in a thousand) is strong evidence
 * against it.
 * Reference: the large-sample two-sample z test (Wald); cf. statsmodels `ztest(x1, x2, usevar='unequal')`.
 * @param labelledPredictions judge scores on the labelled items.
 * @param unlabelledPredictions judge scores on the rest.
 * @param threshold p-value below which the subset is rejected; in (0, 1).
 * @returns see {@link LabelledSubsetCheck}; z = 0, p = 1 when both samples are constant and equal.
 * @throws {RangeError} for an empty sample or a threshold outside (0, 1).
 * @example labelledSubsetCheck([1, 1, 1, 0.9], [0, 0.1, 0, 0.2]).rejected // => true
 */
export function labelledSubsetCheck(labelledPredictions: ArrayLike<number>, unlabelledPredictions: ArrayLike<number>, threshold = 0.001): LabelledSubsetCheck {
  if (!(threshold > 0 && threshold < 1)) throw new RangeError(`threshold must be in (0, 1) (got ${threshold})`);
  const labelledMean = sampleMean(labelledPredictions);
  const unlabelledMean = sampleMean(unlabelledPredictions);
  const se = Math.sqrt(populationVariance(labelledPredictions) / labelledPredictions.length + populationVariance(unlabelledPredictions) / unlabelledPredictions.length);
  const gap = labelledMean - unlabelledMean;
  const z = se > 0 ? gap / se : gap === 0 ? 0 : gap > 0 ? Infinity : -Infinity;
  const pValue = Number.isFinite(z) ? 2 * normalCdf(-Math.abs(z)) : 0;
  return { labelledMean, unlabelledMean, z, pValue, rejected: pValue < threshold, threshold };
}
