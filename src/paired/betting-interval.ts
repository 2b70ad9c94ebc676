import { createRng, shuffle, type Seed } from '../random/index.js';
import { checkAlternative, checkConfidenceLevel, finiteValues, seedText } from '../bootstrap/settings.js';
import type { Alternative } from '../bootstrap/types.js';

/** Settings of bettingInterval. */
export interface BettingIntervalOptions {
  /** [low, high]: every value must lie in it (paired differences of [0, 1] scores: [−1, 1]). */
  range: readonly [number, number];
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default `'two-sided'`; `greater` gives [L, high], `less` [low, U]. */
  alternative?: Alternative;
  /**
   * The order the values are bet on: `shuffled` (default: a permutation drawn from `seed`, so a file
   * sorted by score cannot tilt the bound) or `as-given`.
   */
  order?: 'shuffled' | 'as-given';
  /** Seed of the shuffle; default 0 (stream `${seed}:betting`). */
  seed?: Seed;
  /** c, the cap on the bets (λ⁺ ≤ c/m, λ⁻ ≤ c/(1 − m)), in (0, 1); default 3/4. */
  truncation?: number;
  /** Candidate means on [0, 1]: m_j = (j + ½)/G; default 2000. */
  gridSize?: number;
}

/** The fixed-n betting interval for a bounded mean. */
export interface BettingIntervalResult {
  method: 'betting';
  /** The plain mean of the values. */
  estimate: number;
  /** [low, high] in the values' units, inside the range; conservative by at most one grid step. */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  alternative: Alternative;
  range: [number, number];
  order: 'shuffled' | 'as-given';
  seed: string;
  n: number;
  warnings: string[];
}

/**
 * A confidence interval for the mean of bounded values that holds its level at every n, with no
 * normal approximation: Waudby-Smith & Ramdas's hedged betting interval for a fixed sample size.
 * For each candidate mean m, two gamblers bet on the next value being above or below m:
 *   K⁺_t(m) = Π_{i≤t} (1 + λ⁺_i (x_i − m)),  K⁻_t(m) = Π_{i≤t} (1 − λ⁻_i (x_i − m)),  x ∈ [0, 1] rescaled,
 *   λ_i = √(2 log(2/α) / (n σ̂²_{i−1})) (tuned for this n; log(1/α) one-sided), λ⁺ = min(λ, c/m), λ⁻ = min(λ, c/(1 − m)),
 *   σ̂²_{i} = (¼ + Σ_{j≤i} (x_j − μ̂_j)²) / (i + 1),  μ̂_j = (½ + Σ_{k≤j} x_k) / (j + 1)   (predictable plug-in).
 * Under the true mean each capital is a nonnegative martingale, so by Ville's inequality it ever
 * reaches 2/α with probability ≤ α/2; the interval is the m whose capitals stay below 2/α through
 * all n values (one-sided: one capital, threshold 1/α). Valid for any distribution inside the
 * range and any n ≥ 1, including all-equal values (then it is wide, not a point). It is conservative,
 * and wider than t where the normal approximation already holds: for skewed bounded scores at small n.
 * Reference: I. Waudby-Smith & A. Ramdas, "Estimating means of bounded random variables by
 * betting", JRSSB 86(1), 2024, §4 (hedged capital, Theorem 3) and the fixed-n bets of §5 (eq. 27);
 * src/sequential/betting.ts is the anytime version of the same process. Checked against a numpy
 * implementation (tests/reference/betting-interval/).
 * Cost: O(n · G).
 * @param x the values, finite, inside `range`, at least one.
 * @param options range (required), confidenceLevel, alternative, order, seed, truncation, gridSize.
 * @returns method, estimate, confidenceInterval, the settings, n, warnings.
 * @throws {RangeError} for a value outside the range, a bad range or setting.
 * @example bettingInterval([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], { range: [-1, 1], order: 'as-given' }).confidenceInterval // => about [-0.6, 0.6]: ten zeros do not prove a zero mean
 */
