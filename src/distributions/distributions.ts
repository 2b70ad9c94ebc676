/**
 * The distribution functions sizing needs, in one file so other modules can share them:
 * normal (Φ, Φ⁻¹), Student t (CDF, quantile), noncentral t (CDF) and chi-square (CDF, quantile),
 * built on the log-gamma function and the regularized incomplete beta and gamma functions.
 *
 * Accuracy, checked in tests/sizing/distributions.test.ts against scipy.stats and R (scripts in
 * tests/reference/sizing/): relative error ≤ 1e-15 for Φ⁻¹, ≤ 5e-14 for Φ, ≤ 1e-13 for the t and
 * chi-square quantiles and ≤ 1e-12 for the t and chi-square CDFs (df up to 1e12). The noncentral
 * t reproduces R's `pt(t, df, ncp)` to ≤ 5e-13; AS 243 itself (R and this port alike) can be off
 * the exact value by up to ~1e-9 at small df (6.8e-10 at df = 3, ncp = 3 against a 40-digit
 * quadrature), which moves a power-sized n by far less than 1e-6.
 * The names are distinctive (`normalQuantile`, `studentTCdf`, …) because src/index.ts re-exports
 * every module into one namespace.
 */

const LN_SQRT_2PI = 0.9189385332046727418; // log(√(2π))
const INV_SQRT_2PI = 0.3989422804014326779; // 1/√(2π)
const SQRT_2_OVER_PI = 0.7978845608028654; // √(2/π)
const EPSILON = 2.220446049250313e-16;
const TINY = 1e-300;

// ----------------------------------------------------------------------------------------------
// Special functions

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/**
 * Natural log of the gamma function, log Γ(x), for x > 0.
 * Lanczos approximation (g = 7, 9 terms), relative error ~1e-15; reflection is not needed
 * since every caller here passes x > 0. Reference: Press et al., Numerical Recipes 3rd ed. §6.1.
 * @throws {RangeError} for x ≤ 0 or not finite.
 * @example logGamma(5) // => log(24) = 3.1780538303479458
 */
export function logGamma(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`logGamma: x must be a finite number > 0 (got ${x})`);
  if (x < 0.5) {
    // Γ(x) = Γ(x + 1) / x keeps the Lanczos sum in its accurate range.
    return logGamma(x + 1) - Math.log(x);
  }
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let k = 1; k < LANCZOS.length; k++) sum += LANCZOS[k] / (z + k);
  const t = z + LANCZOS_G + 0.5;
  return LN_SQRT_2PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The Stirling-series remainder log Γ(x) − [(x − ½) log x − x + log √(2π)] for x ≥ 10:
 * 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) − 691/(360360x¹¹), error < 1e-16.
 */
function stirlingRemainder(x: number): number {
  const r = 1 / (x * x);
  return (((((-691 / 360360) * r + 1 / 1188) * r - 1 / 1680) * r + 1 / 1260) * r - 1 / 360) * r / x + 1 / (12 * x);
}

/**
 * log B(a, b) = log Γ(a) + log Γ(b) − log Γ(a + b), arranged as in R's `lbeta` so that large
 * arguments do not cancel: with q = max(a, b) ≥ 10 the three log-gammas are never formed,
 * only their Stirling remainders (a t CDF with df = 1e5 needs log B(5e4, ½) to ~1e-15).
 */
function logBeta(a: number, b: number): number {
  const p = Math.min(a, b);
  const q = Math.max(a, b);
  if (p >= 10) {
    const corr = stirlingRemainder(p) + stirlingRemainder(q) - stirlingRemainder(p + q);
    return -0.5 * Math.log(q) + LN_SQRT_2PI + corr + (p - 0.5) * Math.log(p / (p + q)) + q * Math.log1p(-p / (p + q));
  }
  if (q >= 10) {
    const corr = stirlingRemainder(q) - stirlingRemainder(p + q);
    return logGamma(p) + corr + p - p * Math.log(p + q) + (q - 0.5) * Math.log1p(-p / (p + q));
  }
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** Continued fraction of the incomplete beta (modified Lentz); Numerical Recipes §6.4 `betacf`. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  const maxIterations = 200_000;
  for (let m = 1; m <= maxIterations; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) return h;
  }
  throw new RangeError(`regularizedBeta: continued fraction did not converge (x = ${x}, a = ${a}, b = ${b})`);
}

