import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateSample, allocationTargets, boundedAllocation, compareAllocations, largestRemainder, StratumRangeError } from '../../src/strata/index.js';

const none = (k: number) => Array.from({ length: k }, () => Infinity);
const zeros = (k: number) => Array.from({ length: k }, () => 0);

// The hand example: W = (.5, .3, .2), S = (.3, .5, .45), n = 200.
// W·S = (.15, .15, .09), Σ = .39, so n_h = 200·.15/.39 = 76.923…, 76.923…, 200·.09/.39 = 46.153…
const W = [0.5, 0.3, 0.2];
const S = [0.3, 0.5, 0.45];
const WS = W.map((w, h) => w * S[h]);
const three = [
  { name: 'a', traffic: 0.5 },
  { name: 'b', traffic: 0.3 },
  { name: 'c', traffic: 0.2 },
];
const sd = { a: 0.3, b: 0.5, c: 0.45 };

describe('Neyman allocation (hand-computed)', () => {
  it('splits 200 items as (76.92, 76.92, 46.15) before rounding', () => {
    const { values, bound } = boundedAllocation(WS, 200, zeros(3), none(3));
    expect(values[0]).toBeCloseTo((200 * 0.15) / 0.39, 12);
    expect(values[1]).toBeCloseTo((200 * 0.15) / 0.39, 12);
    expect(values[2]).toBeCloseTo((200 * 0.09) / 0.39, 12);
    expect(values.map((x) => Math.round(x * 100) / 100)).toEqual([76.92, 76.92, 46.15]);
    expect(bound).toEqual([null, null, null]);
  });

  it('rounds to (77, 77, 46) by largest remainder', () => {
    // floors (76, 76, 46) leave 2 items; remainders .923, .923, .154 → a and b.
    const r = allocateSample(three, { budget: 200, method: 'neyman', sd });
    expect(r.allocation.map((a) => a.n)).toEqual([77, 77, 46]);
    expect(r.total).toBe(200);
    expect(r.method).toBe('neyman');
    expect(r.warnings).toEqual([]);
  });

  it('recursive Neyman with upper bounds, two rounds', () => {
    // max (60, 80, –). Round 1: (76.92, 76.92, 46.15): a > 60 → a = 60.
    // Round 2: 140 over (.15, .09): b = 140·.15/.24 = 87.5 > 80 → b = 80. Round 3: c = 60.
    const r = boundedAllocation(WS, 200, zeros(3), [60, 80, Infinity]);
    expect(r.values[0]).toBe(60);
    expect(r.values[1]).toBe(80);
    expect(r.values[2]).toBeCloseTo(60, 12);
    expect(r.bound).toEqual(['max', 'max', null]);
  });

  it('recursive Neyman with a lower bound', () => {
    // min 70 on c: c = 46.15 < 70 → c = 70; 130 left split .15 : .15 → 65, 65.
    const r = boundedAllocation(WS, 200, [0, 0, 70], none(3));
    expect(r.values[0]).toBeCloseTo(65, 12);
    expect(r.values[1]).toBeCloseTo(65, 12);
    expect(r.values[2]).toBe(70);
    expect(r.bound).toEqual([null, null, 'min']);
  });

  it('does not fix a lower bound that stops binding once an upper bound is fixed', () => {
    // t = (1, 1, 10), n = 100, min 10 on the first, max 20 on the third. Plain Neyman gives
    // (8.33, 8.33, 83.3): the first is under its min and the third over its max. Fixing both at
    // once would give (10, 70, 20); but once the third is capped at 20, the 80 left split 1 : 1
    // gives 40 and 40, and 40 ≥ 10, so the min does not bind: the optimum is (40, 40, 20)
    // (Σ t²/n: 1/40 + 1/40 + 100/20 = 5.05 against 1/10 + 1/70 + 5 = 5.114).
    const r = boundedAllocation([1, 1, 10], 100, [10, 0, 0], [Infinity, Infinity, 20]);
    expect(r.values[0]).toBeCloseTo(40, 12);
    expect(r.values[1]).toBeCloseTo(40, 12);
    expect(r.values[2]).toBe(20);
    expect(r.bound).toEqual([null, null, 'max']);
  });

  it('applies --min / --max and a stratum\'s available count as bounds, the tighter winning', () => {
    const r = allocateSample(
      [
        { name: 'a', traffic: 0.5, available: 60 },
        { name: 'b', traffic: 0.3, max: 90 },
        { name: 'c', traffic: 0.2, min: 10 },
      ],
      { budget: 200, method: 'neyman', sd, max: 80 },
    );
    expect(r.allocation.map((a) => [a.n, a.min, a.max, a.bound])).toEqual([
      [60, 0, 60, 'max'],
      [80, 0, 80, 'max'],
      [60, 10, 80, null],
    ]);
  });
});

