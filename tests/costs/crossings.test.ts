import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { totalCostLines } from '../../src/costs/sweep.js';
import { lineCrossings, pairCrossing, type CostLine } from '../../src/costs/index.js';

// The bundled example in total cost units, fabrication cost f free, miss 1, wrong_span 2:
// alpha 27 misses + 14 wrong spans = 55, 6 fabrications → 55 + 6f
// beta  90 + 2 · 17 = 124, 1 fabrication                 → 124 + 1f
// gamma 83 + 2 · 26 = 135, 10 fabrications               → 135 + 10f
const example: CostLine[] = [
  { model: 'alpha', intercept: 55, slope: 6 },
  { model: 'beta', intercept: 124, slope: 1 },
  { model: 'gamma', intercept: 135, slope: 10 },
];

describe('pairCrossing', () => {
  it('solves 55 + 6f = 124 + f: f = 69/5 = 13.8, alpha cheaper below', () => {
    const pair = pairCrossing(example[0], example[1], [4, 20]);
    expect(pair).toEqual({
      models: ['alpha', 'beta'],
      relation: 'crossing',
      value: 13.8,
      fraction: '69/5',
      inDomain: true,
      inBand: true,
      cheaperBelow: 'alpha',
      cheaperAbove: 'beta',
    });
  });

  it('finds crossings at negative costs and marks them outside the domain', () => {
    // 55 + 6f = 135 + 10f → f = −80/4 = −20; 124 + f = 135 + 10f → f = −11/9.
    expect(pairCrossing(example[0], example[2], [4, 20])).toMatchObject({ value: -20, fraction: '-20', inDomain: false, cheaperAbove: 'alpha' });
    const bg = pairCrossing(example[1], example[2], [4, 20]);
    expect(bg.value).toBe(-11 / 9);
    expect(bg).toMatchObject({ fraction: '-11/9', inDomain: false, cheaperBelow: 'gamma', cheaperAbove: 'beta' });
  });

  it('tells parallel lines (never tie) from identical ones (always tie)', () => {
    const parallel = pairCrossing({ model: 'a', intercept: 1, slope: 2 }, { model: 'b', intercept: 3, slope: 2 }, [0, 1]);
    expect(parallel).toMatchObject({ relation: 'parallel', cheaperBelow: 'a', cheaperAbove: 'a', inBand: false });
    expect(parallel.value).toBeNaN();
    const identical = pairCrossing({ model: 'a', intercept: 3, slope: 2 }, { model: 'b', intercept: 3, slope: 2 }, [0, 1]);
    expect(identical).toMatchObject({ relation: 'identical', cheaperBelow: null, cheaperAbove: null });
  });

  it('gives the exact fraction of decimal inputs too (issue 13: it was null)', () => {
    // (1 − 0.5) / (1 − 0) = 1/2
    expect(pairCrossing({ model: 'a', intercept: 0.5, slope: 1 }, { model: 'b', intercept: 1, slope: 0 }, [0, 1]).fraction).toBe('1/2');
    // costs like 2.5: intercepts 15.5 and 57, slopes 20 and 1: (57 − 15.5) / 19 = 41.5 / 19 = 83/38 by hand
    expect(pairCrossing({ model: 'a', intercept: 15.5, slope: 20 }, { model: 'b', intercept: 57, slope: 1 }, [0, 5]).fraction).toBe('83/38');
    expect(pairCrossing({ model: 'a', intercept: 1, slope: 2 }, { model: 'b', intercept: 3, slope: 2 }, [0, 5]).fraction).toBeNull();
  });

  it('totalCostLines sums decimal costs exactly: 0.1 · 3 is 3/10, not 0.30000000000000004', () => {
    // a: 3 misses at 0.1, 1 wrong span at 0.2 → 1/2; slope 2 fabrications. b: 1 miss → 1/10; slope 0.
    // tie at (1/10 − 1/2) / (2 − 0) = −1/5.
    const tally = { models: ['a', 'b'], counts: [
      { hit: 0, miss: 3, fabrication: 2, wrong_span: 1, correct_absent: 0, critical_failure: 0, partial: 0 },
      { hit: 0, miss: 1, fabrication: 0, wrong_span: 0, correct_absent: 0, critical_failure: 0, partial: 0 },
    ] } as unknown as Parameters<typeof totalCostLines>[0];
    const lines = totalCostLines(tally, { miss: 0.1, wrong_span: 0.2, fabrication: 1 }, 'fabrication');
    expect(lines[0].intercept).toBe(0.1 * 3 + 0.2); // 0.5000000000000001 in doubles
    expect(lines[0].exact).toEqual({ intercept: '1/2', slope: '2' });
    expect(pairCrossing(lines[0], lines[1], [0, 1]).fraction).toBe('-1/5');
  });
});

