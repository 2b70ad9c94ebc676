import { betSize, psiE, type EmpiricalBernsteinSequence } from './empirical-bernstein.js';

/** Beyond this many more values the projection stops and says Infinity. */
export const PROJECTION_LIMIT = 1e9;

/**
 * How many more values the empirical-Bernstein sequence needs before its half-width falls below
 * `halfWidth`, if the values to come have the variance seen so far: a planning estimate for
 * "continue", not a promise (the variance and the gap are estimates too).
 *
 * With σ̂² the current predictable variance (on [0, 1]), future bets λ_i = min(√(2L/(σ̂² i log(1+i))), c)
 * and expected penalties E[v_i] ψ_E(λ_i) = 4σ̂² ψ_E(λ_i), the projected half-width after T values is
 *   w(T) = (b − a) · (L + Σ_{i≤t} v_i ψ_E(λ_i) + Σ_{t<i≤T} 4σ̂² ψ_E(λ_i)) / (Σ_{i≤t} λ_i + Σ_{t<i≤T} λ_i),
 * and the answer is the least T − t with w(T) < halfWidth. Far from t the sums advance in strides of
 * ⌊i/512⌋ values (midpoint rule; the summands change by under 0.2% across a stride), so the cost is
 * O(512 · log(T/t)) rather than O(T).
 * @param sequence the sequence so far (not changed).
 * @param halfWidth the half-width a decision needs, in the values' units; ≤ 0 means never.
 * @returns a whole number ≥ 1 of further values, or Infinity (beyond PROJECTION_LIMIT, or halfWidth ≤ 0).
 * @example unitsStillNeeded(new EmpiricalBernsteinSequence({ range: [-1, 1] }), 0) // => Infinity
 */
export function unitsStillNeeded(sequence: EmpiricalBernsteinSequence, halfWidth: number): number {
  if (!(halfWidth > 0)) return Infinity;
  const scale = sequence.high - sequence.low;
  const target = halfWidth / scale;
  const s = sequence.state();
  const L = sequence.logThreshold;
  const c = sequence.truncation;
  const v = 4 * s.sigmaHat2;
  let lambdaSum = s.sumLambda;
  let penalty = s.sumPenalty;
  let i = s.t;
  while (i - s.t < PROJECTION_LIMIT) {
    const stride = Math.max(1, Math.floor(i / 512));
    const mid = i + (stride + 1) / 2;
    const lambda = betSize(L, s.sigmaHat2, mid, c);
    lambdaSum += stride * lambda;
    penalty += stride * v * psiE(lambda);
    i += stride;
    if ((L + penalty) / lambdaSum < target) return Math.max(1, i - s.t);
  }
  return Infinity;
}

/**
 * A generic projection for sequences without a closed form (the betting sequence): a confidence
 * sequence's half-width shrinks like √(log t / t), so from half-width w after t values the
 * half-width after T is about w · √((t / T) · log(1 + T) / log(1 + t)); the answer is the least
 * T − t that brings it below `halfWidth`. A planning estimate under the same proviso as
 * unitsStillNeeded (the variance and the gap stay as seen).
 * @param t values so far (≥ 1).
 * @param currentHalfWidth the half-width now (> 0).
 * @param halfWidth the half-width a decision needs; ≤ 0 means never.
 * @returns a whole number ≥ 1, or Infinity beyond PROJECTION_LIMIT.
 * @example unitsStillNeededByRate(100, 0.2, 0.1) // => 447 (T = 547 solves T / log(1 + T) = 4 · 100 / log 101)
 */
export function unitsStillNeededByRate(t: number, currentHalfWidth: number, halfWidth: number): number {
  if (!(halfWidth > 0) || !(t >= 1) || !(currentHalfWidth > 0)) return Infinity;
  if (currentHalfWidth < halfWidth) return 1;
  const width = (T: number) => currentHalfWidth * Math.sqrt((t / T) * (Math.log1p(T) / Math.log1p(t)));
  let hi = 2 * t;
  while (width(hi) >= halfWidth) {
    hi *= 2;
    if (hi - t > PROJECTION_LIMIT) return Infinity;
  }
  let lo = t;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (width(mid) < halfWidth) hi = mid;
    else lo = mid;
  }
  return Math.max(1, hi - t);
}
