import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itemsForPower, mdeForPower, pairedTTestPower } from '../../src/sizing/index.js';

// statsmodels: TTestPower().solve_power(effect_size=d, nobs=None, alpha, power, alternative) and a
// tight scipy.optimize.brentq on TTestPower().power (tests/reference/sizing/power.py);
// R: pwr.t.test(d=, sig.level=, power=, type="paired", alternative=)$n and a tight uniroot on
// pwr.t.test(n=, d=, ...)$power (tests/reference/sizing/power.R).
const py = JSON.parse(readFileSync(new URL('../reference/sizing/power.json', import.meta.url), 'utf8'));
const r = JSON.parse(readFileSync(new URL('../reference/sizing/power-r.json', import.meta.url), 'utf8'));

function sized(c: { effectSize: number; alpha: number; power: number; alternative: 'two-sided' | 'greater' }) {
  // v = 1, so mde = d.
  return itemsForPower({ varianceOfDifference: 1, mde: c.effectSize, confidenceLevel: 1 - c.alpha, power: c.power, alternative: c.alternative });
}

describe('itemsForPower: paired t-test sizing', () => {
  it('matches the tightly solved statsmodels and R power functions to 1e-6 in n', () => {
    for (let k = 0; k < py.cases.length; k++) {
      const got = sized(py.cases[k]).nExact;
      expect(Math.abs(got - py.cases[k].nExact), `${py.cases[k].label}: statsmodels`).toBeLessThan(1e-6);
      expect(Math.abs(got - r.cases[k].nExact), `${r.cases[k].label}: R pwr`).toBeLessThan(1e-6);
    }
  });

  it('matches statsmodels solve_power and R pwr.t.test as they print (their own root tolerances: 1e-5 and ~1e-4)', () => {
    for (let k = 0; k < py.cases.length; k++) {
      const got = sized(py.cases[k]).nExact;
      expect(Math.abs(got - py.cases[k].solvePower), py.cases[k].label).toBeLessThan(1e-5);
      expect(Math.abs(got - r.cases[k].pwrN), r.cases[k].label).toBeLessThan(2e-5);
    }
  });

  it('gives the normal approximation ((z_{α/2} + z_β)/d)² beside it (scipy norm.ppf, in power.py)', () => {
    for (const c of py.cases) expect(sized(c).nNormalExact).toBeCloseTo(c.nNormal, 9);
  });

  it('rounds up to a whole count that reaches the power (statsmodels power at ceil(n) ≥ target)', () => {
    for (const c of py.cases) {
      const s = sized(c);
      expect(s.n).toBe(Math.ceil(c.nExact));
      expect(c.powerAtCeil).toBeGreaterThanOrEqual(c.power);
    }
  });

  it('the chapter pilot: v = 428.9, mde 5 → 136.588 items for 80% power (R: pwr.t.test(d = 5/sqrt(428.9), power = .8, type = "paired")$n = 136.5882)', () => {
    const s = itemsForPower({ varianceOfDifference: 428.9, mde: 5 });
    expect(s.nExact).toBeCloseTo(136.58822733, 6);
    expect(s.n).toBe(137);
    expect(s).toMatchObject({ method: 'paired-t-power', confidenceLevel: 0.95, power: 0.8, alternative: 'two-sided', warnings: [] });
  });

  it('pairedTTestPower matches statsmodels TTestPower().power to 1e-9 and R pwr to 1e-14', () => {
    // Boost (scipy) vs AS 243 (R, ours): up to 6.8e-10 at n = 4, d = 1.5, α = 0.01, where mpmath
    // (40-digit quadrature) sides with Boost; ours equals R pwr.t.test(n = 4, d = 1.5, sig.level = 0.01)$power = 0.17150430839849073.
    for (const p of py.powerPoints) expect(Math.abs(pairedTTestPower(p.nobs, p.effectSize, p.alpha, p.alternative) - p.power)).toBeLessThan(1e-9);
    expect(pairedTTestPower(4, 1.5, 0.01)).toBeCloseTo(0.17150430839849073, 14);
  });

  it('warns when two items already reach the power, and gives 0 for a zero variance', () => {
    const big = itemsForPower({ varianceOfDifference: 1, mde: 50 });
    expect(big.nExact).toBe(2);
    expect(big.warnings[0]).toMatch(/two items already give power/);
    const flat = itemsForPower({ varianceOfDifference: 0, mde: 1 });
    expect(flat.n).toBe(0);
    expect(flat.warnings[0]).toMatch(/variance of the differences is 0/);
  });

  it.each([
    [{ varianceOfDifference: 1, mde: 0 }, 'mde must be a finite number > 0 (got 0)'],
    [{ varianceOfDifference: 1, mde: 1, power: 1 }, 'power must be in (0, 1) (got 1)'],
    [{ varianceOfDifference: 1, mde: 1, power: 0.01 }, 'power must exceed'],
    [{ varianceOfDifference: 1, mde: 1, alternative: 'less' as never }, 'alternative must be "two-sided" or "greater"'],
  ])('rejects %j', (options, message) => {
    expect(() => itemsForPower(options)).toThrow(message);
  });
});

describe('mdeForPower: the gap a budget detects', () => {
  it('matches the tightly solved statsmodels and R effect sizes to 1e-9', () => {
    for (let k = 0; k < py.budgets.length; k++) {
      const b = py.budgets[k];
      const got = mdeForPower(1, b.nobs, { confidenceLevel: 1 - b.alpha, power: b.power, alternative: b.alternative });
      expect(Math.abs(got - b.effectAtBudget), `${b.label}: statsmodels`).toBeLessThan(1e-9);
      expect(Math.abs(got - r.budgets[k].effectAtBudget), `${b.label}: R`).toBeLessThan(1e-9);
    }
  });
  it('scales with the standard deviation: 400 items at v = 428.9 detect 0.140417·√428.9 points', () => {
    expect(mdeForPower(428.9, 400)).toBeCloseTo(py.budgets[0].effectAtBudget * Math.sqrt(428.9), 8);
  });
  it('round-trips with itemsForPower', () => {
    const mde = mdeForPower(244.1, 137.25);
    expect(itemsForPower({ varianceOfDifference: 244.1, mde }).nExact).toBeCloseTo(137.25, 6);
  });
});