describe('lineCrossings on the bundled example (alpha / beta flip at 13.8)', () => {
  const result = lineCrossings(example, { band: [4, 20], at: 8 });

  it('is the JSDoc example: verdict assumption', () => {
    expect(result.verdict).toBe('assumption');
  });

  it('lists only the in-domain crossing, and it is in the band', () => {
    expect(result.crossings).toEqual([{ value: 13.8, models: ['alpha', 'beta'], fraction: '69/5', cheaperBelow: 'alpha', cheaperAbove: 'beta', inBand: true }]);
    expect(result.crossingsInBand).toEqual(result.crossings);
    expect(result.pairs).toHaveLength(3);
  });

  it('ranks each interval: at f = 8, alpha 103 < beta 132 < gamma 215; at f = 20, beta 144 < alpha 175 < gamma 335', () => {
    expect(result.intervals).toEqual([
      { from: 0, to: 13.8, ranking: ['alpha', 'beta', 'gamma'], containsPolicy: true, overlapsBand: true },
      { from: 13.8, to: Infinity, ranking: ['beta', 'alpha', 'gamma'], containsPolicy: false, overlapsBand: true },
    ]);
    expect(result.ranking).toEqual(['alpha', 'beta', 'gamma']);
    expect(result.rankingHolds).toEqual([0, 13.8]);
    expect(result.holdsBeyondBand).toBeNull();
    expect(result.leadersInBand).toEqual(['alpha', 'beta']);
  });
});

describe('lineCrossings on four hand-drawn lines', () => {
  // a = 3x, b = 6 + x, c = 10, d = 2 + 2x. Crossings, solved by hand:
  //   a/d: 3x = 2 + 2x → 2;  a/b: 3x = 6 + x → 3;  a/c: 3x = 10 → 10/3;
  //   b/c: 6 + x = 10 → 4;   b/d: 6 + x = 2 + 2x → 4;  c/d: 10 = 2 + 2x → 4 (b, c, d meet at (4, 10)).
  // Rankings at a point inside each interval:
  //   x = 1:   a 3,    d 4,   b 7,   c 10   → a d b c
  //   x = 2.5: d 7,    a 7.5, b 8.5, c 10   → d a b c
  //   x = 3.2: d 8.4,  b 9.2, a 9.6, c 10   → d b a c
  //   x = 3.5: d 9,    b 9.5, c 10,  a 10.5 → d b c a
  //   x = 5:   c 10,   b 11,  d 12,  a 15   → c b d a
  const lines: CostLine[] = [
    { model: 'a', intercept: 0, slope: 3 },
    { model: 'b', intercept: 6, slope: 1 },
    { model: 'c', intercept: 10, slope: 0 },
    { model: 'd', intercept: 2, slope: 2 },
  ];

  it('finds all six crossings, by value', () => {
    const result = lineCrossings(lines, { band: [4.5, 8], at: 6 });
    expect(result.crossings.map((c) => [c.value, c.models.join('/')])).toEqual([
      [2, 'a/d'],
      [3, 'a/b'],
      [10 / 3, 'a/c'],
      [4, 'b/c'],
      [4, 'b/d'],
      [4, 'c/d'],
    ]);
    expect(result.crossings[2].fraction).toBe('10/3');
  });

  it('ranks every interval as the hand computation says', () => {
    const result = lineCrossings(lines, { band: [4.5, 8], at: 6 });
    expect(result.intervals.map((i) => [i.from, i.to, i.ranking.join('')])).toEqual([
      [0, 2, 'adbc'],
      [2, 3, 'dabc'],
      [3, 10 / 3, 'dbac'],
      [10 / 3, 4, 'dbca'],
      [4, Infinity, 'cbda'],
    ]);
  });

  it('says data when every crossing is outside the band, and how far beyond it the ranking holds', () => {
    const result = lineCrossings(lines, { band: [4.5, 8], at: 6 });
    expect(result.verdict).toBe('data');
    expect(result.crossingsInBand).toEqual([]);
    // The band's interval is [4, ∞): it holds 0.5 below the band's low end and for ever above.
    expect(result.holdsBeyondBand).toEqual([0.5, Infinity]);
    expect(result.rankingHolds).toEqual([4, Infinity]);
    expect(result.leadersInBand).toEqual(['c']);
  });

  it('counts a crossing on the band edge as inside (the pair ties there)', () => {
    const result = lineCrossings(lines, { band: [4, 8], at: 6 });
    expect(result.verdict).toBe('assumption');
    expect(result.crossingsInBand.map((c) => c.models.join('/'))).toEqual(['b/c', 'b/d', 'c/d']);
  });

  it('ranks ties at a crossing in input order, holds only at that point, and warns', () => {
    const result = lineCrossings(lines, { band: [3.5, 8], at: 4 });
    expect(result.ranking).toEqual(['b', 'c', 'd', 'a']);
    expect(result.rankingHolds).toEqual([4, 4]);
    expect(result.warnings.join('\n')).toMatch(/exactly a crossing/);
  });

  it('warns when the policy value is outside the band', () => {
    expect(lineCrossings(lines, { band: [4.5, 8], at: 1 }).warnings.join('\n')).toMatch(/outside the band/);
  });
});