/**
 * Regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b), the CDF of Beta(a, b).
 * Continued fraction, on whichever of I_x(a, b) and 1 − I_{1−x}(b, a) converges fast.
 * Reference: Numerical Recipes 3rd ed. §6.4; R `pbeta(x, a, b)`, scipy `betainc(a, b, x)`.
 * @param x in [0, 1]; a, b > 0.
 * @throws {RangeError} outside that domain.
 * @example regularizedBeta(0.5, 2, 3) // => 0.6875
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedBeta: x must be in [0, 1] (got ${x})`);
  return incompleteBeta(x, 1 - x, a, b);
}

/**
 * I_x(a, b) given both x and y = 1 − x, each exact as the caller computed it: when x is near 1,
 * 1 − x rounds away the digits that the complementary continued fraction needs (the t CDF
 * passes x = df/(df+t²) and y = t²/(df+t²)).
 */
function incompleteBeta(x: number, y: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new RangeError(`regularizedBeta: a and b must be finite and > 0 (got a = ${a}, b = ${b})`);
  }
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  // log x from whichever of x, y is small: a = 5e4 times a rounding error in log(1 − 1e-5) would show.
  const logX = x > 0.5 ? Math.log1p(-y) : Math.log(x);
  const logY = y > 0.5 ? Math.log1p(-x) : Math.log(y);
  const front = Math.exp(a * logX + b * logY - logBeta(a, b));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(y, b, a)) / b;
}

/** Lower regularized gamma P(a, x) by its series, for x < a + 1 (Numerical Recipes `gser`). */
function gammaSeries(a: number, x: number): number {
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < 100_000; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPSILON) return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
  }
  throw new RangeError(`regularizedGamma: series did not converge (a = ${a}, x = ${x})`);
}

/**
 * The continued fraction h of the upper regularized gamma, Q(a, x) = x^a e^−x / Γ(a) · h,
 * for x ≥ a + 1 (Numerical Recipes `gcf`); the caller multiplies by the prefactor.
 */
function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) return h;
  }
  throw new RangeError(`regularizedGamma: continued fraction did not converge (a = ${a}, x = ${x})`);
}

/**
 * Regularized incomplete gamma functions: lower P(a, x) and upper Q(a, x) = 1 − P(a, x),
 * each computed directly (not as 1 − the other) where it is small, so tails keep full precision.
 * Reference: Numerical Recipes 3rd ed. §6.2; scipy `gammainc(a, x)` / `gammaincc(a, x)`.
 * @param a > 0; x ≥ 0.
 * @throws {RangeError} outside that domain.
 * @example regularizedGamma(1, 2) // => { lower: 1 − e⁻², upper: e⁻² }
 */
export function regularizedGamma(a: number, x: number): { lower: number; upper: number } {
  if (!(a > 0) || !Number.isFinite(a)) throw new RangeError(`regularizedGamma: a must be finite and > 0 (got ${a})`);
  if (!(x >= 0)) throw new RangeError(`regularizedGamma: x must be ≥ 0 (got ${x})`);
  if (x === 0) return { lower: 0, upper: 1 };
  if (x === Infinity) return { lower: 1, upper: 0 };
  if (x < a + 1) {
    const lower = gammaSeries(a, x);
    return { lower, upper: 1 - lower };
  }
  const upper = Math.exp(-x + a * Math.log(x) - logGamma(a)) * gammaContinuedFraction(a, x);
  return { lower: 1 - upper, upper };
}

// ----------------------------------------------------------------------------------------------
// Normal

