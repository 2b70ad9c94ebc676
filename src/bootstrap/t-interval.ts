import type { TIntervalOptions, TIntervalResult } from './types.js';

/** Student t interval of a mean (stub). */
export function tInterval(x: ArrayLike<number>, options: TIntervalOptions = {}): TIntervalResult {
  void x;
  void options;
  throw new Error('tInterval: not implemented yet');
}