describe('the other methods (hand-computed)', () => {
  it('optimal: n_h ∝ W_h S_h / √c_h', () => {
    // W = (.5, .5), S = (1, 1), c = (1, 4): targets .5/1 and .5/2 = (.5, .25) → 120 items: (80, 40).
    const strata = [
      { name: 'x', traffic: 0.5, cost: 1 },
      { name: 'y', traffic: 0.5, cost: 4 },
    ];
    expect(allocationTargets(strata, 'optimal', { x: 1, y: 1 })).toEqual([0.5, 0.25]);
    expect(allocateSample(strata, { budget: 120, method: 'optimal', sd: { x: 1, y: 1 } }).allocation.map((a) => a.n)).toEqual([80, 40]);
  });

  it('proportional follows traffic; quota shares and quota counts', () => {
    expect(allocateSample(three, { budget: 200, method: 'proportional' }).allocation.map((a) => a.n)).toEqual([100, 60, 40]);
    const quotaShares = [
      { name: 'routine', traffic: 0.72, quota: 0.2 },
      { name: 'rare_clause', traffic: 0.05, quota: 0.3 },
      { name: 'past_failure', traffic: 0.03, quota: 0.25 },
      { name: 'negative_control', traffic: 0.2, quota: 0.25 },
    ];
    expect(allocateSample(quotaShares, { budget: 400 }).allocation.map((a) => a.n)).toEqual([80, 120, 100, 100]);
    const counts = quotaShares.map((s, h) => ({ ...s, quota: [80, 120, 100, 100][h] }));
    const same = allocateSample(counts, { budget: 400, method: 'quota' });
    expect(same.allocation.map((a) => a.n)).toEqual([80, 120, 100, 100]);
    expect(same.warnings).toEqual([]);
    // Counts summing to 400 with a budget of 200: halved, with a warning.
    const scaled = allocateSample(counts, { budget: 200, method: 'quota' });
    expect(scaled.allocation.map((a) => a.n)).toEqual([40, 60, 50, 50]);
    expect(scaled.warnings.join()).toMatch(/counts summing to 400, not the budget 200/);
  });

  it('breaks equal remainders in file order', () => {
    // 100 over three equal strata: 33.33 each, one item left; all remainders equal → the first.
    expect(largestRemainder([100 / 3, 100 / 3, 100 / 3], 100)).toEqual([34, 33, 33]);
    // Two items left among remainders (.5, .5, .5, .5): the first two.
    expect(largestRemainder([2.5, 2.5, 2.5, 2.5], 10)).toEqual([3, 3, 2, 2]);
    // A larger remainder wins over file order.
    expect(largestRemainder([1.2, 1.7, 2.1], 5)).toEqual([1, 2, 2]);
    // Floating noise: 46.99999999999 is 47, not 46 plus a remainder.
    expect(largestRemainder([46.99999999999, 53.00000000001], 100)).toEqual([47, 53]);
  });

  it('gives a zero-target stratum its minimum, with a warning', () => {
    const r = allocateSample(three, { budget: 100, method: 'neyman', sd: { a: 0, b: 1, c: 1 } });
    expect(r.allocation.map((a) => a.n)).toEqual([0, 60, 40]);
    expect(r.warnings.join()).toMatch(/a gets 0 items because its traffic share or pilot sd is 0.*need at least 2/);
    // Every target 0 (no stratum separates the candidates): split equally, said so.
    const flat = boundedAllocation([0, 0, 0], 9, zeros(3), none(3));
    expect(flat.values).toEqual([3, 3, 3]);
    expect(flat.warnings.join()).toMatch(/every stratum has target 0/);
  });

  it('fills zero-target strata when the others are full', () => {
    const r = boundedAllocation([0.15, 0, 0.09], 200, zeros(3), [50, Infinity, 60]);
    expect(r.values).toEqual([50, 90, 60]);
    expect(r.warnings.join()).toMatch(/remaining 90 items are split equally among strata with target 0/);
  });
});