/**
 * Standard normal CDF Φ(x) = P(Z ≤ x).
 * Through erfc(z) = Q(1/2, z²), so the lower tail keeps full relative precision down to
 * Φ(−37) ≈ 6e-300. Reference: Abramowitz & Stegun 7.1.2, 26.2.29; scipy `norm.cdf`, R `pnorm`.
 * @example normalCdf(1.959963984540054) // => 0.975
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  // Past |x| = 38.5 the tail is below the smallest double (5e-324); x² would overflow past 1.3e154.
  if (x > 40) return 1;
  if (x < -40) return 0;
  const z2 = (x * x) / 2;
  let tail: number; // P(Z > |x|)
  if (z2 < 1.5) tail = 0.5 * (1 - gammaSeries(0.5, z2));
  else {
    // Q(1/2, z²) = (|x| φ(x)) · h with φ from the split exponent below.
    tail = 0.5 * Math.abs(x) * normalPdf(x) * gammaContinuedFraction(0.5, z2);
  }
  return x < 0 ? tail : 1 - tail;
}

/**
 * Standard normal density φ(x) = exp(−x²/2) / √(2π).
 * x² is split as xh² + (x − xh)(x + xh) with xh = x rounded to 1/16, so xh² is exact and the
 * exponent carries no rounding error of size x²·ε into the far tail (Cody's device, as in R's pnorm).
 */
export function normalPdf(x: number): number {
  const xh = Math.round(x * 16) / 16;
  return INV_SQRT_2PI * Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * (x - xh) * (x + xh));
}

/**
 * Standard normal quantile Φ⁻¹(p): the z with Φ(z) = p.
 * Wichura's algorithm AS 241 (PPND16), relative accuracy about 1e-16.
 * Reference: M. J. Wichura (1988), "Algorithm AS 241: The percentage points of the normal
 * distribution", Applied Statistics 37(3), 477–484; R `qnorm`, scipy `norm.ppf`.
 * @param p probability in [0, 1]; 0 → −Infinity, 1 → +Infinity.
 * @throws {RangeError} for p outside [0, 1] or NaN.
 * @example normalQuantile(0.975) // => 1.959963984540054
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p must be a probability in [0, 1] (got ${p})`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1)
    );
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1);
  } else {
    r -= 5;
    value =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1);
  }
  return q < 0 ? -value : value;
}

// ----------------------------------------------------------------------------------------------
// Student t

function checkDf(name: string, df: number): void {
  if (!(df > 0) || Number.isNaN(df)) throw new RangeError(`${name}: degrees of freedom must be > 0 (got ${df})`);
}

/**
 * Student t CDF P(T ≤ t) with df degrees of freedom (df may be fractional, as when sizing
 * solves for a real-valued n).
 * P(T ≤ t) = 1 − I_{df/(df+t²)}(df/2, 1/2) / 2 for t ≥ 0, by symmetry for t < 0; the normal CDF
 * for df = Infinity. Reference: Abramowitz & Stegun 26.7.1; R `pt`, scipy `t.cdf`.
 * @throws {RangeError} for df ≤ 0.
 * @example studentTCdf(2.228138851986274, 10) // => 0.975
 */
export function studentTCdf(t: number, df: number): number {
  checkDf('studentTCdf', df);
  if (Number.isNaN(t)) return NaN;
  if (df === Infinity) return normalCdf(t);
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = studentTUpperTail(Math.abs(t), df);
  return t < 0 ? tail : 1 - tail;
}

/**
 * P(T > t) for t ≥ 0: I_x(df/2, 1/2) / 2 with x = df/(df+t²), passing 1 − x = t²/(df+t²)
 * exactly, since for small t (x near 1) the continued fraction runs on 1 − x.
 */
