import { describe, expect, it } from 'vitest';
import { mcnemarFromCounts } from '../../src/paired/index.js';
import r from '../reference/ties/r.json' with { type: 'json' };
import statsmodels from '../reference/ties/statsmodels.json' with { type: 'json' };

/**
 * McNemar's continuity-corrected chi-square when b = c. The references disagree
 * (tests/reference/ties/ties.R and ties.py):
 *   R     mcnemar.test(matrix(c(40, 7, 7, 25), 2))$statistic  → 0, p = 1 (corrects only an asymmetric table)
 *   statsmodels mcnemar([[40, 7], [7, 25]], exact=False, correction=True).statistic → (0 − 1)²/14 = 1/14
 * benchplan follows R; both references are pinned here so the choice stays deliberate.
 */
describe('McNemar chi-square with b = c', () => {
  it('matches R mcnemar.test on every table, ties included', () => {
    for (const c of r.mcnemar) {
      const got = mcnemarFromCounts(c.onlyA, c.onlyB);
      expect(got.chiSquare).toBe(c.chiSquare);
      expect(Math.abs(got.chiSquarePValue - c.chiSquarePValue)).toBeLessThan(1e-15);
    }
  });

  it('differs from statsmodels exactly where b = c, by statsmodels\' 1/(b + c)', () => {
    for (const c of statsmodels.mcnemar) {
      const got = mcnemarFromCounts(c.onlyA, c.onlyB);
      if (c.onlyA === c.onlyB) {
        expect(c.chiSquare).toBeCloseTo(1 / (c.onlyA + c.onlyB), 15);
        expect(got.chiSquare).toBe(0);
        expect(got.chiSquarePValue).toBe(1);
      } else {
        expect(Math.abs(got.chiSquare - c.chiSquare)).toBeLessThan(1e-15);
      }
    }
  });

  it('without correction b = c gives 0 in both conventions', () => {
    expect(mcnemarFromCounts(7, 7, { correction: false }).chiSquare).toBe(0);
  });
});