export function bettingInterval(x: ArrayLike<number>, options: BettingIntervalOptions): BettingIntervalResult {
  const values = finiteValues('x', x);
  const n = values.length;
  if (n < 1) throw new RangeError('a betting interval needs at least one value');
  const [lo, hi] = options.range ?? [];
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) throw new RangeError(`range must be [low, high] with low < high, both finite (got [${lo}, ${hi}])`);
  for (let i = 0; i < n; i++) if (values[i] < lo || values[i] > hi) throw new RangeError(`value ${values[i]} (index ${i}) lies outside the range [${lo}, ${hi}]`);
  const confidenceLevel = checkConfidenceLevel(options.confidenceLevel);
  const alternative = checkAlternative(options.alternative);
  const c = options.truncation ?? 0.75;
  if (!(c > 0 && c < 1)) throw new RangeError(`truncation must be in (0, 1) (got ${c})`);
  const G = options.gridSize ?? 2000;
  if (!(Number.isInteger(G) && G >= 10 && G <= 1e6)) throw new RangeError(`gridSize must be a whole number in [10, 1e6] (got ${G})`);
  const order = options.order ?? 'shuffled';
  if (order !== 'shuffled' && order !== 'as-given') throw new RangeError(`order must be shuffled or as-given (got ${String(order)})`);
  const seed = seedText(options.seed);

  const width = hi - lo;
  let xs = Array.from(values, (v) => (v - lo) / width);
  if (order === 'shuffled') xs = shuffle(xs, createRng(seed, 'betting'));
  const alpha = 1 - confidenceLevel;
  const up = alternative !== 'less';
  const down = alternative !== 'greater';
  const logReject = Math.log((alternative === 'two-sided' ? 2 : 1) / alpha);
  // The predictable bet sizes do not depend on m: λ_i from the values before i.
  const lambda = new Float64Array(n);
  let sumX = 0;
  let sumSquares = 0;
  let sigma2 = 0.25;
  for (let i = 0; i < n; i++) {
    lambda[i] = Math.sqrt((2 * logReject) / (n * sigma2));
    sumX += xs[i];
    const mu = (0.5 + sumX) / (i + 2);
    sumSquares += (xs[i] - mu) ** 2;
    sigma2 = (0.25 + sumSquares) / (i + 2);
  }
  let first = -1;
  let last = -1;
  for (let j = 0; j < G; j++) {
    const m = (j + 0.5) / G;
    const capUp = c / m;
    const capDown = c / (1 - m);
    let logUp = 0;
    let logDown = 0;
    let rejected = false;
    for (let i = 0; i < n && !rejected; i++) {
      const d = xs[i] - m;
      if (up) {
        logUp += Math.log1p((lambda[i] < capUp ? lambda[i] : capUp) * d);
        if (logUp >= logReject) rejected = true;
      }
      if (down) {
        logDown += Math.log1p(-(lambda[i] < capDown ? lambda[i] : capDown) * d);
        if (logDown >= logReject) rejected = true;
      }
    }
    if (!rejected) {
      if (first < 0) first = j;
      last = j;
    }
  }
  const warnings: string[] = [];
  let low: number;
  let high: number;
  if (first < 0) {
    // Cannot happen for values inside the range at α < 1 except through rounding; report it, never a point.
    warnings.push('every candidate mean was rejected (rounding at the edge of the range)');
    low = NaN;
    high = NaN;
  } else {
    low = lo + width * (first === 0 ? 0 : (first - 0.5) / G);
    high = lo + width * (last === G - 1 ? 1 : (last + 1.5) / G);
  }
  if (!down) high = hi;
  if (!up) low = lo;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  return { method: 'betting', estimate: sum / n, confidenceInterval: [low, high], confidenceLevel, alternative, range: [lo, hi], order, seed, n, warnings };
}
