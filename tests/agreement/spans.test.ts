import { describe, expect, it } from 'vitest';
import { spanAgreement, spanOverlap } from '../../src/agreement/index.js';

describe('spanOverlap', () => {
  it('is shared characters over characters either covers', () => {
    // The operative sentence [0, 100) against it plus a 50-character definition: 100 / 150.
    expect(spanOverlap({ start: 0, end: 100 }, { start: 0, end: 150 })).toBe(100 / 150);
    expect(spanOverlap({ start: 0, end: 10 }, { start: 5, end: 15 })).toBe(5 / 15);
    expect(spanOverlap({ start: 0, end: 10 }, { start: 10, end: 20 })).toBe(0);
    expect(spanOverlap({ start: 3, end: 3 }, { start: 3, end: 3 })).toBe(1);
    expect(spanOverlap({ start: 3, end: 3 }, { start: 4, end: 4 })).toBe(0);
  });
});

describe('spanAgreement', () => {
  it('counts exact and overlap agreement over pairs of annotators', () => {
    const spans = [
      [{ start: 0, end: 100 }, { start: 0, end: 100 }, { start: 0, end: 150 }], // pairs: exact, 0.667, 0.667
      [{ start: 10, end: 20 }, null, { start: 30, end: 40 }], // one pair: overlap 0
      [null, { start: 5, end: 6 }, null], // no pair
    ];
    const r = spanAgreement(spans, { overlapThreshold: 0.6 });
    expect(r.pairs).toBe(4);
    expect(r.items).toBe(2);
    expect(r.exactAgreement).toBe(1 / 4);
    expect(r.overlapAgreement).toBe(3 / 4);
    expect(r.meanOverlap).toBeCloseTo((1 + 2 / 3 + 2 / 3 + 0) / 4, 15);
    expect(spanAgreement(spans, { overlapThreshold: 0.7 }).overlapAgreement).toBe(1 / 4);
  });

  it('repeats its JSDoc example and defaults to 0.5', () => {
    const r = spanAgreement([[{ start: 0, end: 10 }, { start: 0, end: 12 }]]);
    expect(r.overlapAgreement).toBe(1);
    expect(r.exactAgreement).toBe(0);
    expect(r.overlapThreshold).toBe(0.5);
  });

  it('is NaN with a warning without pairs, and rejects a bad threshold', () => {
    const r = spanAgreement([[{ start: 0, end: 1 }, null]]);
    expect(r.exactAgreement).toBeNaN();
    expect(r.warnings.join()).toMatch(/no item has spans from two annotators/);
    expect(() => spanAgreement([], { overlapThreshold: 0 })).toThrow(/overlapThreshold/);
    expect(() => spanAgreement([], { overlapThreshold: 1.5 })).toThrow(/overlapThreshold/);
  });
});
