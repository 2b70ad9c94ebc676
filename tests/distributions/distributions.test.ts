import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chiSquareCdf,
  chiSquareQuantile,
  logGamma,
  noncentralTCdf,
  normalCdf,
  normalQuantile,
  regularizedBeta,
  regularizedGamma,
  studentTCdf,
  studentTQuantile,
} from '../../src/distributions/index.js';

// Expected values: tests/reference/distributions/distributions.py (scipy 1.10 `norm.ppf`, `norm.cdf`,
// `t.cdf`, `t.ppf`, `nct.cdf`, `chi2.ppf`, `chi2.cdf`, `special.gammaln`, `special.betainc`) and
// tests/reference/distributions/distributions.R (R 4.2 `qt`, `qchisq`, `pt(t, df, ncp)`).
// Tolerances are the measured agreement with a little headroom; where they are loose, the
// comment says which side is the less accurate (checked against mpmath at 40 digits while writing).
const ref = JSON.parse(readFileSync(new URL('../reference/distributions/distributions.json', import.meta.url), 'utf8'));
const refR = JSON.parse(readFileSync(new URL('../reference/distributions/distributions-r.json', import.meta.url), 'utf8'));

/** |got − want| ≤ abs + rel·|want|, with a message naming the case. */
function close(got: number, want: number, rel: number, abs: number, what: string): void {
  const error = Math.abs(got - want);
  if (!(error <= abs + rel * Math.abs(want))) throw new Error(`${what}: got ${got}, want ${want} (error ${error})`);
}

describe('normal', () => {
  it('normalQuantile matches scipy norm.ppf to 1e-15 relative', () => {
    for (const { p, value } of ref.normalQuantile) close(normalQuantile(p), value, 1e-15, 1e-300, `normalQuantile(${p})`);
  });
  it('normalCdf matches scipy norm.cdf to 5e-14 relative, also deep in the lower tail', () => {
    // Worst case Φ(−20) = 2.75362411860623e-89: ours agrees with mpmath to 1e-16, scipy is 2.8e-14 off.
    for (const { x, value } of ref.normalCdf) close(normalCdf(x), value, 5e-14, 1e-300, `normalCdf(${x})`);
  });
  it('gives the JSDoc example: Φ⁻¹(0.975) = 1.959963984540054 (scipy norm.ppf(0.975))', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 15);
  });
  it('round-trips Φ(Φ⁻¹(p)) = p', () => {
    for (const p of [1e-12, 0.01, 0.2, 0.5, 0.77, 0.999]) close(normalCdf(normalQuantile(p)), p, 1e-14, 0, `p = ${p}`);
  });
  it('handles the ends and rejects non-probabilities', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(() => normalQuantile(1.5)).toThrow('p must be a probability in [0, 1] (got 1.5)');
    expect(() => normalQuantile(NaN)).toThrow(RangeError);
  });
});

describe('Student t', () => {
  it('studentTCdf matches scipy t.cdf to 1e-12 relative, df from 1 to 1e12 (fractional df included)', () => {
    // Worst case df = 1e4, t = −3 (2.2e-13); from df = 1e5 on, Hill's normalizing transformation.
    for (const { x, df, value } of ref.studentTCdf) close(studentTCdf(x, df), value, 1e-12, 1e-300, `studentTCdf(${x}, ${df})`);
  });
  it('studentTQuantile matches R qt to 1e-13 relative, df from 1 to 1e12', () => {
    for (const { p, df, value } of refR.studentTQuantile) close(studentTQuantile(p, df), value, 1e-13, 1e-15, `studentTQuantile(${p}, ${df})`);
  });
  it('studentTQuantile matches scipy t.ppf to 1e-8 relative (scipy 1.10 stdtrit is the less accurate: 1.6e-9 off at df = 2.5, p = 0.3, where ours agrees with R qt to 1e-15)', () => {
    for (const { p, df, value } of ref.studentTQuantile) close(studentTQuantile(p, df), value, 1e-8, 1e-15, `studentTQuantile(${p}, ${df})`);
  });
  it('gives the JSDoc example: qt(0.975, 10) = 2.228138851986274 (R; scipy t.ppf gives 2.2281388519649385)', () => {
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 14);
  });
  it('tends to the normal as df grows', () => {
    expect(studentTCdf(1.3, Infinity)).toBe(normalCdf(1.3));
    expect(studentTQuantile(0.9, Infinity)).toBe(normalQuantile(0.9));
  });
  it('rejects df ≤ 0', () => {
    expect(() => studentTCdf(1, 0)).toThrow('degrees of freedom must be > 0 (got 0)');
    expect(() => studentTQuantile(0.5, -1)).toThrow(RangeError);
  });
});

