import { gridBand } from './grid-band.js';
import { SEQUENCE_BOUNDS, type SequenceBound } from './empirical-bernstein.js';

/** The settings every betting sequence on a grid of candidate means takes. */
export interface GridSequenceOptions {
  /** [low, high]: every value must lie in it. */
  range: readonly [number, number];
  /** 1 − α, in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** 'two-sided' (default), or bets for one bound only: 'lower' / 'upper'. */
  bound?: SequenceBound;
  /** c, the cap on the bets, in (0, 1); the default is the sequence's own. */
  truncation?: number;
  /** Candidate means tested on [0, 1]: G grid points m_j = (j + 1/2)/G; default 1000. */
  gridSize?: number;
}

/**
 * What the betting confidence sequences (AgrapaBettingSequence, HedgedBettingSequence) share: the
 * checked settings, values y ∈ [a, b] rescaled to x ∈ [0, 1], the grid of candidate means
 * m_j = (j + ½)/G with the indices [first, last] of those not yet rejected, and the predictable
 * running estimates of PrPl-EB, μ̂_t = (½ + Σ x)/(t + 1) and σ̂²_t = (¼ + Σ (x_i − μ̂_i)²)/(t + 1)
 * (μ̂_0 = ½, σ̂²_0 = ¼). A subclass's push bets against each standing candidate and hands the new
 * [first, last] to `advance`. Bounds: gridBand (the grid points just outside the standing ones).
 */
export abstract class GridBettingSequence {
  readonly low: number;
  readonly high: number;
  readonly confidenceLevel: number;
  readonly bound: SequenceBound;
  readonly truncation: number;
  readonly gridSize: number;
  protected readonly grid: Float64Array;
  protected readonly alive: Uint8Array;
  /** Indices [first, last] of the candidates not yet rejected (first > last: none). */
  protected first: number;
  protected last: number;
  protected t = 0;
  private sumX = 0;
  private sumY = 0;
  private sumSquares = 0;
  /** μ̂_t and σ̂²_t on the [0, 1] scale, from the values so far. */
  protected muHat = 0.5;
  protected sigmaHat2 = 0.25;

  /** @throws {RangeError} for a bad range, level, truncation, bound or grid size. */
  protected constructor(options: GridSequenceOptions, defaultTruncation: number) {
    const [a, b] = options.range ?? [];
    if (!Number.isFinite(a) || !Number.isFinite(b) || !(b > a)) throw new RangeError(`range must be [low, high] with low < high, both finite (got [${a}, ${b}])`);
    const level = options.confidenceLevel ?? 0.95;
    if (!(level > 0 && level < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${level})`);
    const c = options.truncation ?? defaultTruncation;
    if (!(c > 0 && c < 1)) throw new RangeError(`truncation must be in (0, 1) (got ${c})`);
    const bound = options.bound ?? 'two-sided';
    if (!SEQUENCE_BOUNDS.includes(bound)) throw new RangeError(`bound must be one of ${SEQUENCE_BOUNDS.join(', ')} (got ${String(bound)})`);
    const G = options.gridSize ?? 1000;
    if (!(Number.isInteger(G) && G >= 10 && G <= 1e6)) throw new RangeError(`gridSize must be a whole number in [10, 1e6] (got ${G})`);
    this.low = a;
    this.high = b;
    this.confidenceLevel = level;
    this.bound = bound;
    this.truncation = c;
    this.gridSize = G;
    this.grid = Float64Array.from({ length: G }, (_, j) => (j + 0.5) / G);
    this.alive = new Uint8Array(G).fill(1);
    this.first = 0;
    this.last = G - 1;
  }

  /**
   * y rescaled to [0, 1].
   * @throws {RangeError} when the value is not finite or lies outside the range.
   */
  protected rescale(y: number): number {
    if (!(y >= this.low && y <= this.high)) throw new RangeError(`value ${y} lies outside the declared range [${this.low}, ${this.high}]`);
    return (y - this.low) / (this.high - this.low);
  }

  /** After value t + 1 (y, rescaled x): the candidates still standing (first < 0: none) and the running estimates. */
  protected advance(x: number, y: number, first: number, last: number): void {
    const t = this.t + 1;
    this.first = first < 0 ? this.gridSize : first;
    this.last = last;
    this.t = t;
    this.sumX += x;
    this.sumY += y;
    this.muHat = (0.5 + this.sumX) / (t + 1);
    this.sumSquares += (x - this.muHat) * (x - this.muHat);
    this.sigmaHat2 = (0.25 + this.sumSquares) / (t + 1);
  }

  /** Adds one value. */
  abstract push(y: number): void;

  /** Values seen so far. */
  get count(): number {
    return this.t;
  }

  /** The plain running mean of the values (NaN before the first). */
  get mean(): number {
    return this.t === 0 ? NaN : this.sumY / this.t;
  }

  /** Lower bound in the values' units: the grid point below the smallest candidate still standing. Above `upper` when none stands. */
  get lower(): number {
    return gridBand(this.grid, this.first, this.last, this.low, this.high).lower;
  }

  /** Upper bound in the values' units: the grid point above the largest candidate still standing. */
  get upper(): number {
    return gridBand(this.grid, this.first, this.last, this.low, this.high).upper;
  }

  /** The predictable variance estimate σ̂²_t in the values' units. */
  get varianceEstimate(): number {
    const w = this.high - this.low;
    return w * w * this.sigmaHat2;
  }
}
