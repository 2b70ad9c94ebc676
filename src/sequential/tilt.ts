import { brentRoot } from '../sizing/counts.js';

/** A discrete distribution on the pilot's distinct values. */
export interface DiscreteDistribution {
  /** The distinct values, ascending. */
  support: Float64Array;
  /** Their probabilities (sum 1). */
  probability: Float64Array;
}

/**
 * The pilot's empirical distribution, exponentially tilted to have mean `target`: the law a
 * simulation draws from to ask "what if the true gap were target?". Tilting keeps every draw a
 * value the pilot saw (so inside the score bounds, unlike shifting) and is the distribution with
 * that mean closest to the pilot in Kullback–Leibler divergence.
 *   p_θ(d_j) ∝ n_j exp(θ d_j),  θ solving Σ_j d_j p_θ(d_j) = target (Brent's method; the tilted mean
 *   increases with θ). target equal to the pilot mean gives θ = 0, the pilot itself.
 * Reference: Efron (1981), "Nonparametric standard errors and confidence intervals", §4 (exponential
 * tilting of the empirical distribution); for two values ±1 the tilted mean is tanh θ.
 * @param values the pilot values (e.g. per-item differences A − B).
 * @param target the mean wanted, strictly between the smallest and largest value.
 * @returns the support and the tilted probabilities.
 * @throws {RangeError} for no values, a non-finite value, or a target not strictly inside (min, max).
 * @example tiltToMean([-1, 1], 0.5).probability // => [0.25, 0.75]
 */
export function tiltToMean(values: ArrayLike<number>, target: number): DiscreteDistribution {
  if (values.length === 0) throw new RangeError('tiltToMean needs at least one value');
  const counts = new Map<number, number>();
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (!Number.isFinite(v)) throw new RangeError(`tiltToMean: value ${v} is not finite`);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const support = Float64Array.from([...counts.keys()].sort((x, y) => x - y));
  const weight = Float64Array.from(support, (v) => (counts.get(v) as number) / values.length);
  const lo = support[0];
  const hi = support[support.length - 1];
  if (!(target > lo && target < hi)) {
    throw new RangeError(`the gap ${target} must lie strictly between the pilot's smallest and largest values (${lo}, ${hi}) to tilt the pilot towards it`);
  }
  const scale = hi - lo;
  const probabilities = (theta: number): Float64Array => {
    // exp(θ (d − centre)) keeps the exponent small at either end of the support.
    const centre = theta > 0 ? hi : lo;
    const p = Float64Array.from(support, (v, j) => weight[j] * Math.exp(theta * (v - centre)));
    let total = 0;
    for (const x of p) total += x;
    for (let j = 0; j < p.length; j++) p[j] /= total;
    return p;
  };
  const meanAt = (theta: number) => {
    const p = probabilities(theta);
    let m = 0;
    for (let j = 0; j < p.length; j++) m += p[j] * support[j];
    return m - target;
  };
  let bound = 1 / scale;
  while (meanAt(-bound) > 0 || meanAt(bound) < 0) {
    bound *= 2;
    if (bound > 1e6 / scale) throw new RangeError(`cannot tilt the pilot to mean ${target}: too close to its extreme values`);
  }
  const theta = meanAt(0) === 0 ? 0 : brentRoot(meanAt, -bound, bound, 1e-13 / scale);
  return { support, probability: probabilities(theta) };
}
