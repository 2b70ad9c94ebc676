/**
 * Normal and Student t distribution functions to full double precision, for interval end points
 * that must agree with scipy (`ndtr`, `ndtri`, `t.ppf`) to ~1e-13. Internal to src/bootstrap.
 *
 * Φ is computed from erf / erfc: the Taylor series of erf (all terms positive, so no cancellation)
 * for |x| < 1.5, and the continued fraction of erfc (Lentz's method) beyond. Φ⁻¹ starts from
 * Abramowitz & Stegun 26.2.23 (error < 4.5e-4) and polishes with Halley steps on the accurate Φ.
 * The t CDF is the regularized incomplete beta function (continued fraction, Numerical Recipes
 * §6.4), and its quantile is polished with Newton steps from a bracketing bisection.
 */

const SQRT2 = Math.SQRT2;
const SQRT_PI = Math.sqrt(Math.PI);
const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** erf(x) by its Taylor series x·e^{−x²}·Σ 2^k x^{2k} / (1·3·…·(2k+1)) · 2/√π (positive terms). */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 1; k < 200; k++) {
    term *= (2 * x2) / (2 * k + 1);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * 1e-17) break;
  }
  return ((2 / SQRT_PI) * Math.exp(-x2) * sum);
}

/** erfc(x) for x ≥ 1.5 by the continued fraction e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))). */
function erfcContinuedFraction(x: number): number {
  // Modified Lentz on b0 + a1/(b1 + a2/(b2 + …)) with b_k = x, a_k = k/2.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    if (d === 0) d = tiny;
    c = x + a / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / SQRT_PI / f;
}

/** The complementary error function erfc(x) = 1 − erf(x), accurate in both tails. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= 1.5) return x > 27 ? 0 : erfcContinuedFraction(x);
  if (x <= -1.5) return 2 - (x < -27 ? 0 : erfcContinuedFraction(-x));
  return 1 - erfSeries(x);
}

/**
 * The standard normal CDF Φ(z) (scipy.special.ndtr), with relative accuracy near 1e-15 in the
 * lower tail. @example normalCdf(1.959963984540054) // => 0.975
 */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const x = z / SQRT2;
  if (x < -0.5) return 0.5 * erfc(-x);
  if (x > 0.5) return 1 - 0.5 * erfc(x);
  return 0.5 + 0.5 * erfSeries(x);
}

/** The standard normal density φ(z). */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z - LN_SQRT_2PI);
}

/**
 * The standard normal quantile Φ⁻¹(p) (scipy.special.ndtri): −∞ at 0, +∞ at 1, NaN outside [0, 1].
 * @example normalQuantile(0.975) // => 1.959963984540054
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  // Work in the lower tail, where p is represented exactly, then mirror.
  const lower = p < 0.5;
  const q = lower ? p : 1 - p;
  const t = Math.sqrt(-2 * Math.log(q));
  let x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  // Halley steps on f(x) = Φ(x) − q; three suffice from 4.5e-4, the rest guard against ill luck.
  for (let k = 0; k < 8; k++) {
    const e = normalCdf(x) - q;
    const u = e / normalPdf(x);
    const step = u / (1 + (x * u) / 2);
    x -= step;
    if (Math.abs(step) <= 1e-16 * Math.max(1, Math.abs(x))) break;
  }
  if (!lower) return -x;
  return x;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; relative error ~1e-15). */
export function logGamma(x: number): number {
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const xm = x - 1;
  let a = c[0];
  const t = xm + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (xm + i);
  return LN_SQRT_2PI + (xm + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Stirling's correction ln Γ(x) − ((x − ½) ln x − x + ½ ln 2π), for x ≥ 10 (error < 1e-17). */
function stirlingCorrection(x: number): number {
  const x2 = x * x;
  return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
}

/**
 * ln Γ(a + b) − ln Γ(a) for a ≥ 10 without the cancellation of two large logs:
 * (a + b − ½) ln(1 + b/a) + b ln a − b + correction(a + b) − correction(a).
 */
function logGammaDifference(a: number, b: number): number {
  return (a + b - 0.5) * Math.log1p(b / a) + b * Math.log(a) - b + stirlingCorrection(a + b) - stirlingCorrection(a);
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b), taking the large argument's difference directly. */
export function logBeta(a: number, b: number): number {
  const big = Math.max(a, b);
  const small = Math.min(a, b);
  if (big >= 10) return logGamma(small) - logGammaDifference(big, small);
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** Continued fraction of the incomplete beta function (Numerical Recipes betacf, modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1]. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (Number.isNaN(x) || x < 0 || x > 1) return NaN;
  if (x === 0) return 0;
  if (x === 1) return 1;
  const logFront = -logBeta(a, b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use symmetry beyond.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/**
 * The Student t CDF with df degrees of freedom (scipy.stats.t.cdf):
 * for t < 0, ½ I_{df/(df+t²)}(df/2, ½); for t > 0, one minus that at −t.
 */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t < 0 ? tail : 1 - tail;
}

/** The lower-tail probability P(T ≤ −|t|), computed without cancellation. */
function studentTTail(t: number, df: number): number {
  return 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

/** The Student t density. */
export function studentTPdf(t: number, df: number): number {
  const logC = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logC - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/**
 * The Student t quantile (scipy.stats.t.ppf(p, df)): the t with P(T ≤ t) = p.
 * Solved in the lower tail (where p is exact) by bracketing bisection polished with Newton steps.
 * @example studentTQuantile(0.975, 10) // => 2.2281388519649385
 */
export function studentTQuantile(p: number, df: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1 || !(df > 0)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  const lower = p < 0.5;
  const q = lower ? p : 1 - p;
  // Find t ≤ 0 with tail(t) = q; tail is increasing in t on (−∞, 0].
  let lo = -1;
  while (studentTTail(lo, df) > q) lo *= 2;
  let hi = 0;
  let x = Math.max(lo, Math.min(hi, normalQuantile(q)));
  if (!(x > lo && x < hi)) x = (lo + hi) / 2;
  for (let k = 0; k < 200; k++) {
    const f = studentTTail(x, df) - q;
    if (f === 0) break;
    if (f > 0) hi = x;
    else lo = x;
    let next = x - f / studentTPdf(x, df);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x))) {
      x = next;
      break;
    }
    x = next;
  }
  return lower ? x : -x;
}

/** P(χ²₁ ≥ x), the upper tail of chi-square with one degree of freedom: erfc(√(x/2)). */
export function chiSquare1Sf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  return erfc(Math.sqrt(x / 2));
}
