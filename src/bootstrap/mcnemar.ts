import type { McNemarOptions, McNemarResult } from './types.js';

/** McNemar's test on paired 0/1 outcomes (stub). */
export function mcnemarTest(a: ArrayLike<number>, b: ArrayLike<number>, options: McNemarOptions = {}): McNemarResult {
  void a;
  void b;
  void options;
  throw new Error('mcnemarTest: not implemented yet');
}

/** McNemar's test from the discordant counts (stub). */
export function mcnemarFromCounts(onlyA: number, onlyB: number, options: McNemarOptions & { concordant?: number } = {}): McNemarResult {
  void onlyA;
  void onlyB;
  void options;
  throw new Error('mcnemarFromCounts: not implemented yet');
}
