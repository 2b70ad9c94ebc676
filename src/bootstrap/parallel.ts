import type { BootstrapResult, ParallelBootstrapOptions } from './types.js';

/** Threaded bootstrapMean (stub). */
export async function bootstrapMeanParallel(x: ArrayLike<number>, options: ParallelBootstrapOptions = {}): Promise<BootstrapResult> {
  void x;
  void options;
  throw new Error('bootstrapMeanParallel: not implemented yet');
}

/** Threaded bootstrapMeanDifference (stub). */
export async function bootstrapMeanDifferenceParallel(a: ArrayLike<number>, b: ArrayLike<number>, options: ParallelBootstrapOptions = {}): Promise<BootstrapResult> {
  void a;
  void b;
  void options;
  throw new Error('bootstrapMeanDifferenceParallel: not implemented yet');
}
