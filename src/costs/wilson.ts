import { normalQuantile } from '../distributions/index.js';

/** A share with its Wilson score interval. */
export interface WilsonResult {
  /** successes / trials; NaN when trials is 0. */
  estimate: number;
  /** [low, high] in [0, 1]; [NaN, NaN] when trials is 0. */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  successes: number;
  trials: number;
  warnings: string[];
}

export interface WilsonOptions {
  /** Coverage of the interval, in (0, 1); default 0.95. */
  confidenceLevel?: number;
}

/**
 * The Wilson score interval for a binomial proportion: the set of p the score test does not
 * reject. Use it for rates with small or lopsided denominators (hallucination over a dozen absent
 * slots), where the Wald interval p̂ ± z·√(p̂(1 − p̂)/n) collapses to a point at 0 or 1.
 *
 * z = Φ⁻¹(1 − α/2), α = 1 − confidenceLevel;
 * centre = (x + z²/2) / (n + z²), half-width = z / (n + z²) · √(x(n − x)/n + z²/4).
 *
 * Reference: Wilson (1927), JASA 22:209–212; statsmodels
 * `proportion_confint(x, n, alpha, method='wilson')`; R `prop.test(x, n, correct = FALSE)$conf.int`.
 * Counts may be fractional (repeat-averaged outcomes); the formula is used as written.
 *
 * @param successes x, 0 ≤ x ≤ n.
 * @param trials n ≥ 0; with n = 0 the estimate and interval are NaN with a warning.
 * @returns estimate x/n, the interval, and the settings.
 * @throws {RangeError} for negative or non-finite counts, x > n, or a level outside (0, 1).
 * @example wilsonInterval(1, 11).confidenceInterval // => [0.016232172885884844, 0.37735843645159556] (R prop.test)
 */
export function wilsonInterval(successes: number, trials: number, options: WilsonOptions = {}): WilsonResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (!Number.isFinite(trials) || trials < 0) throw new RangeError(`trials must be a finite number ≥ 0 (got ${trials})`);
  if (!Number.isFinite(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`successes must be in [0, trials = ${trials}] (got ${successes})`);
  }
  if (trials === 0) {
    return { estimate: NaN, confidenceInterval: [NaN, NaN], confidenceLevel, successes, trials, warnings: ['no trials: the rate is undefined'] };
  }
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const z2 = z * z;
  const n = trials;
  const x = successes;
  const centre = (x + z2 / 2) / (n + z2);
  const half = (z / (n + z2)) * Math.sqrt((x * (n - x)) / n + z2 / 4);
  // The exact ends are 0 at x = 0 and 1 at x = n; clamp the rounding either side.
  const low = x === 0 ? 0 : Math.max(0, centre - half);
  const high = x === n ? 1 : Math.min(1, centre + half);
  return { estimate: x / n, confidenceInterval: [low, high], confidenceLevel, successes, trials, warnings: [] };
}