describe('allocation errors', () => {
  it('names the stratum that lacks what the method needs', () => {
    expect(() => allocateSample([{ name: 'a', quota: 1 }], { budget: 10, method: 'proportional' })).toThrow(StratumRangeError);
    expect(() => allocateSample([{ name: 'a', quota: 1 }], { budget: 10, method: 'proportional' })).toThrow(/strata\.a: proportional allocation needs a traffic share/);
    expect(() => allocateSample(three, { budget: 10, method: 'optimal', sd })).toThrow(/strata\.a: optimal allocation needs a cost per item/);
    expect(() => allocateSample(three, { budget: 10, method: 'neyman' })).toThrow(/strata\.a: neyman allocation needs each stratum's sd/);
    expect(() => allocateSample(three, { budget: 10, method: 'neyman', sd: { a: 1, b: 1 } })).toThrow(/strata\.c: neyman allocation needs this stratum's sd/);
    expect(() => allocateSample(three, { budget: 10, method: 'neyman', sd: { a: 1, b: NaN, c: 1 } })).toThrow(/strata\.b: the pilot sd must be a finite number/);
  });

  it('says when the bounds cannot hold the budget', () => {
    expect(() => allocateSample(three, { budget: 100, method: 'proportional', min: 40 })).toThrow(/minimums add up to 120, more than the budget \(got 100\)/);
    expect(() => allocateSample(three, { budget: 100, method: 'proportional', max: 30 })).toThrow(/can take at most 90 items .*fewer than the budget \(got 100\)/);
    expect(() => allocateSample([{ name: 'a', traffic: 1, available: 5 }], { budget: 10, method: 'proportional', min: 6 })).toThrow(/strata\.a: the minimum exceeds the maximum/);
    expect(() => allocateSample(three, { budget: 0, method: 'proportional' })).toThrow(/budget must be a whole number ≥ 1 \(got 0\)/);
    expect(() => allocateSample(three, { budget: 10.5, method: 'proportional' })).toThrow(/budget must be a whole number/);
    expect(() => allocateSample([], { budget: 10 })).toThrow(/at least one stratum/);
  });
});

describe('what each allocation buys (hand-computed)', () => {
  it('gives √(Σ W² S² / n_h) per method', () => {
    // proportional (100, 60, 40): .25·.09/100 + .09·.25/60 + .04·.2025/40 = .000225 + .000375 + .0002025 = .0008025.
    // neyman (77, 77, 46): .0225/77 + .0225/77 + .0081/46.
    const r = compareAllocations(three, { budget: 200, sd });
    expect(r.compare.map((c) => c.method)).toEqual(['proportional', 'neyman']);
    expect(r.skipped.map((s) => s.method)).toEqual(['quota', 'optimal']);
    const [proportional, neyman] = r.compare;
    expect(proportional.standardError).toBeCloseTo(Math.sqrt(0.0008025), 14);
    expect(neyman.standardError).toBeCloseTo(Math.sqrt(0.0225 / 77 + 0.0225 / 77 + 0.0081 / 46), 14);
    const z = 1.959963984540054; // qnorm(0.975)
    expect(neyman.expectedHalfWidth).toBeCloseTo(z * neyman.standardError, 14);
    expect(neyman.mde).toBeCloseTo(2 * neyman.expectedHalfWidth, 14);
    expect(neyman.strata[1].halfWidth).toBeCloseTo((z * 0.5) / Math.sqrt(77), 14);
    // Neyman is the minimum-variance allocation for a fixed n: never worse than proportional.
    expect(neyman.standardError).toBeLessThan(proportional.standardError);
  });

  it('makes the cancellation argument: an agreeing stratum gets few items', () => {
    // Routine work is 72% of traffic and the candidates nearly agree there (sd 1); the rare strata
    // are where they differ (sd 20). Proportional spends 288 of 400 items on routine.
    const strata = [
      { name: 'routine', traffic: 0.72, quota: 0.2 },
      { name: 'rare_clause', traffic: 0.05, quota: 0.3 },
      { name: 'past_failure', traffic: 0.03, quota: 0.25 },
      { name: 'negative_control', traffic: 0.2, quota: 0.25 },
    ];
    const r = compareAllocations(strata, { budget: 400, sd: { routine: 1, rare_clause: 20, past_failure: 20, negative_control: 5 } });
    const by = Object.fromEntries(r.compare.map((c) => [c.method, c]));
    expect(by.proportional.allocation.map((a) => a.n)).toEqual([288, 20, 12, 80]);
    // proportional: .5184/288 + .0025·400/20 + .0009·400/12 + .04·25/80 = .0943; quota: .0284.
    expect(by.proportional.standardError ** 2).toBeCloseTo(0.5184 / 288 + 1 / 20 + 0.36 / 12 + 1 / 80, 12);
    expect(by.quota.standardError ** 2).toBeCloseTo(0.5184 / 80 + 1 / 120 + 0.36 / 100 + 1 / 100, 12);
    expect(by.quota.mde).toBeLessThan(by.proportional.mde / 1.8);
    expect(by.neyman.mde).toBeLessThanOrEqual(by.quota.mde);
  });

  it('is infinite when an allocation leaves a weighted stratum empty', () => {
    const r = compareAllocations(three, { budget: 100, sd: { a: 0, b: 1, c: 1 }, methods: ['neyman'] });
    expect(r.compare[0].expectedHalfWidth).toBe(Infinity);
    expect(r.compare[0].warnings.join()).toMatch(/neyman gives a no items: the reweighted difference cannot be estimated/);
  });
});

// ---------------------------------------------------------------- properties

/** Random strata: targets, feasible integer bounds and a budget that fits them. */
const problem = fc
  .array(
    fc.record({
      target: fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 100, noNaN: true })),
      lower: fc.integer({ min: 0, max: 30 }),
      extra: fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 200 })),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .chain((strata) => {
    const lower = strata.map((s) => s.lower);
    const upper = strata.map((s) => s.lower + s.extra);
    const minBudget = Math.max(1, lower.reduce((a, b) => a + b, 0));
    const maxBudget = Math.min(5000, upper.reduce((a, b) => a + b, 0));
    return fc.record({
      targets: fc.constant(strata.map((s) => s.target)),
      lower: fc.constant(lower),
      upper: fc.constant(upper),
      budget: maxBudget >= minBudget ? fc.integer({ min: minBudget, max: maxBudget }) : fc.constant(-1),
    });
  })
  .filter((p) => p.budget >= 1);

