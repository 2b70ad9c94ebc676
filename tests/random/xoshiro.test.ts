import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRng, seedState, shuffle, streamName, Xoshiro128 } from '../../src/random/index.js';

// Outputs of the published C implementation, compiled and run by
// tests/reference/random/xoshiro128starstar.c (see the build line at its top).
const reference = JSON.parse(readFileSync(new URL('../reference/random/xoshiro128starstar.json', import.meta.url), 'utf8')) as Record<
  string,
  { state: number[]; outputs: number[] }
>;

describe('Xoshiro128', () => {
  for (const [name, { state, outputs }] of Object.entries(reference)) {
    it(`matches the reference C implementation from the ${name} state`, () => {
      const rng = new Xoshiro128(state);
      expect(Array.from({ length: outputs.length }, () => rng.nextUint32())).toEqual(outputs);
    });
  }

  it('refuses the all-zero state and a short state', () => {
    expect(() => new Xoshiro128([0, 0, 0, 0])).toThrow(RangeError);
    expect(() => new Xoshiro128([1, 2, 3])).toThrow(/4 words/);
  });

  it('gives floats in [0, 1) with mean near 1/2', () => {
    const rng = createRng(7);
    let sum = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const u = rng.nextFloat();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
    }
    // sd of the mean of n uniforms is sqrt(1/12/n) ≈ 0.00091; 5 sd ≈ 0.0046.
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(0.0046);
  });
});

describe('seeded streams', () => {
  it('gives the same sequence for the same seed and name, every time', () => {
    const draw = () => {
      const rng = createRng(42, 'stratum', 'rare_clause');
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw()).toEqual(draw());
    expect(Array.from(seedState('42'))).toEqual(Array.from(seedState(42)));
  });

  it('gives unrelated streams for different names and nearby seeds', () => {
    const first = (rng: Xoshiro128) => Array.from({ length: 4 }, () => rng.nextUint32());
    const streams = [createRng(0), createRng(1), createRng(0, 'a'), createRng(0, 'b'), createRng(0, 'chunk', 0), createRng(0, 'chunk', 1)].map(first);
    const keys = new Set(streams.map((s) => s.join(',')));
    expect(keys.size).toBe(streams.length);
  });

  it('names sub-streams seed:name', () => {
    expect(streamName(0, 'chunk', 3)).toBe('0:chunk:3');
    expect(streamName('s', 'rare')).toBe('s:rare');
  });

  it('rejects a seed that is neither a string nor a finite number', () => {
    expect(() => seedState(Number.NaN)).toThrow(TypeError);
  });
});

describe('nextInt', () => {
  it('is uniform on a small range (chi-square)', () => {
    const rng = createRng('dice');
    const counts = new Array(6).fill(0);
    const n = 60_000;
    for (let i = 0; i < n; i++) counts[rng.nextInt(6)] += 1;
    const expected = n / 6;
    const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
    // chi-square with 5 df: P(X > 20.52) = 0.001 (R: qchisq(0.999, 5) → 20.51501).
    expect(chi2).toBeLessThan(20.52);
  });

  it('has no modulo bias when n does not divide 2^32', () => {
    // n = 3·2^30: plain x % n would put [0, 2^30) twice as often as the rest, giving
    // P(value < 2^31) = 3/4 instead of 2/3.
    const n = 3 * 2 ** 30;
    const rng = createRng('bias');
    const draws = 60_000;
    let low = 0;
    for (let i = 0; i < draws; i++) {
      const x = rng.nextInt(n);
      expect(x >= 0 && x < n && Number.isInteger(x)).toBe(true);
      if (x < 2 ** 31) low += 1;
    }
    // sd of the share is sqrt((2/3)(1/3)/60000) ≈ 0.0019; 5 sd ≈ 0.0096, far below the 1/12 gap.
    expect(Math.abs(low / draws - 2 / 3)).toBeLessThan(0.0096);
  });

  it('covers 0 and n − 1 and rejects a bad n', () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(rng.nextInt(3));
    expect([...seen].sort()).toEqual([0, 1, 2]);
    expect(rng.nextInt(1)).toBe(0);
    expect(() => rng.nextInt(0)).toThrow(RangeError);
    expect(() => rng.nextInt(2.5)).toThrow(RangeError);
    expect(() => rng.nextInt(2 ** 32 + 1)).toThrow(RangeError);
  });
});

describe('shuffle', () => {
  it('permutes in place, deterministically for a seed', () => {
    const a = shuffle([1, 2, 3, 4, 5, 6, 7, 8], createRng(1));
    const b = shuffle([1, 2, 3, 4, 5, 6, 7, 8], createRng(1));
    expect(a).toEqual(b);
    expect([...a].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
