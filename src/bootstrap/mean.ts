import type { BootstrapOptions, BootstrapResult } from './types.js';

/**
 * Bootstrap interval of a mean (stub: implemented in the next commit).
 */
export function bootstrapMean(x: ArrayLike<number>, options: BootstrapOptions = {}): BootstrapResult {
  void x;
  void options;
  throw new Error('bootstrapMean: not implemented yet');
}

/**
 * Paired bootstrap interval of mean(A − B) (stub: implemented in the next commit).
 */
export function bootstrapMeanDifference(a: ArrayLike<number>, b: ArrayLike<number>, options: BootstrapOptions = {}): BootstrapResult {
  void a;
  void b;
  void options;
  throw new Error('bootstrapMeanDifference: not implemented yet');
}
