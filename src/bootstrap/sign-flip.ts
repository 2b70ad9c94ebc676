import type { SignFlipOptions, SignFlipResult } from './types.js';

/** Paired sign-flip permutation test (stub). */
export function signFlipTest(differences: ArrayLike<number>, options: SignFlipOptions = {}): SignFlipResult {
  void differences;
  void options;
  throw new Error('signFlipTest: not implemented yet');
}
