/**
 * What the auto rule, the plain t interval and the gate read from paired differences d = a − b,
 * gathered in two walks instead of one walk per reader (at 10⁴ items each walk is ~10–25 µs, and the
 * continuous gate walked the items 18 times: bench/peers/speed.mjs). Every number is the one its
 * reader computed before, with the same operations in the same order, so the same bits:
 * - sum: Σ d_i in item order (sampleSkewness's, plainMoments', the gate's and autoInterval's first loop);
 * - min, max: spread(d) = max − min (chooseIntervalMethod);
 * - bounded: every a_i and b_i in [low, high] (inScoreRange(a) && inScoreRange(b), the rule's "bounded");
 * - residualSum, m2, m3 (centralSums): Σ (d_i − x̄), Σ (d_i − x̄)², Σ (d_i − x̄)³ with x̄ = sum/n
 *   (plainMoments' second loop, sampleSkewness's second loop).
 * Internal: the library's callers pass a summary only where they computed it from the same arrays.
 */
export interface DifferenceSummary {
  n: number;
  sum: number;
  min: number;
  max: number;
  /** Every a_i and b_i lies in `range`. */
  bounded: boolean;
  range: readonly [number, number];
  /** Σ (d_i − x̄), Σ (d_i − x̄)², Σ (d_i − x̄)³, x̄ = sum/n: filled by centralSums on first use. */
  central: CentralSums | null;
}

/** Σ (d_i − x̄)^k for k = 1, 2, 3, each accumulated in item order. */
export interface CentralSums {
  residualSum: number;
  m2: number;
  m3: number;
}

/**
 * The differences' sum, min and max, and whether every score lies in `range`, in one walk; with
 * `fill`, d_i = a_i − b_i is written into `d` on the way (the gate's walk), else `d` must already hold
 * exactly a − b (and is not touched: a_i − b_i is that number). The scores must be finite (the caller checked them).
 * @param a A's scores. @param b B's, the same length. @param d n entries: a − b, or filled with it.
 * @param range [low, high] the scores are checked against. @param fill write a − b into d.
 * @returns the summary (central sums not yet computed).
 * @example summarizeDifferences([1, 0.5], [0, 0.5], new Float64Array(2), [0, 1], true).sum // => 1
 */
export function summarizeDifferences(a: ArrayLike<number>, b: ArrayLike<number>, d: Float64Array, range: readonly [number, number], fill: boolean): DifferenceSummary {
  const n = d.length;
  const [low, high] = range;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let bounded = true;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    // d_i as the caller computed it (exactly a − b), so no read of d
    const di = x - y;
    if (fill) d[i] = di;
    sum += di;
    if (di < min) min = di;
    if (di > max) max = di;
    if (!(x >= low && x <= high && y >= low && y <= high)) bounded = false;
  }
  return { n, sum, min, max, bounded, range, central: null };
}

/**
 * The summary's central sums, computed on first use (one walk over the differences it summarises).
 * @param summary from summarizeDifferences on `d`. @param d the same differences.
 * @returns residualSum, m2, m3 about x̄ = sum/n.
 */
export function centralSums(summary: DifferenceSummary, d: ArrayLike<number>): CentralSums {
  if (summary.central !== null) return summary.central;
  const n = summary.n;
  const mean = summary.sum / n;
  let residualSum = 0;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < n; i++) {
    const r = d[i] - mean;
    residualSum += r;
    m2 += r * r;
    m3 += r * r * r;
  }
  summary.central = { residualSum, m2, m3 };
  return summary.central;
}