function studentTUpperTail(t: number, df: number): number {
  if (df >= LARGE_DF) return hillNormalTail(t, df);
  const t2 = t * t;
  return 0.5 * incompleteBeta(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
}

/**
 * From this df on, the incomplete-beta continued fraction needs O(√df) terms and its rounding
 * errors add up (2e-12 relative at df = 1e5, 2e-9 at 1e8), so Hill's normalizing transformation
 * takes over.
 */
const LARGE_DF = 1e5;

/**
 * P(T > t), t ≥ 0, for large df by Hill's asymptotic normalizing transformation:
 * a = df − ½, b = 48a², y = a·log(1 + t²/df), z = √y + (((((−0.4y − 3.3)y − 24)y − 85.5) /
 * (0.8y² + 100 + b) + y + 3)·√y / b, P(T > t) = Φ(−z). Relative error ~1e-13 against scipy
 * `t.sf` for df ≥ 1e4 (checked up to df = 1e12).
 * Reference: G. W. Hill (1970), "Algorithm 395: Student's t-distribution", CACM 13(10), 617–619.
 */
function hillNormalTail(t: number, df: number): number {
  const a = df - 0.5;
  const b = 48 * a * a;
  const y = a * Math.log1p((t * t) / df);
  const root = Math.sqrt(y);
  const z = root + ((((((-0.4 * y - 3.3) * y - 24) * y - 85.5) / (0.8 * y * y + 100 + b) + y + 3) * root) / b);
  return normalCdf(-z);
}

/** Student t density. */
export function studentTPdf(t: number, df: number): number {
  checkDf('studentTPdf', df);
  if (df === Infinity) return normalPdf(t);
  // Γ((df+1)/2) / Γ(df/2) = √π / B(df/2, ½)
  const logDensity = -logBeta(df / 2, 0.5) - 0.5 * Math.log(df) - ((df + 1) / 2) * Math.log1p((t * t) / df);
  return Math.exp(logDensity);
}

/**
 * Student t quantile: the t with P(T ≤ t) = p, for df > 0 (fractional allowed).
 * Starts from the Cornish–Fisher expansion around Φ⁻¹(p) (A&S 26.7.5), then Newton steps on
 * studentTCdf kept inside a bisection bracket, to ~1e-14 relative.
 * Reference: Hill (1970), "Algorithm 396: Student's t-quantiles", CACM 13(10); R `qt`, scipy `t.ppf`.
 * @throws {RangeError} for p outside [0, 1] or df ≤ 0.
 * @example studentTQuantile(0.975, 10) // => 2.228138851986274 (R: qt(0.975, 10))
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`studentTQuantile: p must be a probability in [0, 1] (got ${p})`);
  checkDf('studentTQuantile', df);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (df === Infinity) return normalQuantile(p);
  // Work in the upper half; the distribution is symmetric.
  const upper = p > 0.5;
  const pu = upper ? p : 1 - p; // in (0.5, 1)
  const tailP = upper ? 1 - p : p; // the small tail, exact as given
  let t: number;
  if (df === 1) t = Math.tan(Math.PI * (pu - 0.5));
  else if (df === 2) t = (2 * (pu - 0.5)) * Math.sqrt(2 / (4 * pu * (1 - pu)));
  else {
    const z = -normalQuantile(tailP);
    const z2 = z * z;
    const g1 = (z2 * z + z) / 4;
    const g2 = ((5 * z2 + 16) * z2 * z + 3 * z) / 96;
    const g3 = (((3 * z2 + 19) * z2 + 17) * z2 * z - 15 * z) / 384;
    const g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 * z - 945 * z) / 92160;
    t = z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
    if (!Number.isFinite(t) || t <= 0) t = z;
  }
  // Newton on the upper tail S(t) = 1 − F(t), which is what is small and given exactly.
  let low = 0;
  let high = Infinity;
  for (let iteration = 0; iteration < 200; iteration++) {
    const f = studentTUpperTail(t, df) - tailP; // decreasing in t
    if (f > 0) low = t;
    else high = t;
    const step = f / studentTPdf(t, df);
    let next = t + step;
    if (!(next > low && next < high)) next = high === Infinity ? 2 * t + 1 : (low + high) / 2;
    if (Math.abs(next - t) <= 4 * EPSILON * Math.abs(next)) {
      t = next;
      break;
    }
    t = next;
  }
  return upper ? t : -t;
}

// ----------------------------------------------------------------------------------------------
// Noncentral t

/**
 * Noncentral t CDF P(T' ≤ t) with df degrees of freedom and noncentrality ncp: the power
 * function of the t-test. Lenth's algorithm AS 243 as implemented in R's `pnt` (Guenther's twin
 * series, error bound 1e-12, at most 1000 terms), including R's switch to the normal
 * approximation of Abramowitz & Stegun 26.7.10 when df > 4e5 or |ncp| > 37.62.
 * Reference: R. V. Lenth (1989), "Algorithm AS 243: Cumulative distribution function of the
 * non-central t distribution", Applied Statistics 38(1), 185–189; R `pt(t, df, ncp)`,
 * scipy `nct.cdf(t, df, ncp)`.
 * @param df > 0 (fractional allowed); ncp any finite number.
 * @throws {RangeError} for df ≤ 0 or a non-finite ncp.
 * @example noncentralTCdf(1.9723, 263, 2.8) // => 0.2042524175876 (R: pt(1.9723, 263, 2.8))
 */
export function noncentralTCdf(t: number, df: number, ncp: number): number {
  checkDf('noncentralTCdf', df);
  if (!Number.isFinite(ncp)) throw new RangeError(`noncentralTCdf: ncp must be finite (got ${ncp})`);
  if (Number.isNaN(t)) return NaN;
  if (ncp === 0) return studentTCdf(t, df);
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  let negdel: boolean;
  let tt: number;
  let del: number;
  if (t >= 0) {
    negdel = false;
    tt = t;
    del = ncp;
  } else {
    // P(T' ≤ t) ≤ P(T' ≤ 0) = Φ(−ncp): negligible for a large ncp.
    if (ncp > 40) return 0;
    negdel = true;
    tt = -t;
    del = -ncp;
  }
  if (df > 4e5 || del * del > 2 * Math.LN2 * 1021) {
    // Abramowitz & Stegun 26.7.10: T' ≈ normal with mean ncp and variance 1 + t²/(2 df).
    const s = 1 / (4 * df);
    const z = (tt * (1 - s) - del) / Math.sqrt(1 + tt * tt * 2 * s);
    const lower = normalCdf(z);
    return negdel ? 1 - lower : lower;
  }
  let x = t * t;
  x = x / (x + df);
  let tnc: number;
  if (x > 0) {
    const lambda = del * del;
    let p = 0.5 * Math.exp(-0.5 * lambda);
    if (p === 0) return negdel ? 1 : 0; // underflow: R returns R_DT_0 here
    let q = SQRT_2_OVER_PI * p * del;
    let s = 0.5 - p;
    if (s < 1e-7) s = -0.5 * Math.expm1(-0.5 * lambda);
    let a = 0.5;
    const b = 0.5 * df;
    const rxb = Math.pow(1 - x, b);
    const albeta = logBeta(0.5, b); // = log √π + log Γ(b) − log Γ(b + ½)
    let xodd = regularizedBeta(x, a, b);
    let godd = 2 * rxb * Math.exp(a * Math.log(x) - albeta);
    const bx = b * x;
    let xeven = bx < EPSILON ? bx : 1 - rxb;
    let geven = bx * rxb;
    tnc = p * xodd + q * xeven;
    for (let it = 1; it <= 1000; it++) {
      a += 1;
      xodd -= godd;
      xeven -= geven;
      godd *= (x * (a + b - 1)) / a;
      geven *= (x * (a + b - 0.5)) / (a + 0.5);
      p *= lambda / (2 * it);
      q *= lambda / (2 * it + 1);
      tnc += p * xodd + q * xeven;
      s -= p;
      if (s < -1e-10) break; // rounding has overtaken the series (R warns and stops here too)
      if (s <= 0 && it > 1) break;
      const errbd = 2 * s * (xodd - godd);
      if (Math.abs(errbd) < 1e-12) break;
    }
  } else {
    tnc = 0;
  }
  tnc += normalCdf(-del);
  tnc = Math.min(tnc, 1);
  return negdel ? 1 - tnc : tnc;
}

// ----------------------------------------------------------------------------------------------
// Chi-square

/**
 * Chi-square CDF P(X ≤ x) with df degrees of freedom: P(df/2, x/2).
 * Reference: Abramowitz & Stegun 26.4.19; R `pchisq`, scipy `chi2.cdf`.
 * @throws {RangeError} for df ≤ 0.
 * @example chiSquareCdf(3.841458820694124, 1) // => 0.95
 */
export function chiSquareCdf(x: number, df: number): number {
  checkDf('chiSquareCdf', df);
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  return regularizedGamma(df / 2, x / 2).lower;
}

/**
 * Chi-square upper tail P(X > x) = Q(df/2, x/2), computed directly so small p-values keep
 * their relative precision (1 − CDF would lose it).
 * Reference: R `pchisq(x, df, lower.tail = FALSE)`, scipy `chi2.sf`.
 * @throws {RangeError} for df ≤ 0.
 * @example chiSquareSf(3.841458820694124, 1) // => 0.05
 */
export function chiSquareSf(x: number, df: number): number {
  checkDf('chiSquareSf', df);
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  return regularizedGamma(df / 2, x / 2).upper;
}

/**
 * Chi-square quantile: the x with P(X ≤ x) = p.
 * Wilson–Hilferty start, x ≈ df·(1 − 2/(9df) + z·√(2/(9df)))³, then Newton steps on the CDF
 * (on the upper tail for p > 1/2) inside a bisection bracket, to ~1e-14 relative.
 * Reference: Wilson & Hilferty (1931); Best & Roberts, AS 91 (1975) for the method;
 * R `qchisq`, scipy `chi2.ppf`.
 * @throws {RangeError} for p outside [0, 1] or df ≤ 0.
 * @example chiSquareQuantile(0.025, 79) // => 56.3089028 (R: qchisq(0.025, 79); the point behind a pilot of 80's variance upper limit)
 */
export function chiSquareQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`chiSquareQuantile: p must be a probability in [0, 1] (got ${p})`);
  checkDf('chiSquareQuantile', df);
  if (p === 0) return 0;
  if (p === 1) return Infinity;
  const a = df / 2;
  const useUpper = p > 0.5;
  const target = useUpper ? 1 - p : p;
  // f(x) = (tail at x) − target, with the tail the one that is small.
  const tailAt = (x: number) => {
    const g = regularizedGamma(a, x / 2);
    return useUpper ? g.upper : g.lower;
  };
  const logDensity = (x: number) => (a - 1) * Math.log(x) - x / 2 - a * Math.LN2 - logGamma(a);
  let x: number;
  const z = normalQuantile(p);
  const c = 2 / (9 * df);
  x = df * (1 - c + z * Math.sqrt(c)) ** 3;
  if (!(x > 0) || !Number.isFinite(x)) {
    // Small df, lower tail: P(X ≤ x) ≈ (x/2)^a / Γ(a + 1).
    x = 2 * Math.exp((Math.log(p) + logGamma(a + 1)) / a);
  }
  let low = 0;
  let high = Infinity;
  for (let iteration = 0; iteration < 300; iteration++) {
    const f = tailAt(x) - target;
    // The lower tail rises with x, the upper falls.
    const rising = !useUpper;
    if ((f < 0) === rising) low = x;
    else high = x;
    const density = Math.exp(logDensity(x));
    const slope = rising ? density : -density;
    let next = x - f / slope;
    if (!(next > low && next < high) || !Number.isFinite(next)) next = high === Infinity ? 2 * x : (low + high) / 2;
    if (Math.abs(next - x) <= 4 * EPSILON * Math.abs(next)) {
      x = next;
      break;
    }
    x = next;
    if (Number.isFinite(high) && high - low <= 4 * EPSILON * high) break;
  }
  return x;
}
