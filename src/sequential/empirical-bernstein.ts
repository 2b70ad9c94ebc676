/** Which side(s) of the mean a confidence sequence bounds. */
export type SequenceBound = 'two-sided' | 'lower' | 'upper';

export const SEQUENCE_BOUNDS: readonly SequenceBound[] = ['two-sided', 'lower', 'upper'];

/** The settings of an empirical-Bernstein confidence sequence. */
export interface EmpiricalBernsteinOptions {
  /** [low, high]: every value must lie in it (for paired differences of 0/1 scores, [−1, 1]). */
  range: readonly [number, number];
  /** 1 − α, in (0, 1); default 0.95. The sequence covers the mean at EVERY step with this probability. */
  confidenceLevel?: number;
  /** 'two-sided' (default) spends α/2 on each side; 'lower' / 'upper' spend all of α on one. */
  bound?: SequenceBound;
  /** c, the cap on the bet λ_t, in (0, 1); default 1/2 (Waudby-Smith & Ramdas's suggestion). */
  truncation?: number;
  /** Report the running intersection of all bounds so far (default true): still valid, and nested. */
  intersect?: boolean;
}

/** The sums an empirical-Bernstein sequence carries: enough to extend it or project it. */
export interface EmpiricalBernsteinState {
  /** Values seen. */
  t: number;
  /** Σ x_i on the [0, 1] scale. */
  sumX: number;
  /** μ̂_t = (1/2 + Σ x_i) / (t + 1), the predictable mean the next bet is centred on. */
  muHat: number;
  /** σ̂²_t = (1/4 + Σ (x_i − μ̂_i)²) / (t + 1), the predictable variance (scale [0, 1]). */
  sigmaHat2: number;
  sumSquares: number;
  /** Σ λ_i, Σ λ_i x_i, Σ v_i ψ_E(λ_i). */
  sumLambda: number;
  sumLambdaX: number;
  sumPenalty: number;
}

/**
 * The predictable plug-in empirical-Bernstein confidence sequence (PrPl-EB) for the mean of
 * bounded values, updated one value at a time: a streaming accumulator, O(1) per value.
 *
 * Values y ∈ [a, b] are rescaled to x = (y − a)/(b − a) ∈ [0, 1]. With L = log(2/α) two-sided
 * (log(1/α) for one bound), μ̂_0 = 1/2, σ̂²_0 = 1/4, and for t = 1, 2, …
 *   λ_t = min( √(2L / (σ̂²_{t−1} · t · log(1 + t))), c )          (the predictable bet)
 *   v_t = 4 (x_t − μ̂_{t−1})²,   ψ_E(λ) = (−log(1 − λ) − λ) / 4
 *   μ̂_t = (1/2 + Σ_{i≤t} x_i)/(t + 1),   σ̂²_t = (1/4 + Σ_{i≤t} (x_i − μ̂_i)²)/(t + 1)
 *   C_t = Σλ_i x_i / Σλ_i  ±  (L + Σ v_i ψ_E(λ_i)) / Σλ_i
 * P(μ ∈ C_t for every t ≥ 1) ≥ 1 − α whenever E[x_t | x_1…x_{t−1}] = μ (e.g. items drawn at
 * random, in random order). The bound is the crossing of the supermartingale
 * Π exp(λ_i (x_i − m) − v_i ψ_E(λ_i)) with 2/α (Ville's inequality), so it holds at every look
 * however often one looks, and under optional stopping. Bounds are clipped to [0, 1], then
 * (with `intersect`) intersected with all earlier ones, and mapped back to [a, b].
 *
 * Reference: I. Waudby-Smith & A. Ramdas, "Estimating means of bounded random variables by
 * betting", JRSSB 86(1), 2024, Theorem 2 and eqs. (13)–(15) ("PrPl-EB"); Howard, Ramdas,
 * McAuliffe & Sekhon, Ann. Statist. 49(2), 2021, for the empirical-Bernstein supermartingale.
 * Checked against a numpy implementation (tests/reference/sequential/).
 * @example
 * const s = new EmpiricalBernsteinSequence({ range: [0, 1] });
 * s.push(1); s.lower // => 0 (one value says little)
 */
export class EmpiricalBernsteinSequence {
  readonly low: number;
  readonly high: number;
  readonly confidenceLevel: number;
  readonly bound: SequenceBound;
  readonly truncation: number;
  readonly intersect: boolean;
  /** L = log(2/α) or log(1/α). */
  readonly logThreshold: number;
  private s: EmpiricalBernsteinState = { t: 0, sumX: 0, muHat: 0.5, sigmaHat2: 0.25, sumSquares: 0, sumLambda: 0, sumLambdaX: 0, sumPenalty: 0 };
  private lowX = 0;
  private highX = 1;
  private sumY = 0;

