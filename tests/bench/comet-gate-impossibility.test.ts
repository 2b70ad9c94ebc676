import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The impossibility table of bench/comet-gate-rules.txt (issue 25): the chance a sample misses the
// Tail, and the largest power on Body any test can have with false pass ≤ 0.055, as the study wrote
// them, against scipy (tests/reference/comet-gate/no_tail.py: hypergeom.pmf(0, N, k, n) without
// replacement, (1 − k/N)^n with).
interface StudyRow { k: number; n: number; replace: boolean; noTail: number; maxPower: number }
interface RefRow { N: number; k: number; n: number; replace: boolean; noTail: number; maxPower: number }
const study = JSON.parse(readFileSync(new URL('../../bench/comet-gate-rules.impossible.json', import.meta.url), 'utf8')) as { population: { N: number }; impossibility: StudyRow[] };
const reference = JSON.parse(readFileSync(new URL('../reference/comet-gate/no_tail.json', import.meta.url), 'utf8')) as { rows: RefRow[] };

describe('COMET gate impossibility bound', () => {
  it('has one scipy row per study row, on the same N, k, n and sampling scheme', () => {
    expect(reference.rows.length).toBe(study.impossibility.length);
    expect(study.impossibility.length).toBeGreaterThan(0);
    study.impossibility.forEach((r, i) => {
      const ref = reference.rows[i];
      expect([ref.N, ref.k, ref.n, ref.replace]).toEqual([study.population.N, r.k, r.n, r.replace]);
    });
  });
  it('P(no Tail item) and the largest power on Body agree with scipy to 1e-12 (relative)', () => {
    study.impossibility.forEach((r, i) => {
      const ref = reference.rows[i];
      expect(Math.abs(r.noTail - ref.noTail)).toBeLessThanOrEqual(1e-12 * Math.max(1e-300, ref.noTail));
      expect(r.maxPower).toBeCloseTo(ref.maxPower, 12);
    });
  });
  it('a hand value: N = 1011, k = 22, n = 10 with replacement: (989/1011)^10 ≈ 0.8024', () => {
    const row = study.impossibility.find((r) => r.k === 22 && r.n === 10 && r.replace);
    expect(row).toBeDefined();
    expect(row?.noTail).toBeCloseTo((989 / 1011) ** 10, 12);
    expect(row?.noTail).toBeCloseTo(0.8024, 3);
  });
});
