import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { studentizedBootstrap, studentizedFromResamples } from '../../src/bootstrap/studentized.js';

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
