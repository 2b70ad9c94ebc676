import { ceilCount } from './counts.js';
import { normalQuantile } from '../distributions/index.js';

/** The settings of interval-width sizing. */
export interface IntervalSizingOptions {
  /** Per-item variance of the paired difference A − B, in squared score units (≥ 0). */
  varianceOfDifference: number;
  /** The smallest gap you would act on, in score units (> 0). */
  mde: number;
  /** Coverage of the paired interval, in (0, 1); default 0.95. */
  confidenceLevel?: number;
}

/** Items needed so that the paired interval is no wider than the gap you would act on. */
export interface IntervalSizing {
  method: 'interval-width';
  varianceOfDifference: number;
  mde: number;
  confidenceLevel: number;
  /** z = Φ⁻¹(1 − α/2), α = 1 − confidenceLevel (1.959963984540054 at 0.95). */
  z: number;
  /** The real-valued solution v·(2z/mde)². */
  nExact: number;
  /** nExact rounded up to whole items (ceilCount: exact integers stay put). */
  n: number;
}

/** z = Φ⁻¹(1 − α/2) for a two-sided interval at confidenceLevel. */
export function criticalZ(confidenceLevel: number): number {
  checkConfidence(confidenceLevel);
  return normalQuantile(1 - (1 - confidenceLevel) / 2);
}

/** @internal shared checks, with the bad value in the message. */
export function checkConfidence(confidenceLevel: number, name = 'confidenceLevel'): void {
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`${name} must be in (0, 1) (got ${confidenceLevel})`);
}
/** @internal */
export function checkMde(mde: number): void {
  if (!(mde > 0) || !Number.isFinite(mde)) throw new RangeError(`mde must be a finite number > 0 (got ${mde})`);
}
/** @internal */
export function checkVariance(variance: number, name = 'varianceOfDifference'): void {
  if (!(variance >= 0) || !Number.isFinite(variance)) throw new RangeError(`${name} must be a finite number ≥ 0 (got ${variance})`);
}

/**
 * Items needed for a paired interval whose half-width is mde / 2: the chapter's sizing rule.
 *
 * The half-width of the interval around the mean of n paired differences is z·√(v/n); setting it
 * to mde/2 and solving gives
 *
 *   n = ceil(v · (2z / mde)²),  z = Φ⁻¹(1 − α/2),  α = 1 − confidenceLevel.
 *
 * An interval no wider than the gap (±mde/2) separates two models whose true gap is mde. It is a
 * stricter rule than 80% power: at 95% it equals a two-sided test at α = 0.05 with power
 * Φ(1.96) ≈ 97.5% (z_β = z), so n is (2·1.96)² / (1.96 + 0.84)² ≈ 1.96 times the 80%-power count.
 *
 * The chapter writes z as 1.96; this uses the exact Φ⁻¹(0.975) = 1.959963984540054. For the
 * chapter's example (v = 428.9) both give the same counts: 428.9·(2·1.96/5)² = 263.63 and
 * 428.9·(2·1.95996…/5)² = 263.62, both → 264; at mde 2, 1647.66 and 1647.60, both → 1648.
 *
 * Reference: "Building a private benchmark", Sizing, from the smallest gap you would act on;
 * cf. statsmodels `samplesize_confint_proportion` (the same rule for a proportion).
 * @param options.varianceOfDifference v ≥ 0 (0 gives n = 0: no items resolve nothing).
 * @param options.mde > 0, in score units; options.confidenceLevel in (0, 1), default 0.95.
 * @returns the settings, z, nExact and n.
 * @throws {RangeError} for a negative or non-finite variance, mde ≤ 0, a level outside (0, 1).
 * @example itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 5 }).n // => 264
 * @example itemsForIntervalWidth({ varianceOfDifference: 428.9, mde: 2 }).n // => 1648
 */
export function itemsForIntervalWidth(options: IntervalSizingOptions): IntervalSizing {
  const { varianceOfDifference, mde } = options;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  checkVariance(varianceOfDifference);
  checkMde(mde);
  const z = criticalZ(confidenceLevel);
  const nExact = varianceOfDifference * ((2 * z) / mde) ** 2;
  return { method: 'interval-width', varianceOfDifference, mde, confidenceLevel, z, nExact, n: ceilCount(nExact) };
}

/**
 * The gap a budget of n items resolves by the interval-width rule: the inverse of
 * itemsForIntervalWidth, mde = 2z·√(v / n).
 * @param varianceOfDifference v ≥ 0; budget n > 0 items (need not be whole).
 * @returns the mde in score units.
 * @throws {RangeError} for a bad variance, budget ≤ 0 or level outside (0, 1).
 * @example mdeForIntervalWidth(428.9, 400) // => 4.0591 ("400 items resolve 4.1 points")
 */
export function mdeForIntervalWidth(varianceOfDifference: number, budget: number, confidenceLevel = 0.95): number {
  checkVariance(varianceOfDifference);
  if (!(budget > 0) || !Number.isFinite(budget)) throw new RangeError(`budget must be a finite number of items > 0 (got ${budget})`);
  return 2 * criticalZ(confidenceLevel) * Math.sqrt(varianceOfDifference / budget);
}
