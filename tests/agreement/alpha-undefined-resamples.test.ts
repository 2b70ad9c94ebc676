import { describe, expect, it } from 'vitest';
import { krippendorffAlpha, krippendorffAlphaInterval } from '../../src/agreement/index.js';

// 30 items, 2 annotators, mostly "yes": some resamples draw only "yes" items, where alpha is 0/0.
// Before, one such resample made the whole interval undefined (review finding: 405 of 9,999).
const units: Array<Array<string>> = [];
for (let i = 0; i < 30; i++) {
  if (i < 24) units.push(['yes', 'yes']);
  else if (i < 28) units.push(['no', 'no']);
  else units.push(['yes', 'no']);
}

describe('the alpha interval on high-agreement labels', () => {
  it('leaves out the resamples where alpha is undefined, says how many, and still gives an interval', () => {
    const r = krippendorffAlphaInterval(units, { seed: 0, nResamples: 2000 });
    expect(r.alpha).toBeCloseTo(krippendorffAlpha(units).alpha, 12);
    const dropped = r.warnings.find((w) => w.includes('single label value throughout'));
    expect(dropped).toMatch(/^\d+ of 2000 resamples had a single label value throughout \(alpha undefined there\) and are left out of the interval$/);
    const [low, high] = r.confidenceInterval;
    expect(Number.isFinite(low) && Number.isFinite(high)).toBe(true);
    expect(low).toBeLessThan(r.alpha);
    expect(high).toBeGreaterThanOrEqual(r.alpha);
    expect(high).toBeLessThanOrEqual(1);
  });
});
