/**
 * Small moment helpers shared by the judge estimators. Population (divide-by-n) moments, as
 * numpy's `np.std` / `np.var` default (ddof = 0), because ppi_py's mean interval uses them.
 */

/** Mean of a sample. @throws {RangeError} on an empty sample. @example sampleMean([1, 2, 6]) // => 3 */
export function sampleMean(x: ArrayLike<number>): number {
  if (x.length === 0) throw new RangeError('mean of an empty sample');
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

/**
 * Population variance Σ (x − x̄)² / n (numpy `np.var(x)`, ddof = 0).
 * @example populationVariance([1, 2, 6]) // => 14 / 3
 */
export function populationVariance(x: ArrayLike<number>): number {
  const m = sampleMean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) * (x[i] - m);
  return s / x.length;
}

/**
 * Population covariance Σ (x − x̄)(y − ȳ) / n.
 * @throws {RangeError} when the lengths differ.
 * @example populationCovariance([1, 2, 3], [2, 4, 6]) // => 4 / 3
 */
export function populationCovariance(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw new RangeError(`covariance needs samples of one length (got ${x.length} and ${y.length})`);
  const mx = sampleMean(x);
  const my = sampleMean(y);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - mx) * (y[i] - my);
  return s / x.length;
}
