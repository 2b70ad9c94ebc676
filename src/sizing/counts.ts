/**
 * Rounds a real-valued item count up to a whole count, ignoring floating-point noise at exact
 * integers: 264.00000000000006 (what v·(2z/mde)² can come out as when the true value is 264)
 * gives 264, not 265. Anything more than a relative 1e-12 above an integer rounds up.
 * A sizing formula's arithmetic carries a relative error of a few 1e-16, so 1e-12 leaves a wide
 * margin while never swallowing a real fraction of an item (at n = 1e6 it is 1e-6 of an item).
 * @param x a real count ≥ 0 (NaN and +Infinity pass through).
 * @returns the smallest integer ≥ x, up to that noise.
 * @throws {RangeError} for a negative count.
 * @example ceilCount(263.616) // => 264
 * @example ceilCount(264 * (1 + 1e-15)) // => 264
 */
export function ceilCount(x: number): number {
  if (x < 0) throw new RangeError(`ceilCount: a count must be ≥ 0 (got ${x})`);
  if (!Number.isFinite(x)) return x;
  const nearest = Math.round(x);
  if (Math.abs(x - nearest) <= 1e-12 * Math.max(1, nearest)) return nearest;
  return Math.ceil(x);
}

/**
 * Brent's root finder on [low, high], where f(low) and f(high) have opposite signs.
 * Inverse quadratic interpolation with bisection fallback; stops when the bracket is below
 * 2·(4ε|x| + xTolerance / 2). Reference: Brent (1973), Algorithms for Minimization without
 * Derivatives, ch. 4 (`zero`); the algorithm behind R `uniroot` and scipy `brentq`.
 * @throws {RangeError} when f(low) and f(high) do not bracket a root.
 */
export function brentRoot(f: (x: number) => number, low: number, high: number, xTolerance = 1e-12): number {
  // R's zeroin (src/library/stats/src/zeroin.c), itself Brent's ALGOL `zero`.
  let a = low;
  let b = high;
  let fa = f(a);
  let fb = f(b);
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (fa > 0 === fb > 0) throw new RangeError(`brentRoot: f(${low}) = ${fa} and f(${high}) = ${fb} do not bracket a root`);
  let c = a;
  let fc = fa;
  for (let iteration = 0; iteration < 1000; iteration++) {
    const previousStep = b - a;
    if (Math.abs(fc) < Math.abs(fb)) {
      // Keep b the best approximation so far.
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tolerance = 2 * 2.220446049250313e-16 * Math.abs(b) + xTolerance / 2;
    let step = (c - b) / 2;
    if (Math.abs(step) <= tolerance || fb === 0) return b;
    if (Math.abs(previousStep) >= tolerance && Math.abs(fa) > Math.abs(fb)) {
      const cb = c - b;
      let p: number;
      let q: number;
      if (a === c) {
        // Secant (linear interpolation).
        const t1 = fb / fa;
        p = cb * t1;
        q = 1 - t1;
      } else {
        // Inverse quadratic interpolation.
        const qa = fa / fc;
        const t1 = fb / fc;
        const t2 = fb / fa;
        p = t2 * (cb * qa * (qa - t1) - (b - a) * (t1 - 1));
        q = (qa - 1) * (t1 - 1) * (t2 - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (p < 0.75 * cb * q - Math.abs(tolerance * q) / 2 && p < Math.abs((previousStep * q) / 2)) step = p / q;
    }
    if (Math.abs(step) < tolerance) step = step > 0 ? tolerance : -tolerance;
    a = b;
    fa = fb;
    b += step;
    fb = f(b);
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
      c = a;
      fc = fa;
    }
  }
  return b;
}
