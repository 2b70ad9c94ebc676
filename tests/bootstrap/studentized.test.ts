import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rescaledStratumValues, studentizedBootstrap, studentizedFromResamples } from '../../src/bootstrap/studentized.js';

// Reference: tests/reference/skewed-intervals/studentized_reference.R (R 4.2, boot, survey) →
// studentized.json: boot.ci(type = "stud") on recorded resamples, and svymean's stratified SE.
interface Case {
  name: string;
  values: number[];
  strata: number[] | null;
  confidenceLevel: number;
  estimate: number;
  standardError: number;
  estimates: number[];
  standardErrors: number[];
  interval: [number, number];
}
const reference = JSON.parse(readFileSync(new URL('../reference/skewed-intervals/studentized.json', import.meta.url), 'utf8')) as {
  cases: Case[];
  svymean: { values: number[]; strata: number[]; estimate: number; standardError: number };
};

describe('studentizedFromResamples against R boot.ci(type = "stud") on the same resamples', () => {
  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ci = studentizedFromResamples(c.estimate, c.standardError, c.estimates, c.standardErrors, c.confidenceLevel, 'two-sided', 'boot');
    // JSON carries R's doubles at full precision (digits = NA): agreement to rounding.
    expect(ci[0]).toBeCloseTo(c.interval[0], 10);
    expect(ci[1]).toBeCloseTo(c.interval[1], 10);
  });

  it("the data's own estimate and SE are R's t0 (stratified: W_h = n_h / n)", () => {
    for (const c of reference.cases) {
      const r = studentizedBootstrap(c.values, { strata: c.strata, nResamples: 99 });
      expect(r.estimate).toBeCloseTo(c.estimate, 12);
      expect(r.standardError).toBeCloseTo(c.standardError, 12);
    }
  });
});

describe('studentizedBootstrap', () => {
  it('stratified SE is R survey svymean on a stratified design', () => {
    const s = reference.svymean;
    const r = studentizedBootstrap(s.values, { strata: s.strata, nResamples: 99 });
    expect(r.estimate).toBeCloseTo(s.estimate, 12);
    expect(r.standardError).toBeCloseTo(s.standardError, 12);
  });

  it('same seed, same bytes; one stratum is the unstratified bootstrap', () => {
    const x = reference.cases[0].values;
    const a = studentizedBootstrap(x, { seed: 7, nResamples: 499 });
    expect(studentizedBootstrap(x, { seed: 7, nResamples: 499 })).toEqual(a);
    expect(studentizedBootstrap(x, { seed: 7, nResamples: 499, strata: x.map(() => 0) }).confidenceInterval).toEqual(a.confidenceInterval);
    expect(studentizedBootstrap(x, { seed: 8, nResamples: 499 }).confidenceInterval).not.toEqual(a.confidenceInterval);
  });

  it('follows the skew: a long right tail gives a longer upper arm than lower arm', () => {
    const r = studentizedBootstrap(reference.cases[0].values, { nResamples: 1999 });
    const [low, high] = r.confidenceInterval;
    expect(high - r.estimate).toBeGreaterThan(r.estimate - low);
  });

  it('one-sided: one end infinite; a zero-SE resample counts as ±∞, not dropped', () => {
    const r = studentizedBootstrap([0.1, 0.4, 0.2, 2.5, 0.3, 0.2], { alternative: 'greater', nResamples: 999 });
    expect(r.confidenceInterval[1]).toBe(Infinity);
    expect(r.confidenceInterval[0]).toBeLessThan(r.estimate);
    // Hand check of the limit rule: t* = (θ* − θ̂)/se* with se* = 0 → sign · ∞.
    expect(studentizedFromResamples(0, 1, [1, -1, 0], [0, 0, 0], 0.5, 'two-sided')).toEqual([-Infinity, Infinity]);
  });

  it('rejects bad input', () => {
    expect(() => studentizedBootstrap([1])).toThrow(/at least two/);
    expect(() => studentizedBootstrap([1, 2], { strata: [0] })).toThrow(/one entry per value/);
    expect(() => studentizedBootstrap([1, 2], { nResamples: 0 })).toThrow(/nResamples/);
  });
});

// Reference: tests/reference/strata-rescale/rescale_reference.R (R 4.2, survey) → rescale.json: the
// values rescaled per stratum by √(n_h/(n_h − 1)) about their mean (R checks mean unchanged and
// variance with divisor n_h = var(y_h)), and svymean's SE of the original and the rescaled values.
const rescale = JSON.parse(readFileSync(new URL('../reference/strata-rescale/rescale.json', import.meta.url), 'utf8')) as {
  values: number[];
  strata: number[];
  rescaled: number[];
  estimate: number;
  standardError: number;
  standardErrorRescaled: number;
};

describe('the rescaled stratified studentized bootstrap (rescale)', () => {
  it('rescaledStratumValues is the R computation, stratum by stratum', () => {
    for (const h of [0, 1, 2, 3]) {
      const idx = rescale.strata.flatMap((k, i) => (k === h ? [i] : []));
      const got = rescaledStratumValues(idx.map((i) => rescale.values[i]));
      idx.forEach((i, j) => expect(got[j]).toBeCloseTo(rescale.rescaled[i], 12));
    }
    // hand: [0, 2] has mean 1 and s² = 2; 1 ∓ √2 has variance (with divisor 2) 2
    const two = rescaledStratumValues([0, 2]);
    expect(two[0]).toBeCloseTo(1 - Math.SQRT2, 14);
    expect(two[1]).toBeCloseTo(1 + Math.SQRT2, 14);
    expect(Array.from(rescaledStratumValues([5]))).toEqual([5]);
  });

  it("keeps the data's estimate and SE (R svymean), and is the plain bootstrap on the rescaled values restudentized by that SE", () => {
    const options = { strata: rescale.strata, nResamples: 999, seed: 11 };
    const r = studentizedBootstrap(rescale.values, { ...options, rescale: true });
    expect(r.estimate).toBeCloseTo(rescale.estimate, 12);
    expect(r.standardError).toBeCloseTo(rescale.standardError, 12);
    // Same draws from the same pools give the same t*; only the outer SE differs:
    // (end − θ̂)/se(y) = (end on y~ − θ̂)/se(y~), se(y~) being R's svymean on y~.
    const onRescaled = studentizedBootstrap(rescale.rescaled, options);
    expect(onRescaled.standardError).toBeCloseTo(rescale.standardErrorRescaled, 12);
    for (const k of [0, 1]) {
      const expected = rescale.estimate + ((onRescaled.confidenceInterval[k] - rescale.estimate) * rescale.standardError) / rescale.standardErrorRescaled;
      expect(r.confidenceInterval[k]).toBeCloseTo(expected, 9);
    }
    // and it differs from the plain (named --method studentized) interval, which is unchanged by the option's existence
    const plain = studentizedBootstrap(rescale.values, options);
    expect(plain.confidenceInterval).not.toEqual(r.confidenceInterval);
    expect(studentizedBootstrap(rescale.values, { ...options, rescale: false })).toEqual(plain);
  });

  it('one stratum: t* is scale-free, so rescaling leaves the interval as it was', () => {
    const x = reference.cases[0].values;
    const plain = studentizedBootstrap(x, { seed: 5, nResamples: 499 });
    const scaled = studentizedBootstrap(x, { seed: 5, nResamples: 499, rescale: true });
    expect(scaled.confidenceInterval[0]).toBeCloseTo(plain.confidenceInterval[0], 10);
    expect(scaled.confidenceInterval[1]).toBeCloseTo(plain.confidenceInterval[1], 10);
  });
});
