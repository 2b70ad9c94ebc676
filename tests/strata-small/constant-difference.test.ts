import { describe, expect, it } from 'vitest';
import { autoPairedInterval } from '../../src/paired/auto-interval.js';
import { compareModels } from '../../src/paired/compare-models.js';

// Issue 25 item 3: a constant difference on continuous scores gave the point interval [0.1, 0.1],
// printed as a result ("distinguishable").
const a = Array.from({ length: 12 }, (_, i) => 0.2 + (i % 5) / 10);
const b = a.map((x) => x - 0.1);

describe('a constant difference (continuous scores)', () => {
  it('auto gives no interval and says why, never [0.1, 0.1]', () => {
    const r = autoPairedInterval(a, b);
    expect(r.methodUsed).toBe('t');
    expect(r.confidenceInterval.every(Number.isNaN)).toBe(true);
    expect(r.noInterval).toMatch(/every difference is the same \(0\.1 on average\), so these 12 items show no variation/);
    expect(r.warnings.join(' ')).toMatch(/cannot support an interval/);
  });
  it('compareModels carries it to the pair: not distinguishable, not excluding 0', () => {
    const r = compareModels({ models: ['A', 'B'], items: a.map((_, i) => `i${i}`), scores: [a, b], stratum: null, strata: [], cluster: null, clusters: [], dropped: 0 } as never, { method: 'auto' });
    expect(r.pairs[0].auto?.noInterval).toMatch(/every difference is the same/);
    expect(r.pairs[0].excludesZero).toBe(false);
    expect(r.pairs[0].distinguishable).toBe(false);
  });
  it('a difference that varies a little still gets an interval', () => {
    const c = b.map((x, i) => (i === 0 ? x + 0.01 : x));
    expect(autoPairedInterval(a, c).noInterval).toBeNull();
  });
});
