import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScores, pairScores } from '../../src/data/index.js';
import {
  clusterDesign,
  defaultCurveMdes,
  itemsForPower,
  mdeForPower,
  sizeFromPilot,
  sizingCurve,
  summarizeDifferences,
  varianceInterval,
} from '../../src/sizing/index.js';

describe('the JSDoc examples of src/sizing', () => {
  it('summarizeDifferences([1, 2, 3, 4]): mean 2.5, variance (2.25 + 0.25 + 0.25 + 2.25)/3 by hand', () => {
    const s = summarizeDifferences([1, 2, 3, 4]);
    expect(s.count).toBe(4);
    expect(s.mean).toBe(2.5);
    expect(s.variance).toBeCloseTo(5 / 3, 15);
    expect(summarizeDifferences([7]).variance).toBeNaN();
  });
  it('varianceInterval(244.1462, 79) = [79·v/qchisq(0.975, 79), 79·v/qchisq(0.025, 79)]', () => {
    // R: qchisq(c(0.975, 0.025), 79) = 105.4727…, 56.3089… (scipy chi2.ppf agrees; see distributions.json)
    const [low, high] = varianceInterval(244.1462, 79);
    expect(low).toBeCloseTo(182.868, 3);
    expect(high).toBeCloseTo(342.531, 3);
  });
  it('clusterDesign([1, 1, 0, 0], [0, 0, 1, 1], 2): e = ±1, s_e² = 2, Var(d̄) = 2/16 + 1/(16·3) = 7/48, s²/N = (1/3)/4, deff = 1.75 (by hand, Miller)', () => {
    // d̄ = 0.5, residuals ±0.5, Σ_i r_i² = 1, cluster totals e = (1, −1), Σ_c e_c² = 2, N = 4.
    const d = clusterDesign([1, 1, 0, 0], [0, 0, 1, 1], 2);
    expect(d.varianceOfClusterTotals).toBe(2);
    expect(d.varianceOfMean).toBeCloseTo(7 / 48, 16);
    expect(d.designEffect).toBeCloseTo(1.75, 15);
    expect(d.effectiveVariance).toBeCloseTo(7 / 12, 15);
    // The old example, [2, 0, 0, −2]: Var(d̄) = 8/16 + 8/48 = 2/3 = s²/N, so deff = 1 under Miller's
    // convention (survey's C/(C − 1) = 2 made it 1.5).
    expect(clusterDesign([2, 0, 0, -2], [0, 0, 1, 1], 2).designEffect).toBeCloseTo(1, 15);
  });
  it('sizingCurve(428.9, mdes [2, 5]) gives the chapter counts', () => {
    expect(sizingCurve(428.9, { mde: 5, mdes: [2, 5] }).map((p) => p.n)).toEqual([1648, 264]);
    expect(defaultCurveMdes(5)).toEqual([2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10]);
  });
  it('itemsForPower(428.9, 5) = 136.588 and mdeForPower(428.9, 400) = 2.90803 (statsmodels / R values in power.json)', () => {
    expect(itemsForPower({ varianceOfDifference: 428.9, mde: 5 }).nExact).toBeCloseTo(136.58822733, 7);
    expect(mdeForPower(428.9, 400)).toBeCloseTo(2.90803, 5);
  });
  it('sizeFromPilot on examples/pilot.csv at mde 5 gives 151 (244.146·(2z/5)² = 150.06, pilot.json)', () => {
    expect(sizeFromPilot(pairScores(loadScores('examples/pilot.csv'), 'candidate', 'baseline'), { mde: 5 }).n).toBe(151);
  });
});

describe('properties', () => {
  it('the curve rises as the gap shrinks, and the upper-limit count is never below the point count', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 1000, noNaN: true }), fc.double({ min: 0.1, max: 20, noNaN: true }), (v, mde) => {
        const curve = sizingCurve(v, { mde, varianceInterval: varianceInterval(v, 79) });
        for (let k = 1; k < curve.length; k++) expect(curve[k].n).toBeLessThanOrEqual(curve[k - 1].n);
        for (const p of curve) {
          expect(p.nUpper).toBeGreaterThanOrEqual(p.n);
          expect(p.nLower).toBeLessThanOrEqual(p.n);
        }
      }),
      { numRuns: 30 },
    );
  });
  it('halving the mde multiplies the power count by ~4 (4 in the normal form; a little less with the t, by the ~z²/2 items it adds)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 0.1, max: 10, noNaN: true }), (v, mde) => {
        const wide = itemsForPower({ varianceOfDifference: v, mde });
        // The t count exceeds the normal one n0 by roughly z²/2 + 1 ≈ 2 items, so the ratio is
        // about (4·n0 + 2) / (n0 + 2): at least 3.65 from 20 items up. Below that the t correction
        // dominates (at 10 items the ratio falls to 3.36), so small counts are left out.
        fc.pre(wide.nExact >= 20);
        const narrow = itemsForPower({ varianceOfDifference: v, mde: mde / 2 });
        expect(narrow.nNormalExact / wide.nNormalExact).toBeCloseTo(4, 10);
        const ratio = narrow.nExact / wide.nExact;
        expect(ratio).toBeGreaterThan(3.65);
        expect(ratio).toBeLessThanOrEqual(4);
      }),
      { numRuns: 40 },
    );
  });
});
