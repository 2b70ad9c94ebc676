import { brentRoot, ceilCount } from './counts.js';
import { noncentralTCdf, normalQuantile, studentTQuantile } from '../distributions/index.js';
import { checkConfidence, checkMde, checkVariance } from './interval.js';

/** Two-sided test, or one-sided for A − B > 0 (scipy's names; statsmodels calls it 'larger'). */
export type PowerAlternative = 'two-sided' | 'greater';

/**
 * Power of the paired t-test: the chance it rejects "no difference" at level α when the true
 * mean difference is effectSize standard deviations.
 *
 * With df = n − 1 and noncentrality λ = d·√n, for critical value c = t_{1−α/2, n−1} (two-sided)
 * or t_{1−α, n−1} (greater):
 *   two-sided: P(T' > c) + P(T' < −c);   greater: P(T' > c),   T' ~ noncentral t(df, λ).
 * n may be fractional (the power curve is solved for a real n, as R and statsmodels do).
 * Reference: R `pwr.t.test(n, d, sig.level, type = "paired")$power`; statsmodels
 * `TTestPower().power(effect_size, nobs, alpha, alternative)`.
 * @param n items (pairs), > 1; effectSize d = mean difference / sd of the differences (≥ 0 for 'greater').
 * @throws {RangeError} for n ≤ 1, alpha outside (0, 1), a non-finite effect size.
 * @example pairedTTestPower(136.5882273342218, 5 / Math.sqrt(428.9), 0.05) // => 0.8
 */
export function pairedTTestPower(n: number, effectSize: number, alpha = 0.05, alternative: PowerAlternative = 'two-sided'): number {
  if (!(n > 1) || !Number.isFinite(n)) throw new RangeError(`pairedTTestPower: n must be a finite number > 1 (got ${n})`);
  if (!Number.isFinite(effectSize)) throw new RangeError(`pairedTTestPower: effectSize must be finite (got ${effectSize})`);
  checkConfidence(alpha, 'alpha');
  const df = n - 1;
  const ncp = effectSize * Math.sqrt(n);
  if (alternative === 'greater') {
    const c = studentTQuantile(1 - alpha, df);
    return 1 - noncentralTCdf(c, df, ncp);
  }
  const c = studentTQuantile(1 - alpha / 2, df);
  return 1 - noncentralTCdf(c, df, ncp) + noncentralTCdf(-c, df, ncp);
}

/** The settings of power sizing. */
export interface PowerSizingOptions {
  varianceOfDifference: number;
  mde: number;
  /** 1 − α of the test; default 0.95 (α = 0.05). */
  confidenceLevel?: number;
  /** 1 − β, in (0, 1); default 0.8. */
  power?: number;
  alternative?: PowerAlternative;
}

/** Items needed for the paired t-test to detect a gap of mde with the given power. */
export interface PowerSizing {
  method: 'paired-t-power';
  varianceOfDifference: number;
  mde: number;
  confidenceLevel: number;
  power: number;
  alternative: PowerAlternative;
  /** d = mde / √v. */
  effectSize: number;
  /** Real-valued n solving power(n) = target (R pwr.t.test's `n`, statsmodels solve_power). */
  nExact: number;
  /** nExact rounded up: the whole number of items. */
  n: number;
  /** The normal approximation ((z_{1−α/2} + z_{power}) / d)² (z_{1−α} one-sided), real-valued. */
  nNormalExact: number;
  /** nNormalExact rounded up. */
  nNormal: number;
  /** Degenerate cases: target reached already at n = 2, or a zero variance. */
  warnings: string[];
}

/**
 * Items needed for the paired t-test at level α = 1 − confidenceLevel to reach the target power
 * against a true gap of mde, from the variance of the per-item differences.
 *
 * Solves pairedTTestPower(n, mde/√v, α) = power for real n ≥ 2 with Brent's method (bracket
 * [2, 2^k·nNormal] grown until it holds the root; tolerance 1e-10 items), the normal
 * approximation n ≈ ((z_{1−α/2} + z_{1−β}) σ / mde)² beside it (the formula in Miller 2024, §5,
 * with K = 1). The normal form ignores the t's heavier tails and runs a little low at small n.
 *
 * Reference: R `pwr.t.test(d = mde/sd, sig.level = α, power = 1 − β, type = "paired")$n`;
 * statsmodels `TTestPower().solve_power(effect_size = mde/sd, alpha = α, power = 1 − β)`.
 * Matches both to 1e-6 in n (tests/sizing/power.test.ts).
 * @returns the settings, d, nExact / n, nNormalExact / nNormal, warnings. With v = 0 every n is 0
 *   (no spread, nothing to resolve) and a warning says so; when even n = 2 reaches the power,
 *   nExact = 2 with a warning (the t-test needs two items).
 * @throws {RangeError} for a bad variance, mde ≤ 0, levels outside (0, 1).
 * @example itemsForPower({ varianceOfDifference: 428.9, mde: 5 }).nExact // => 136.58822733
 */
