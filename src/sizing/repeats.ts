import { itemsForIntervalWidth } from './interval.js';
import { itemsForPower, type PowerAlternative } from './power.js';

/** Per-item repeat counts and repeat variances of the two models, aligned with the differences. */
export interface RepeatInput {
  /** d_i = mean of A's repeats − mean of B's repeats, per item. */
  differences: ArrayLike<number>;
  repeatsA: ArrayLike<number>;
  repeatsB: ArrayLike<number>;
  /** Sample variance (ddof 1) of each item's repeats; NaN where an item has one repeat. */
  repeatVarianceA: ArrayLike<number>;
  repeatVarianceB: ArrayLike<number>;
}

/** Items needed when every item is run K times per model. */
export interface RepeatRow {
  /** K, runs per item per model. */
  repeats: number;
  /** ω² + (σ_A² + σ_B²) / K: the variance of one item's mean difference at K repeats. */
  perItemVariance: number;
  /** Items by the interval-width rule, and for the power target. */
  n: number;
  nForPower: number;
  /** n · K: runs of each model (what the repeats cost). */
  runs: number;
}

/** The pilot's variance split into between-item and within-item (repeat) parts, and n by K. */
export interface RepeatSizing {
  /** Mean repeats per item in the pilot, per model. */
  pilotRepeatsA: number;
  pilotRepeatsB: number;
  /** Items with at least two repeats for both models (the ones that measure the within part). */
  itemsWithRepeats: number;
  /** σ_A², σ_B²: mean over items of the variance between one model's repeats on an item (one run). */
  withinVarianceA: number;
  withinVarianceB: number;
  /** mean_i (σ_A²/K_Ai + σ_B²/K_Bi): the part of the pilot's variance of differences that is repeat noise. */
  withinVarianceOfDifference: number;
  /** ω² = s²(d) − that: the variance of the true per-item gaps, which no number of repeats removes (≥ 0). */
  betweenItemVariance: number;
  /** Rows for K = 1, 2, 3, 5, 10 (and the pilot's K), ascending. */
  byRepeats: RepeatRow[];
  /** Items needed as K → ∞ (only ω² left): the floor repeats cannot go below. */
  nLimit: number;
  nForPowerLimit: number;
  warnings: string[];
}

/**
 * How the item count falls when each item is run K times per model (Miller 2024).
 *
 * A model's score on item i is its conditional mean x_i plus run-to-run noise of variance σ_i².
 * For the paired difference of K-run means (independent runs of A and B), the law of total
 * variance gives
 *
 *   Var(d_i) = ω² + σ_A²/K + σ_B²/K,   ω² = Var(x_Ai − x_Bi)   (Miller 2024, §2.1 and §5)
 *
 * so n(K) = (ω² + (σ_A² + σ_B²)/K) · (2z/mde)² by the interval rule, and with (z_{α/2} + z_β)²
 * in place of (2z)² for power (Miller's power formula, solved here with the t-test).
 * σ_A², σ_B² are the mean repeat variances of items with ≥ 2 runs (unbiased, ddof 1); ω² is the
 * pilot's variance of d minus the mean repeat noise at the pilot's own K_i, floored at 0 with a
 * warning (a negative estimate means repeat noise explains all the spread the pilot saw).
 * Reference: E. Miller (2024), "Adding Error Bars to Evals: A Statistical Approach to Language
 * Model Evaluations", arXiv:2411.00640, §2.1 (resampling) and §5 (power analysis).
 * @param input the pilot's differences with per-item repeat counts and variances.
 * @param options.varianceOfDifference s²(d) of the pilot (the caller has it; ddof 1).
 * @returns the components and n at each K; null-free: NaN fields with a warning when no item has
 *   two repeats for both models.
 * Cost: O(items).
 */
export function repeatSizing(
  input: RepeatInput,
  options: {
    varianceOfDifference: number;
    mde: number;
    confidenceLevel?: number;
    power?: number;
    alternative?: PowerAlternative;
    /** K values to tabulate; default 1, 2, 3, 5, 10 and the pilot's (rounded) K. */
    repeats?: readonly number[];
  },
): RepeatSizing {
  const items = input.differences.length;
  for (const [name, array] of [
    ['repeatsA', input.repeatsA],
    ['repeatsB', input.repeatsB],
    ['repeatVarianceA', input.repeatVarianceA],
    ['repeatVarianceB', input.repeatVarianceB],
  ] as const) {
    if (array.length !== items) throw new TypeError(`repeatSizing: ${name} has ${array.length} entries for ${items} items`);
  }
  const warnings: string[] = [];
  let sumKA = 0;
  let sumKB = 0;
  let sumVA = 0;
  let sumVB = 0;
  let withRepeats = 0;
  for (let i = 0; i < items; i++) {
    sumKA += input.repeatsA[i];
    sumKB += input.repeatsB[i];
    if (input.repeatsA[i] >= 2 && input.repeatsB[i] >= 2) {
      sumVA += input.repeatVarianceA[i];
      sumVB += input.repeatVarianceB[i];
      withRepeats += 1;
    }
  }
  const withinVarianceA = withRepeats > 0 ? sumVA / withRepeats : NaN;
  const withinVarianceB = withRepeats > 0 ? sumVB / withRepeats : NaN;
  if (withRepeats === 0) warnings.push('no item has two or more repeats for both models: the within-item (repeat) variance cannot be estimated');
  else if (withRepeats < 10) warnings.push(`only ${withRepeats} items have repeats for both models: the split between item and repeat variance is rough`);
  let noise = 0;
  for (let i = 0; i < items; i++) noise += withinVarianceA / input.repeatsA[i] + withinVarianceB / input.repeatsB[i];
  const withinVarianceOfDifference = noise / items;
  let betweenItemVariance = options.varianceOfDifference - withinVarianceOfDifference;
  if (betweenItemVariance < 0) {
    warnings.push(
      `the repeat noise (${fmt(withinVarianceOfDifference)}) exceeds the pilot's variance of differences (${fmt(options.varianceOfDifference)}): ` +
        'the between-item part is set to 0, so more repeats look like they remove all the spread; treat the K rows as optimistic',
    );
    betweenItemVariance = 0;
  }
  const pilotK = Math.round(sumKA / items);
  const ks = [...new Set([...(options.repeats ?? [1, 2, 3, 5, 10]), ...(options.repeats ? [] : [pilotK])])].sort((a, b) => a - b);
  for (const k of ks) if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`repeatSizing: repeats must be whole numbers ≥ 1 (got ${k})`);
  const size = (variance: number) => {
    if (!Number.isFinite(variance)) return { n: NaN, nForPower: NaN };
    const settings = { varianceOfDifference: variance, mde: options.mde, confidenceLevel: options.confidenceLevel, power: options.power, alternative: options.alternative };
    return { n: itemsForIntervalWidth(settings).n, nForPower: itemsForPower(settings).n };
  };
  const byRepeats = ks.map((k) => {
    const perItemVariance = betweenItemVariance + (withinVarianceA + withinVarianceB) / k;
    const { n, nForPower } = size(perItemVariance);
    return { repeats: k, perItemVariance, n, nForPower, runs: n * k };
  });
  const limit = size(betweenItemVariance);
  return {
    pilotRepeatsA: sumKA / items,
    pilotRepeatsB: sumKB / items,
    itemsWithRepeats: withRepeats,
    withinVarianceA,
    withinVarianceB,
    withinVarianceOfDifference,
    betweenItemVariance,
    byRepeats,
    nLimit: limit.n,
    nForPowerLimit: limit.nForPower,
    warnings,
  };
}

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString();
}
