import { betSize, type SequenceBound } from './empirical-bernstein.js';
import { GridBettingSequence } from './grid-sequence.js';

/** The settings of the hedged betting confidence sequence. */
export interface BettingOptions {
  /** [low, high]: every value must lie in it. */
  range: readonly [number, number];
  /** 1 − α, in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** 'two-sided' (default: hedged, θ = 1/2), or one capital process for 'lower' / 'upper'. */
  bound?: SequenceBound;
  /** c, the cap on the bets relative to m (λ⁺ ≤ c/m, λ⁻ ≤ c/(1 − m)), in (0, 1); default 3/4. */
  truncation?: number;
  /** Candidate means tested on [0, 1]: G grid points m_j = (j + 1/2)/G; default 1000. */
  gridSize?: number;
}

/**
 * The hedged-capital betting confidence sequence of Waudby-Smith & Ramdas for the mean of bounded
 * values, on a grid of candidate means, updated one value at a time. It is tighter than the
 * empirical-Bernstein sequence when the values' spread is small next to their range, because
 * its bets may reach c/m rather than c.
 *
 * Values y ∈ [a, b] are rescaled to x ∈ [0, 1]. For each candidate mean m on the grid, two
 * gamblers bet on x being above or below m:
 *   K⁺_t(m) = Π_{i≤t} (1 + λ⁺_i(m)(x_i − m)),   K⁻_t(m) = Π_{i≤t} (1 − λ⁻_i(m)(x_i − m)),
 *   λ⁺_i(m) = min(λ̇_i, c/m),  λ⁻_i(m) = min(λ̇_i, c/(1 − m)),  λ̇_i = √(2 log(2/α) / (σ̂²_{i−1} i log(1+i)))
 * (σ̂² as in PrPl-EB). The hedged capital is K_t(m) = max(θK⁺, (1 − θ)K⁻) with θ = 1/2, a
 * nonnegative supermartingale when m is the true mean, so by Ville's inequality
 * P(∃t: K_t(μ) ≥ 1/α) ≤ α. The sequence is {m : K_s(m) < 1/α for every s ≤ t} (a rejected m stays
 * rejected: the running intersection). One-sided: only K⁺ (lower bound) or K⁻ (upper), threshold 1/α,
 * λ̇ with log(1/α). The reported bounds are conservative on the grid: the grid point just outside
 * the smallest / largest candidate not yet rejected (clipped to [0, 1]), mapped back to [a, b].
 *
 * Reference: I. Waudby-Smith & A. Ramdas, "Estimating means of bounded random variables by
 * betting", JRSSB 86(1), 2024, §4 (hedged capital, Theorem 3, predictable plug-in bets, eq. (26)).
 * Checked against a numpy implementation (tests/reference/sequential/).
 * Cost: O(G) per value at first, falling as candidates are rejected.
 * @example
 * const s = new HedgedBettingSequence({ range: [0, 1] });
 * for (let i = 0; i < 400; i++) s.push(i % 2); [s.lower, s.upper] // => [0.3865, 0.6045] (numpy reference)
 */
export class HedgedBettingSequence extends GridBettingSequence {
  /** log(1/α) + log 2 for the hedged two-sided process, log(1/α) one-sided: the rejection threshold on log K. */
  private readonly logReject: number;
  /** L inside λ̇: log(2/α) two-sided, log(1/α) one-sided. */
  readonly logThreshold: number;
  private readonly logUp: Float64Array;
  private readonly logDown: Float64Array;

  /** @throws {RangeError} for a bad range, level, truncation, bound or grid size. */
  constructor(options: BettingOptions) {
    super(options, 0.75);
    const alpha = 1 - this.confidenceLevel;
    this.logThreshold = Math.log((this.bound === 'two-sided' ? 2 : 1) / alpha);
    // Hedged: max(½K⁺, ½K⁻) ≥ 1/α ⇔ K⁺ ≥ 2/α or K⁻ ≥ 2/α.
    this.logReject = Math.log((this.bound === 'two-sided' ? 2 : 1) / alpha);
    this.logUp = new Float64Array(this.gridSize);
    this.logDown = new Float64Array(this.gridSize);
  }

  /**
   * Adds one value.
   * @throws {RangeError} when the value is not finite or lies outside the range.
   */
  push(y: number): void {
    const x = this.rescale(y);
    const t = this.t + 1;
    const c = this.truncation;
    const lambdaDot = betSize(this.logThreshold, this.sigmaHat2, t, Infinity);
    const up = this.bound !== 'upper';
    const down = this.bound !== 'lower';
    const { grid, logUp, logDown, alive } = this;
    let first = -1;
    let last = -2;
    for (let j = this.first; j <= this.last; j++) {
      if (alive[j] === 0) continue;
      const m = grid[j];
      if (up) {
        const cap = c / m;
        logUp[j] += Math.log1p((lambdaDot < cap ? lambdaDot : cap) * (x - m));
      }
      if (down) {
        const cap = c / (1 - m);
        logDown[j] += Math.log1p(-(lambdaDot < cap ? lambdaDot : cap) * (x - m));
      }
      if ((up && logUp[j] >= this.logReject) || (down && logDown[j] >= this.logReject)) {
        alive[j] = 0;
        continue;
      }
      if (first < 0) first = j;
      last = j;
    }
    this.advance(x, y, first, last);
  }
}
