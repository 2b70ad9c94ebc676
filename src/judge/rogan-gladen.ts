import { normalQuantile } from '../distributions/index.js';

/** Counts behind a Rogan–Gladen correction. */
export interface RoganGladenCounts {
  /** Rows the judge scored 1, of `judged` rows (the judge-only rate's numerator and denominator). */
  judgePositive: number;
  judged: number;
  /** Labelled rows the humans scored 1, and of those the judge scored 1 too (sensitivity). */
  humanPositive: number;
  truePositive: number;
  /** Labelled rows the humans scored 0, and of those the judge scored 0 too (specificity). */
  humanNegative: number;
  trueNegative: number;
}

/** A judge-only rate corrected for the judge's measured sensitivity and specificity. */
export interface RoganGladenResult {
  method: 'rogan-gladen-delta';
  /** The judge's raw rate p̂ = judgePositive / judged. */
  judgeRate: number;
  sensitivity: number;
  specificity: number;
  /** (p̂ + Sp − 1) / (Se + Sp − 1), clipped to [0, 1]; NaN when Se + Sp ≤ 1. */
  estimate: number;
  /** The unclipped value (outside [0, 1] when the judge's rate is outside [1 − Sp, Se]). */
  unclippedEstimate: number;
  /** Delta-method SE including the sampling error of p̂, Se and Sp. */
  standardError: number;
  /** estimate ± z·SE, clipped to [0, 1]. */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  warnings: string[];
}

/**
 * The Rogan–Gladen estimator: the true rate of a 0/1 outcome from a judge's rate, corrected for
 * the judge's sensitivity and specificity measured against human labels, with an interval that
 * carries the uncertainty of all three.
 *
 * π̂ = (p̂ + Sp − 1) / (Se + Sp − 1), J = Se + Sp − 1 (Youden's index),
 * Var π̂ ≈ [ p̂(1 − p̂)/N + π̂² Se(1 − Se)/n₁ + (1 − π̂)² Sp(1 − Sp)/n₀ ] / J²
 * (delta method, p̂, Se, Sp independent binomial shares of N judged rows, n₁ human positives,
 * n₀ human negatives), interval π̂ ± z √Var clipped to [0, 1]. The validation rows are a subset
 * of the judged rows, so p̂ is not quite independent of Se and Sp: the formula is a
 * large-sample approximation, conservative when the labelled share is small.
 * Reference: Rogan & Gladen (1978), Am. J. Epidemiol. 107:71–76; Greiner & Gardner (2000),
 * Prev. Vet. Med. 45 (the delta-method variance); Lang & Reiczigel (2014), Prev. Vet. Med. 113:13–22
 * (its coverage; they add pseudo-counts for small n). Checked against an R computation of the
 * same formula with a numerical gradient (tests/reference/judge/rogan-gladen.json).
 * @param counts see {@link RoganGladenCounts}; whole numbers, each part ≤ its whole.
 * @returns see {@link RoganGladenResult}; NaN with a warning when J ≤ 0 (a judge no better than
 *   chance) or a count is 0.
 * @throws {RangeError} for counts that are negative, not whole, or a part above its whole.
 * @example roganGladen({ judgePositive: 300, judged: 1000, humanPositive: 100, truePositive: 90, humanNegative: 200, trueNegative: 180 }).estimate // => 0.25
 */
export function roganGladen(counts: RoganGladenCounts, options: { confidenceLevel?: number } = {}): RoganGladenResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  for (const [part, whole] of [['judgePositive', 'judged'], ['truePositive', 'humanPositive'], ['trueNegative', 'humanNegative']] as const) {
    const x = counts[part];
    const m = counts[whole];
    if (!(Number.isInteger(x) && Number.isInteger(m) && x >= 0 && x <= m)) throw new RangeError(`${part} must be a whole number in [0, ${whole}] (got ${x} of ${m})`);
  }
  const warnings: string[] = [];
  const N = counts.judged;
  const n1 = counts.humanPositive;
  const n0 = counts.humanNegative;
  const p = counts.judgePositive / N;
  const se = counts.truePositive / n1;
  const sp = counts.trueNegative / n0;
  const nan = { method: 'rogan-gladen-delta' as const, judgeRate: p, sensitivity: se, specificity: sp, estimate: NaN, unclippedEstimate: NaN, standardError: NaN, confidenceInterval: [NaN, NaN] as [number, number], confidenceLevel, warnings };
  if (N === 0 || n1 === 0 || n0 === 0) {
    warnings.push(`the correction needs judged rows and labelled rows of both human labels (got ${N} judged, ${n1} human positives, ${n0} human negatives)`);
    return nan;
  }
  const J = se + sp - 1;
  if (!(J > 0)) {
    warnings.push(`sensitivity + specificity − 1 = ${J.toFixed(3)} ≤ 0: the judge is no better than chance, so its rate cannot be corrected`);
    return nan;
  }
  const raw = (p + sp - 1) / J;
  const pi = Math.min(1, Math.max(0, raw));
  if (raw !== pi) warnings.push(`the judge's rate ${p.toFixed(3)} is outside [1 − specificity, sensitivity] = [${(1 - sp).toFixed(3)}, ${se.toFixed(3)}]: the corrected rate ${raw.toFixed(3)} is clipped to ${pi}`);
  const variance = ((p * (1 - p)) / N + (raw * raw * se * (1 - se)) / n1 + ((1 - raw) * (1 - raw) * sp * (1 - sp)) / n0) / (J * J);
  const standardError = Math.sqrt(variance);
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  if (se === 1 || sp === 1) warnings.push('a measured sensitivity or specificity of 1 contributes no sampling error to the interval: with few labelled rows it is too narrow');
  return {
    method: 'rogan-gladen-delta',
    judgeRate: p,
    sensitivity: se,
    specificity: sp,
    estimate: pi,
    unclippedEstimate: raw,
    standardError,
    confidenceInterval: [Math.max(0, raw - z * standardError), Math.min(1, raw + z * standardError)],
    confidenceLevel,
    warnings,
  };
}
