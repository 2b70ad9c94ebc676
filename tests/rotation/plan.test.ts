import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildVersionRecord } from '../../src/rotation/archive.js';
import { planRotation, type RotationCandidate } from '../../src/rotation/plan.js';
import { item } from './helpers.js';

/** A version with `n` eval items in each stratum, added in quarters Q1..Q4 by index, and one dev item. */
function version(strata: Record<string, number>) {
  const items = Object.entries(strata).flatMap(([s, n]) => [
    ...Array.from({ length: n }, (_, k) => item(`${s}-${String(k).padStart(2, '0')}`, s, `${s} item ${k}`, { added: `2026Q${1 + (k % 4)}` })),
    item(`${s}-dev`, s, `${s} dev item`, { split: 'dev' }),
  ]);
  return buildVersionRecord(items, { version: 'v1', date: '2026-07-01' });
}

function incidents(strata: Record<string, number>, added = '2026Q4'): RotationCandidate[] {
  return Object.entries(strata).flatMap(([s, n]) => Array.from({ length: n }, (_, k) => ({ item: `inc-${s}-${k}`, stratum: s, added })));
}

describe('planRotation', () => {
  it('retires round(fraction × eval items) and keeps every stratum\'s count', () => {
    const from = version({ routine: 20, rare: 20, past: 20, negative: 20 });
    const plan = planRotation(from, incidents({ routine: 10, rare: 10, past: 10, negative: 10 }), { fraction: 0.2, seed: 0 });
    expect(plan.target).toBe(16);
    expect(plan.retire).toHaveLength(16);
    expect(plan.add).toHaveLength(16);
    expect(plan.keep).toBe(64);
    for (const s of plan.strata) {
      expect(s.after).toBe(s.before);
      expect(s.added).toBe(s.retired);
      expect(plan.retire.filter((x) => x.stratum === s.stratum)).toHaveLength(s.retired);
      expect(plan.add.filter((x) => x.stratum === s.stratum)).toHaveLength(s.added);
    }
    expect(plan.warnings).toEqual([]);
    // Round half away from zero as Math.round: 0.25 × 10 = 2.5 → 3.
    expect(planRotation(version({ a: 10 }), incidents({ a: 5 }), { fraction: 0.25 }).target).toBe(3);
  });

  it('retires saturated items first, then items leaked into dev, then the oldest', () => {
    const from = version({ routine: 10, rare: 10 });
    const plan = planRotation(from, incidents({ routine: 10, rare: 10 }), {
      fraction: 0.35, // 7 of 20
      saturated: ['routine-05', 'routine-06', 'rare-09'],
      leaked: ['rare-03', 'routine-06'], // routine-06 is both: counted as saturated
      seed: 1,
    });
    expect(plan.retire.slice(0, 3).map((x) => `${x.item}:${x.reason}`).sort()).toEqual(['rare-09:saturated', 'routine-05:saturated', 'routine-06:saturated']);
    expect(plan.retire[3]).toMatchObject({ item: 'rare-03', reason: 'leaked' });
    const oldest = plan.retire.slice(4);
    expect(oldest.every((x) => x.reason === 'oldest' && x.added === '2026Q1')).toBe(true);
    expect(oldest).toHaveLength(3);
    // Within a class, older first: saturated routine-05 (Q2) and rare-09 (Q2) before routine-06 (Q3).
    expect(plan.retire[2].item).toBe('routine-06');
  });

  it('treats a missing `added` as oldest', () => {
    const items = [item('a', 's', 'a', { added: '2026Q1' }), item('b', 's', 'b'), item('c', 's', 'c', { added: '2025Q4' })];
    const plan = planRotation(buildVersionRecord(items, { version: 'v', date: '2026-07-01' }), incidents({ s: 3 }), { fraction: 2 / 3 });
    expect(plan.retire.map((x) => x.item)).toEqual(['b', 'c']);
  });

  it('breaks ties with the seed: same seed, same plan, whatever the order of the incidents', () => {
    const from = version({ routine: 20, rare: 20 });
    const log = incidents({ routine: 8, rare: 8 });
    const a = planRotation(from, log, { fraction: 0.2, seed: 7 });
    const b = planRotation(from, [...log].reverse(), { fraction: 0.2, seed: 7 });
    expect(b).toEqual(a);
    const others = [1, 2, 3, 4, 5].map((seed) => planRotation(from, log, { fraction: 0.2, seed }).retire.map((x) => x.item).join());
    expect(new Set([a.retire.map((x) => x.item).join(), ...others]).size).toBeGreaterThan(1);
    expect(a.seed).toBe('7');
  });

  it('uses the newest incidents first', () => {
    const from = version({ s: 10 });
    const log: RotationCandidate[] = [
      { item: 'old', stratum: 's', added: '2026Q1' },
      { item: 'new', stratum: 's', added: '2026Q4' },
      { item: 'mid', stratum: 's', added: '2026Q3' },
      { item: 'undated', stratum: 's' },
    ];
    expect(planRotation(from, log, { fraction: 0.2 }).add.map((x) => x.item)).toEqual(['new', 'mid']);
    expect(planRotation(from, log, { fraction: 0.4 }).add.map((x) => x.item)).toEqual(['new', 'mid', 'old', 'undated']);
  });

  it('says when the incidents log runs short, and keeps the count by keeping the lowest-priority items', () => {
    const from = version({ routine: 10, rare: 10 });
    const plan = planRotation(from, incidents({ routine: 5, rare: 1 }), { fraction: 0.3, saturated: ['rare-00', 'rare-01', 'rare-02', 'rare-03'], seed: 0 });
    // 6 to retire: the 4 saturated rare items first, then the 2 oldest (one a stratum, or both in one).
    const rare = plan.strata.find((s) => s.stratum === 'rare');
    expect(rare).toMatchObject({ before: 10, after: 10, retired: 1, added: 1 });
    expect(rare?.shortBy).toBeGreaterThanOrEqual(3);
    expect(plan.retire.filter((x) => x.stratum === 'rare')).toEqual([{ item: 'rare-00', stratum: 'rare', reason: 'saturated', added: '2026Q1' }]);
    expect(plan.warnings[0]).toMatch(/^the incidents log runs short in stratum "rare": 1 usable incident for \d retirements; \d items due to retire are kept \(rare-01, rare-02, rare-03/);
    expect(plan.keep).toBe(20 - plan.retire.length);
  });

  it('skips incidents it must not use, and says why', () => {
    const from = version({ s: 10 });
    const log: RotationCandidate[] = [
      { item: 's-03', stratum: 's' },
      { item: 'x', stratum: 's' },
      { item: 'x', stratum: 's' },
      { item: 'y', stratum: 's' },
      { item: 'z', stratum: 'elsewhere' },
    ];
    const plan = planRotation(from, log, { fraction: 0.1, excluded: new Map([['y', 'copies dev item s-dev']]) });
    expect(plan.skipped).toEqual([
      { item: 's-03', stratum: 's', reason: 'id already in version v1' },
      { item: 'x', stratum: 's', reason: 'appears twice in the incidents log' },
      { item: 'y', stratum: 's', reason: 'copies dev item s-dev' },
    ]);
    expect(plan.add).toEqual([{ item: 'x', stratum: 's' }]);
    expect(plan.warnings).toEqual(['incidents in strata the version does not have were not used: elsewhere']);
  });

  it('refuses a fraction outside [0, 1]', () => {
    expect(() => planRotation(version({ s: 3 }), [], { fraction: 1.2 })).toThrow(/fraction must be in \[0, 1\] \(got 1.2\)/);
  });

  it('keeps every stratum count and never retires more than the target (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 1, max: 15 }), { minKeys: 1 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'e'), fc.integer({ min: 0, max: 6 })),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
        (strata, log, fraction, seed) => {
          const from = version(strata);
          const plan = planRotation(from, incidents(log), { fraction, seed });
          const evalCount = Object.values(strata).reduce((t, n) => t + n, 0);
          expect(plan.target).toBe(Math.round(fraction * evalCount));
          expect(plan.retire.length).toBeLessThanOrEqual(plan.target);
          expect(plan.retire.length).toBe(plan.add.length);
          expect(new Set(plan.retire.map((x) => x.item)).size).toBe(plan.retire.length);
          for (const s of plan.strata) {
            expect(s.after).toBe(strata[s.stratum]);
            expect(plan.add.filter((x) => x.stratum === s.stratum).length).toBe(plan.retire.filter((x) => x.stratum === s.stratum).length);
          }
          expect(plan.retire.length + plan.strata.reduce((t, s) => t + s.shortBy, 0)).toBe(plan.target);
        },
      ),
    );
  });
});
