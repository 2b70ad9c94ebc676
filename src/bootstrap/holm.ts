/** Holm step-down adjusted p-values (stub). */
export function holmAdjust(pValues: ArrayLike<number>): number[] {
  void pValues;
  throw new Error('holmAdjust: not implemented yet');
}