describe('allocation properties (fast-check)', () => {
  it('whole items sum to the budget and respect every bound', () => {
    fc.assert(
      fc.property(problem, ({ targets, lower, upper, budget }) => {
        const real = boundedAllocation(targets, budget, lower, upper);
        const n = largestRemainder(real.values, budget, lower, upper);
        expect(n.reduce((a, b) => a + b, 0)).toBe(budget);
        n.forEach((x, h) => {
          expect(Number.isInteger(x)).toBe(true);
          expect(x).toBeGreaterThanOrEqual(lower[h]);
          expect(x).toBeLessThanOrEqual(upper[h]);
          // Rounding moves no stratum by a whole item.
          expect(Math.abs(x - real.values[h])).toBeLessThan(1 + 1e-9);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('the real allocation is the recursive-Neyman fixed point', () => {
    // Free strata are proportional to their target (t_h·μ); a stratum at its min would get
    // less than it under proportional sharing, one at its max more.
    fc.assert(
      fc.property(problem, ({ targets, lower, upper, budget }) => {
        const r = boundedAllocation(targets, budget, lower, upper);
        expect(r.values.reduce((a, b) => a + b, 0)).toBeCloseTo(budget, 6);
        if (!Number.isFinite(r.scale)) return;
        r.values.forEach((x, h) => {
          if (targets[h] === 0) return;
          const share = targets[h] * r.scale;
          const tol = 1e-7 * Math.max(1, share);
          if (r.bound[h] === 'min') expect(share).toBeLessThanOrEqual(lower[h] + tol);
          else if (r.bound[h] === 'max') expect(share).toBeGreaterThanOrEqual(upper[h] - tol);
          else expect(Math.abs(x - share)).toBeLessThanOrEqual(tol);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('no feasible move of items lowers Σ t_h² / n_h (Neyman optimality under bounds)', () => {
    fc.assert(
      fc.property(problem, fc.double({ min: 1e-3, max: 1, noNaN: true }), ({ targets, lower, upper, budget }, step) => {
        if (targets.some((t) => t === 0)) return;
        const x = boundedAllocation(targets, budget, lower, upper).values;
        const cost = (v: number[]) => v.reduce((acc, n, h) => acc + (targets[h] * targets[h]) / n, 0);
        const base = cost(x);
        for (let i = 0; i < x.length; i++) {
          for (let j = 0; j < x.length; j++) {
            if (i === j || x[i] - step < lower[i] || x[j] + step > upper[j] || x[i] - step <= 0) continue;
            const moved = x.slice();
            moved[i] -= step;
            moved[j] += step;
            expect(cost(moved)).toBeGreaterThanOrEqual(base * (1 - 1e-12));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('allocateSample sums to the budget for every method', () => {
    const strataArb = fc
      .array(
        fc.record({
          traffic: fc.double({ min: 0.01, max: 1, noNaN: true }),
          quota: fc.double({ min: 0.01, max: 1, noNaN: true }),
          cost: fc.double({ min: 0.1, max: 10, noNaN: true }),
          sd: fc.double({ min: 0, max: 30, noNaN: true }),
        }),
        { minLength: 1, maxLength: 6 },
      )
      .map((rows) => {
        const tSum = rows.reduce((a, r) => a + r.traffic, 0);
        const qSum = rows.reduce((a, r) => a + r.quota, 0);
        return rows.map((r, h) => ({ name: `s${h}`, traffic: r.traffic / tSum, quota: r.quota / qSum, cost: r.cost, sd: r.sd }));
      });
    fc.assert(
      fc.property(strataArb, fc.integer({ min: 1, max: 3000 }), fc.constantFrom('quota', 'proportional', 'neyman', 'optimal' as const), (strata, budget, method) => {
        const sdByName = Object.fromEntries(strata.map((s) => [s.name, s.sd]));
        const r = allocateSample(strata, { budget, method, sd: sdByName });
        expect(r.total).toBe(budget);
        expect(r.allocation.reduce((a, s) => a + s.n, 0)).toBe(budget);
        for (const s of r.allocation) expect(s.n).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
