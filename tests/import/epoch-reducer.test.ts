import { describe, expect, it } from 'vitest';
import { parseEpochReducer, reduceEpochs, type EpochValue } from '../../src/import/epoch-reducer.js';

const v = (...scores: number[]): EpochValue[] => scores.map((score) => ({ score, raw: `v:${score}` }));
const letters = (...ls: string[]): EpochValue[] => ls.map((l) => ({ score: ({ C: 1, I: 0, N: 0, P: 0.5 } as Record<string, number>)[l], raw: `s:${l}` }));

describe('Inspect epoch reducers', () => {
  // Inspect's tests/scorer/test_reducers.py uses these six scores: mean 3.0, median 2.5, mode 2, max 6
  // (Python: statistics.mean([6,2,2,3,2,3]) = 3, statistics.median(...) = 2.5).
  const simple = v(6, 2, 2, 3, 2, 3);
  it('mean, median, mode and max', () => {
    expect(reduceEpochs(simple, parseEpochReducer('mean'))).toBe(3);
    expect(reduceEpochs(simple, parseEpochReducer('median'))).toBe(2.5);
    expect(reduceEpochs(simple, parseEpochReducer('mode'))).toBe(2);
    expect(reduceEpochs(simple, parseEpochReducer('max'))).toBe(6);
    expect(reduceEpochs(v(1, 5, 3), parseEpochReducer('median'))).toBe(3);
  });

  it('mode counts raw values: I and N both score 0 but are different answers', () => {
    // Counter(['I','N','C','C']).most_common(1) → 'C' (2 of 4); by float it would be a 0/1 tie.
    expect(reduceEpochs(letters('I', 'N', 'C', 'C'), parseEpochReducer('mode'))).toBe(1);
    // A tie goes to the value seen first, as Counter.most_common does: C (1) before I (0).
    expect(reduceEpochs(letters('C', 'I'), parseEpochReducer('mode'))).toBe(1);
  });

  it('at_least_K: 1 when at least K epochs score ≥ 1', () => {
    expect(reduceEpochs(simple, parseEpochReducer('at_least_3'))).toBe(1); // all six are ≥ 1
    expect(reduceEpochs(letters('C', 'I', 'C'), parseEpochReducer('at_least_2'))).toBe(1);
    expect(reduceEpochs(letters('C', 'I', 'I'), parseEpochReducer('at_least(2)'))).toBe(0);
  });

  it('pass_at_K: the unbiased estimator 1 − C(n−c, K) / C(n, K)', () => {
    // n = 5, c = 3, K = 2: 1 − C(2,2)/C(5,2) = 1 − 1/10 = 0.9.
    expect(reduceEpochs(letters('C', 'C', 'C', 'I', 'I'), parseEpochReducer('pass_at_2'))).toBeCloseTo(0.9, 15);
    // n = 16, c = 1, K = 5: 1 − C(15,5)/C(16,5) = 1 − 11/16 = 5/16.
    expect(reduceEpochs(v(1, ...Array(15).fill(0)), parseEpochReducer('pass_at_5'))).toBeCloseTo(5 / 16, 15);
    // n − c < K: certain to pass. n < K: undefined (Inspect returns NaN).
    expect(reduceEpochs(v(1, 1, 0), parseEpochReducer('pass_at_2'))).toBe(1);
    expect(reduceEpochs(v(1), parseEpochReducer('pass_at_2'))).toBeNaN();
  });

  it('pass_k_K: C(c, K) / C(n, K), all K drawn epochs pass', () => {
    // n = 5, c = 3, K = 2: C(3,2)/C(5,2) = 3/10. c < K: 0. n < K: NaN.
    expect(reduceEpochs(letters('C', 'C', 'C', 'I', 'I'), parseEpochReducer('pass_k_2'))).toBeCloseTo(0.3, 15);
    expect(reduceEpochs(letters('C', 'I', 'I'), parseEpochReducer('pass_k_2'))).toBe(0);
    expect(reduceEpochs(v(1), parseEpochReducer('pass_k_2'))).toBeNaN();
  });

  it('leaves out NaN epochs (unscored) and gives NaN when none is left', () => {
    expect(reduceEpochs(v(NaN, 1, 0), parseEpochReducer('mean'))).toBe(0.5);
    expect(reduceEpochs(v(NaN), parseEpochReducer('max'))).toBeNaN();
  });

  it('refuses an unknown reducer, listing the known ones', () => {
    expect(() => parseEpochReducer('best_of')).toThrow(/--epoch-reducer: must be an Inspect epoch reducer: mean, median, mode, max, at_least_K, pass_at_K or pass_k_K \(K ≥ 1\) \(got "best_of"\)/);
    expect(() => parseEpochReducer('at_least_0')).toThrow(/must be an Inspect epoch reducer/);
  });
});
