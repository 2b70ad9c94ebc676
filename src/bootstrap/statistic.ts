import type { BootstrapOptions, BootstrapResult } from './types.js';

/**
 * Bootstrap interval of any statistic of the items (stub: implemented in the next commit).
 */
export function bootstrapStatistic(n: number, statistic: (indices: Int32Array) => number, options: BootstrapOptions = {}): BootstrapResult {
  void n;
  void statistic;
  void options;
  throw new Error('bootstrapStatistic: not implemented yet');
}
