import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/costs/index.js';
import { normalQuantile } from '../../src/distributions/index.js';
import statsmodels from '../reference/costs/wilson-statsmodels.json' with { type: 'json' };
import rReference from '../reference/costs/wilson-r.json' with { type: 'json' };

interface Case {
  successes: number;
  trials: number;
  confidenceLevel: number;
  interval: number[];
}

describe('wilsonInterval', () => {
  // statsmodels 0.13: proportion_confint(x, n, alpha=1 - level, method='wilson')
  // (tests/reference/costs/wilson.py). Largest difference seen: 1.1e-16.
  it.each(statsmodels.cases as Case[])('matches statsmodels for $successes / $trials at $confidenceLevel', (c) => {
    const result = wilsonInterval(c.successes, c.trials, { confidenceLevel: c.confidenceLevel });
    expect(result.confidenceInterval[0]).toBeCloseTo(c.interval[0], 13);
    expect(result.confidenceInterval[1]).toBeCloseTo(c.interval[1], 13);
  });

  // R 4.2: prop.test(x, n, correct = FALSE, conf.level = level)$conf.int (tests/reference/costs/wilson.R).
  it.each(rReference.cases as Case[])('matches R prop.test for $successes / $trials at $confidenceLevel', (c) => {
    const result = wilsonInterval(c.successes, c.trials, { confidenceLevel: c.confidenceLevel });
    expect(result.confidenceInterval[0]).toBeCloseTo(c.interval[0], 13);
    expect(result.confidenceInterval[1]).toBeCloseTo(c.interval[1], 13);
  });

  it('reports the largest difference from both references below 1e-14', () => {
    let worst = 0;
    for (const c of [...(statsmodels.cases as Case[]), ...(rReference.cases as Case[])]) {
      const [low, high] = wilsonInterval(c.successes, c.trials, { confidenceLevel: c.confidenceLevel }).confidenceInterval;
      worst = Math.max(worst, Math.abs(low - c.interval[0]), Math.abs(high - c.interval[1]));
    }
    expect(worst).toBeLessThan(1e-14);
  });

  it('is the JSDoc example (R prop.test(1, 11, correct = FALSE))', () => {
    const [low, high] = wilsonInterval(1, 11).confidenceInterval;
    expect(low).toBeCloseTo(0.016232172885884844, 14);
    expect(high).toBeCloseTo(0.37735843645159556, 14);
  });

  it('echoes its settings and the estimate', () => {
    const result = wilsonInterval(6, 100, { confidenceLevel: 0.9 });
    expect(result).toMatchObject({ estimate: 0.06, successes: 6, trials: 100, confidenceLevel: 0.9, warnings: [] });
  });

  it('gives NaN with a warning when there are no trials', () => {
    const result = wilsonInterval(0, 0);
    expect(result.estimate).toBeNaN();
    expect(result.confidenceInterval.every(Number.isNaN)).toBe(true);
    expect(result.warnings[0]).toMatch(/no trials/);
  });

  it('throws on counts outside their domain', () => {
    expect(() => wilsonInterval(5, 4)).toThrow(/successes must be in \[0, trials = 4\] \(got 5\)/);
    expect(() => wilsonInterval(-1, 4)).toThrow(RangeError);
    expect(() => wilsonInterval(1, Infinity)).toThrow(/trials/);
    expect(() => wilsonInterval(1, 4, { confidenceLevel: 1 })).toThrow(/confidenceLevel must be in \(0, 1\) \(got 1\)/);
  });
});

describe('normalQuantile (AS 241)', () => {
  // R: qnorm(c(0.975, 0.995, 0.5, 1e-10, 0.2)) →
  // 1.959963984540054, 2.575829303548901, 0, -6.361340902404056, -0.8416212335729143
  it.each([
    [0.975, 1.959963984540054],
    [0.995, 2.575829303548901],
    [0.5, 0],
    [1e-10, -6.361340902404056],
    [0.2, -0.8416212335729143],
  ])('qnorm(%s) = %s', (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 13);
  });

  it('is infinite at 0 and 1 and throws outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.5)).toThrow(RangeError);
  });
});
