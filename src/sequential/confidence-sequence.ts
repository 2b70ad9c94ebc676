import type { SequenceBound } from './empirical-bernstein.js';
import { createSequence, type SequenceMethod, type SequenceOptions } from './sequence.js';

/** The settings of `confidenceSequence`: the method (default 'empirical-bernstein') and its settings. */
export interface ConfidenceSequenceOptions extends SequenceOptions {
  method?: SequenceMethod;
}

/** A confidence sequence over a series of values: one bound pair per prefix. */
export interface ConfidenceSequenceResult {
  method: SequenceMethod;
  range: [number, number];
  confidenceLevel: number;
  bound: SequenceBound;
  truncation: number;
  intersect: boolean;
  /** Values used. */
  n: number;
  /** Entry t − 1: the plain mean of the first t values. */
  mean: Float64Array;
  /** Entry t − 1: the sequence's lower / upper bound after t values (the range's ends where not bounded). */
  lower: Float64Array;
  upper: Float64Array;
  /** The last bounds: [lower, upper] after all n values ([NaN, NaN] for none). */
  interval: [number, number];
  warnings: string[];
}

/**
 * An anytime-valid confidence sequence for the mean of bounded values seen in order: by default
 * the predictable plug-in empirical-Bernstein sequence (PrPl-EB) of Waudby-Smith & Ramdas (2024);
 * `method: 'betting'` gives their hedged-capital betting sequence (HedgedBettingSequence) instead.
 * Unlike a fixed-n interval, P(the mean lies inside the bounds at every t) ≥ confidenceLevel,
 * so the bounds may be read after every value and a decision taken the moment they exclude 0.
 *
 * Formula (x = values rescaled to [0, 1]; L = log(2/α), log(1/α) for one bound):
 *   λ_t = min(√(2L / (σ̂²_{t−1} t log(1+t))), c),  v_t = 4(x_t − μ̂_{t−1})²,  ψ_E(λ) = (−log(1−λ) − λ)/4
 *   C_t = Σλ_i x_i / Σλ_i ± (L + Σ v_i ψ_E(λ_i)) / Σλ_i,  intersected over t (see EmpiricalBernsteinSequence).
 * Reference: Waudby-Smith & Ramdas, JRSSB 2024, Theorem 2; numpy check in tests/reference/sequential/.
 * Cost: O(n).
 * @param values the values in the order they arrived, each inside options.range.
 * @param options range (required), method ('empirical-bernstein'), confidenceLevel (0.95), bound ('two-sided'),
 *   truncation (1/2 EB, 3/4 betting), intersect (true; EB only), gridSize (1000; betting only).
 * @returns per-prefix mean and bounds, the final interval, the settings echoed, warnings.
 * @throws {RangeError} for a value outside the range or a bad setting; {TypeError} when values is not array-like.
 * @example confidenceSequence(Array(400).fill(1).map((_, i) => i % 2), { range: [0, 1] }).interval // => [0.4064, 0.5909] (to 4 places; numpy reference)
 */
export function confidenceSequence(values: ArrayLike<number>, options: ConfidenceSequenceOptions): ConfidenceSequenceResult {
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') throw new TypeError('confidenceSequence needs an array of numbers');
  const method = options.method ?? 'empirical-bernstein';
  const seq = createSequence(method, options);
  const n = values.length;
  const mean = new Float64Array(n);
  const lower = new Float64Array(n);
  const upper = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    seq.push(values[t]);
    mean[t] = seq.mean;
    lower[t] = seq.lower;
    upper[t] = seq.upper;
  }
  const warnings: string[] = [];
  if (n === 0) warnings.push('no values: the sequence is empty');
  else if (lower[n - 1] > upper[n - 1]) warnings.push('the running intersection is empty: the values do not look like draws with one fixed mean (drift, or items in a non-random order)');
  return {
    method,
    range: [seq.low, seq.high],
    confidenceLevel: seq.confidenceLevel,
    bound: options.bound ?? 'two-sided',
    truncation: seq.truncation,
    intersect: options.intersect ?? true,
    n,
    mean,
    lower,
    upper,
    interval: n === 0 ? [NaN, NaN] : [lower[n - 1], upper[n - 1]],
    warnings,
  };
}