describe('noncentral t', () => {
  it('noncentralTCdf matches R pt(t, df, ncp) to 5e-13 absolute (AS 243 stops at an error bound of 1e-12)', () => {
    for (const { t, df, ncp, value } of refR.noncentralTCdf) close(noncentralTCdf(t, df, ncp), value, 0, 5e-13, `noncentralTCdf(${t}, ${df}, ${ncp})`);
  });
  it('noncentralTCdf matches scipy nct.cdf to 2e-12 absolute (a different algorithm: Boost)', () => {
    for (const { t, df, ncp, value } of ref.noncentralTCdf) close(noncentralTCdf(t, df, ncp), value, 0, 2e-12, `noncentralTCdf(${t}, ${df}, ${ncp})`);
  });
  it('reduces to the central t at ncp = 0', () => {
    expect(noncentralTCdf(1.2, 7, 0)).toBe(studentTCdf(1.2, 7));
  });
});

describe('chi-square', () => {
  it('chiSquareQuantile matches scipy chi2.ppf and R qchisq to 1e-13 relative', () => {
    for (const { p, df, value } of ref.chiSquareQuantile) close(chiSquareQuantile(p, df), value, 1e-13, 1e-300, `chiSquareQuantile(${p}, ${df})`);
    for (const { p, df, value } of refR.chiSquareQuantile) close(chiSquareQuantile(p, df), value, 1e-13, 1e-300, `qchisq(${p}, ${df})`);
  });
  it('chiSquareCdf matches scipy chi2.cdf to 1e-12 relative', () => {
    // Worst case df = 1000 deep in the lower tail (5e-13): the prefactor exp(a log x − x − log Γ(a)) at a = 500.
    for (const { x, df, value } of ref.chiSquareCdf) close(chiSquareCdf(x, df), value, 1e-12, 1e-300, `chiSquareCdf(${x}, ${df})`);
  });
  it('gives the JSDoc examples', () => {
    expect(chiSquareCdf(3.841458820694124, 1)).toBeCloseTo(0.95, 14);
    expect(chiSquareQuantile(0.025, 79)).toBeCloseTo(56.309, 3);
  });
});

describe('special functions', () => {
  it('logGamma matches scipy gammaln to 1e-14 relative', () => {
    for (const { x, value } of ref.logGamma) close(logGamma(x), value, 1e-14, 1e-15, `logGamma(${x})`);
  });
  it('regularizedBeta matches scipy betainc to 1e-12 relative', () => {
    for (const { x, a, b, value } of ref.regularizedBeta) close(regularizedBeta(x, a, b), value, 1e-12, 1e-300, `regularizedBeta(${x}, ${a}, ${b})`);
  });
  it('regularizedGamma(1, x) is 1 − e^−x (the exponential CDF, by hand)', () => {
    const { lower, upper } = regularizedGamma(1, 2);
    expect(lower).toBeCloseTo(1 - Math.exp(-2), 15);
    expect(upper).toBeCloseTo(Math.exp(-2), 15);
  });
  it('rejects values outside the domain', () => {
    expect(() => logGamma(0)).toThrow('x must be a finite number > 0 (got 0)');
    expect(() => regularizedBeta(1.2, 1, 1)).toThrow('x must be in [0, 1] (got 1.2)');
    expect(() => regularizedGamma(-1, 1)).toThrow(RangeError);
  });
});

describe('the JSDoc examples', () => {
  it('repeat', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 14);
    // I_½(2, 3) = Σ_{j=2..4} C(4, j)/16 = (6 + 4 + 1)/16, by hand
    expect(regularizedBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 14);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 15);
    expect(studentTCdf(2.228138851986274, 10)).toBeCloseTo(0.975, 14);
    expect(noncentralTCdf(1.9723, 263, 2.8)).toBeCloseTo(0.2042524175876, 12);
    expect(chiSquareQuantile(0.025, 79)).toBeCloseTo(56.3089028, 6);
  });
});