  /** @throws {RangeError} for an empty or non-finite range, a level outside (0, 1), c outside (0, 1). */
  constructor(options: EmpiricalBernsteinOptions) {
    const [a, b] = options.range ?? [];
    if (!Number.isFinite(a) || !Number.isFinite(b) || !(b > a)) throw new RangeError(`range must be [low, high] with low < high, both finite (got [${a}, ${b}])`);
    const level = options.confidenceLevel ?? 0.95;
    if (!(level > 0 && level < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${level})`);
    const c = options.truncation ?? 0.5;
    if (!(c > 0 && c < 1)) throw new RangeError(`truncation must be in (0, 1) (got ${c})`);
    const bound = options.bound ?? 'two-sided';
    if (!SEQUENCE_BOUNDS.includes(bound)) throw new RangeError(`bound must be one of ${SEQUENCE_BOUNDS.join(', ')} (got ${String(bound)})`);
    this.low = a;
    this.high = b;
    this.confidenceLevel = level;
    this.bound = bound;
    this.truncation = c;
    this.intersect = options.intersect ?? true;
    this.logThreshold = Math.log((bound === 'two-sided' ? 2 : 1) / (1 - level));
  }

  /**
   * Adds one value.
   * @throws {RangeError} when the value is not finite or lies outside the range.
   */
  push(y: number): void {
    if (!(y >= this.low && y <= this.high)) throw new RangeError(`value ${y} lies outside the declared range [${this.low}, ${this.high}]`);
    const s = this.s;
    const x = (y - this.low) / (this.high - this.low);
    const t = s.t + 1;
    const lambda = betSize(this.logThreshold, s.sigmaHat2, t, this.truncation);
    const v = 4 * (x - s.muHat) * (x - s.muHat);
    s.sumLambda += lambda;
    s.sumLambdaX += lambda * x;
    s.sumPenalty += v * psiE(lambda);
    s.sumX += x;
    s.t = t;
    s.muHat = (0.5 + s.sumX) / (t + 1);
    s.sumSquares += (x - s.muHat) * (x - s.muHat);
    s.sigmaHat2 = (0.25 + s.sumSquares) / (t + 1);
    this.sumY += y;
    const centre = s.sumLambdaX / s.sumLambda;
    const half = (this.logThreshold + s.sumPenalty) / s.sumLambda;
    const lo = this.bound === 'upper' ? 0 : Math.max(0, centre - half);
    const hi = this.bound === 'lower' ? 1 : Math.min(1, centre + half);
    if (this.intersect) {
      this.lowX = Math.max(this.lowX, lo);
      this.highX = Math.min(this.highX, hi);
    } else {
      this.lowX = lo;
      this.highX = hi;
    }
  }

  /** Values seen so far. */
  get count(): number {
    return this.s.t;
  }

  /** The plain running mean of the values (NaN before the first). */
  get mean(): number {
    return this.s.t === 0 ? NaN : this.sumY / this.s.t;
  }

  /** The lower bound on the mean, in the values' units (the range's low end before any value). */
  get lower(): number {
    return this.low + (this.high - this.low) * this.lowX;
  }

  /** The upper bound on the mean, in the values' units. */
  get upper(): number {
    return this.low + (this.high - this.low) * this.highX;
  }

  /** The predictable variance estimate σ̂²_t in the values' units (scale² × σ̂² on [0, 1]). */
  get varianceEstimate(): number {
    const w = this.high - this.low;
    return w * w * this.s.sigmaHat2;
  }

  /** A copy of the sums, for projecting how many more values a decision needs. */
  state(): EmpiricalBernsteinState {
    return { ...this.s };
  }
}

/** λ_t = min(√(2L / (σ̂²_{t−1} t log(1 + t))), c): the bet at step t, predictable from steps before it. */
export function betSize(logThreshold: number, previousVariance: number, t: number, truncation: number): number {
  const raw = Math.sqrt((2 * logThreshold) / (previousVariance * t * Math.log1p(t)));
  return raw < truncation ? raw : truncation;
}

/** ψ_E(λ) = (−log(1 − λ) − λ)/4, the exponential-tail penalty of the empirical-Bernstein supermartingale. */
export function psiE(lambda: number): number {
  return (-Math.log1p(-lambda) - lambda) / 4;
}