export function itemsForPower(options: PowerSizingOptions): PowerSizing {
  const { varianceOfDifference, mde } = options;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const power = options.power ?? 0.8;
  const alternative = options.alternative ?? 'two-sided';
  checkVariance(varianceOfDifference);
  checkMde(mde);
  checkConfidence(confidenceLevel);
  checkConfidence(power, 'power');
  if (alternative !== 'two-sided' && alternative !== 'greater') throw new RangeError(`alternative must be "two-sided" or "greater" (got ${String(alternative)})`);
  const alpha = 1 - confidenceLevel;
  const base = { method: 'paired-t-power' as const, varianceOfDifference, mde, confidenceLevel, power, alternative };
  const warnings: string[] = [];
  if (varianceOfDifference === 0) {
    warnings.push('the variance of the differences is 0: every item differs by the same amount, so no count is needed to see it');
    return { ...base, effectSize: Infinity, nExact: 0, n: 0, nNormalExact: 0, nNormal: 0, warnings };
  }
  if (power <= alpha / (alternative === 'two-sided' ? 2 : 1)) {
    throw new RangeError(`power must exceed the test's false-positive rate ${alpha} (got ${power})`);
  }
  const effectSize = mde / Math.sqrt(varianceOfDifference);
  const zSum = normalQuantile(alternative === 'two-sided' ? 1 - alpha / 2 : 1 - alpha) + normalQuantile(power);
  const nNormalExact = (zSum / effectSize) ** 2;
  const gap = (n: number) => pairedTTestPower(n, effectSize, alpha, alternative) - power;
  let nExact: number;
  if (gap(2) >= 0) {
    nExact = 2;
    warnings.push(`two items already give power ${round4(pairedTTestPower(2, effectSize, alpha, alternative))} ≥ ${power}: the gap is large against the spread, and a t-test needs at least two items`);
  } else {
    // The bracket grows until it holds the root; the power rises to 1 with n, so it always does
    // unless the effect is so small that n overflows (then n is Infinity, with a warning).
    let high = Math.max(4, 2 * nNormalExact);
    while (Number.isFinite(high) && gap(high) < 0) high *= 2;
    if (Number.isFinite(high)) nExact = brentRoot(gap, 2, high, 1e-10);
    else {
      nExact = Infinity;
      warnings.push(`no finite number of items reaches power ${power} against effect size ${effectSize}`);
    }
  }
  return { ...base, effectSize, nExact, n: ceilCount(nExact), nNormalExact, nNormal: ceilCount(nNormalExact), warnings };
}

/**
 * The gap a budget of n items detects with the given power: solves pairedTTestPower(n, d, α) =
 * power for d, and returns mde = d·√v.
 * Reference: R `pwr.t.test(n = n, d = NULL, power = 1 − β, type = "paired")$d · sd`;
 * statsmodels `TTestPower().solve_power(effect_size = None, nobs = n, …)`.
 * @param budget items > 1.
 * @returns the mde in score units (0 when v = 0).
 * @throws {RangeError} for budget ≤ 1 or bad levels.
 * @example mdeForPower(428.9, 400) // => 2.90803 (d = 0.1404174 · √428.9)
 */
export function mdeForPower(
  varianceOfDifference: number,
  budget: number,
  options: { confidenceLevel?: number; power?: number; alternative?: PowerAlternative } = {},
): number {
  checkVariance(varianceOfDifference);
  if (!(budget > 1) || !Number.isFinite(budget)) throw new RangeError(`budget must be a finite number of items > 1 (got ${budget})`);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const power = options.power ?? 0.8;
  const alternative = options.alternative ?? 'two-sided';
  checkConfidence(confidenceLevel);
  checkConfidence(power, 'power');
  const alpha = 1 - confidenceLevel;
  if (varianceOfDifference === 0) return 0;
  const gap = (d: number) => pairedTTestPower(budget, d, alpha, alternative) - power;
  if (gap(0) >= 0) throw new RangeError(`power must exceed the test's false-positive rate ${alpha} (got ${power})`);
  let high = 1;
  while (gap(high) < 0) high *= 2;
  return brentRoot(gap, 0, high, 1e-14) * Math.sqrt(varianceOfDifference);
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