describe('lineCrossings edge cases', () => {
  it('one line: no crossing, verdict data, holds for ever', () => {
    const result = lineCrossings([{ model: 'a', intercept: 1, slope: 1 }], { band: [1, 2], at: 1 });
    expect(result).toMatchObject({ verdict: 'data', ranking: ['a'], holdsBeyondBand: [1, Infinity], rankingHolds: [0, Infinity] });
  });

  it('identical lines tie everywhere, in input order, with a warning', () => {
    const result = lineCrossings(
      [
        { model: 'b', intercept: 2, slope: 1 },
        { model: 'a', intercept: 2, slope: 1 },
      ],
      { band: [1, 2], at: 1 },
    );
    expect(result.ranking).toEqual(['b', 'a']);
    expect(result.verdict).toBe('data');
    expect(result.warnings[0]).toMatch(/cost the same at every value/);
  });

  it('rejects bad lines and settings', () => {
    expect(() => lineCrossings([], { band: [0, 1], at: 0 })).toThrow(TypeError);
    expect(() => lineCrossings([{ model: 'a', intercept: 0, slope: 0 }, { model: 'a', intercept: 1, slope: 0 }], { band: [0, 1], at: 0 })).toThrow(/distinct/);
    expect(() => lineCrossings([{ model: 'a', intercept: NaN, slope: 0 }], { band: [0, 1], at: 0 })).toThrow(/finite intercept/);
    expect(() => lineCrossings([{ model: 'a', intercept: 0, slope: 0 }], { band: [2, 1], at: 0 })).toThrow(/band/);
    expect(() => lineCrossings([{ model: 'a', intercept: 0, slope: 0 }], { band: [0, 1], at: Infinity })).toThrow(/finite/);
  });
});

describe('lineCrossings properties', () => {
  const lineArb = fc.record({ intercept: fc.integer({ min: 0, max: 200 }), slope: fc.integer({ min: 0, max: 30 }) });
  const linesArb = fc.array(lineArb, { minLength: 1, maxLength: 6 }).map((ls) => ls.map((l, k) => ({ model: `m${k}`, ...l })));

  it('each interval ranking is the order of the costs at its midpoint (strictly, where lines differ)', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const result = lineCrossings(lines, { band: [4, 20], at: 8 });
        for (const interval of result.intervals) {
          const x = Number.isFinite(interval.to) ? (interval.from + interval.to) / 2 : interval.from + 1;
          const cost = new Map(lines.map((l) => [l.model, l.intercept + l.slope * x]));
          const costs = interval.ranking.map((model) => cost.get(model) as number);
          for (let k = 1; k < costs.length; k++) expect(costs[k - 1]).toBeLessThanOrEqual(costs[k]);
        }
      }),
    );
  });

  it('verdict data ⇒ one ranking over the band; a crossing strictly inside ⇒ more than one', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const result = lineCrossings(lines, { band: [4, 20], at: 8 });
        const rankings = new Set(result.intervals.filter((i) => i.from < 20 && i.to > 4).map((i) => i.ranking.join(',')));
        if (result.verdict === 'data') expect(rankings.size).toBe(1);
        if (result.crossingsInBand.some((c) => c.value > 4 && c.value < 20)) expect(rankings.size).toBeGreaterThan(1);
      }),
    );
  });

  it('adjacent intervals differ in ranking (a break is a real crossing)', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const result = lineCrossings(lines, { band: [4, 20], at: 8 });
        for (let k = 1; k < result.intervals.length; k++) expect(result.intervals[k].ranking).not.toEqual(result.intervals[k - 1].ranking);
      }),
    );
  });
});
