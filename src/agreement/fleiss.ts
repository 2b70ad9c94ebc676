import type { LabelMatrix } from './labels.js';

/** Fleiss' kappa for a fixed number of raters per item. */
export interface FleissKappaResult {
  /** κ = (P̄ − P̄_e) / (1 − P̄_e); NaN when undefined (no items, or one category only). */
  kappa: number;
  /** Items used (rated by every rater). */
  items: number;
  /** Raters per item. */
  raters: number;
  /** Categories seen. */
  categories: number;
  /** P̄: mean over items of the share of agreeing rater pairs. */
  observedAgreement: number;
  /** P̄_e = Σ_j p_j², p_j the share of all ratings in category j. */
  expectedAgreement: number;
  /** Items left out because a rater's label was missing (only from `fleissKappa`). */
  droppedItems: number;
  warnings: string[];
}

/**
 * Fleiss' kappa from a table of counts: one row per item, one column per category, each row
 * summing to the same number of raters r ≥ 2.
 * P_i = (Σ_j n_ij² − r) / (r (r − 1)), P̄ = mean P_i, p_j = Σ_i n_ij / (N r), P̄_e = Σ_j p_j²,
 * κ = (P̄ − P̄_e) / (1 − P̄_e).
 * Reference: Fleiss (1971), "Measuring nominal scale agreement among many raters",
 * Psychological Bulletin 76:378–382; Python `statsmodels.stats.inter_rater.fleiss_kappa(table)`.
 * @param counts items × categories, whole numbers ≥ 0.
 * @throws {RangeError} when rows sum to different totals, a total is below 2, or a count is not a whole number ≥ 0.
 * Cost: O(items × categories).
 * @example fleissKappaFromCounts([[2, 0], [0, 2], [1, 1]]).kappa // => 0.333… (P̄ = 2/3, P̄_e = 1/2)
 */
export function fleissKappaFromCounts(counts: ReadonlyArray<ArrayLike<number>>, droppedItems = 0): FleissKappaResult {
  const warnings: string[] = [];
  const items = counts.length;
  const k = items > 0 ? counts[0].length : 0;
  let raters = -1;
  const totals = new Float64Array(k);
  let sumP = 0;
  for (let i = 0; i < items; i++) {
    const row = counts[i];
    if (row.length !== k) throw new RangeError(`fleissKappaFromCounts: row ${i} has ${row.length} categories, row 0 has ${k}`);
    let r = 0;
    let squares = 0;
    for (let j = 0; j < k; j++) {
      const x = row[j];
      if (!(Number.isInteger(x) && x >= 0)) throw new RangeError(`fleissKappaFromCounts: counts must be whole numbers ≥ 0 (got ${x} in row ${i})`);
      r += x;
      squares += x * x;
      totals[j] += x;
    }
    if (raters === -1) raters = r;
    if (r !== raters) throw new RangeError(`fleissKappaFromCounts: every item needs the same number of raters (row 0 has ${raters}, row ${i} has ${r})`);
    if (r < 2) throw new RangeError(`fleissKappaFromCounts: each item needs at least 2 raters (got ${r})`);
    sumP += (squares - r) / (r * (r - 1));
  }
  const categories = Array.from(totals).filter((t) => t > 0).length;
  if (items === 0) {
    warnings.push('no item has a label from every annotator: Fleiss\' kappa is undefined');
    return { kappa: NaN, items, raters: Math.max(0, raters), categories, observedAgreement: NaN, expectedAgreement: NaN, droppedItems, warnings };
  }
  const observedAgreement = sumP / items;
  let expectedAgreement = 0;
  for (let j = 0; j < k; j++) expectedAgreement += (totals[j] / (items * raters)) ** 2;
  if (!(expectedAgreement < 1)) {
    warnings.push('every rating is the same category: Fleiss\' kappa is undefined (no variation to agree on)');
    return { kappa: NaN, items, raters, categories, observedAgreement, expectedAgreement, droppedItems, warnings };
  }
  return { kappa: (observedAgreement - expectedAgreement) / (1 - expectedAgreement), items, raters, categories, observedAgreement, expectedAgreement, droppedItems, warnings };
}

/**
 * Fleiss' kappa from labels: items × raters, on the items every rater labelled (Fleiss' kappa
 * assumes the same number of ratings per item; an item with a missing label is left out and
 * counted in `droppedItems`). With two raters it equals Scott's pi.
 * See `fleissKappaFromCounts` for the formula and reference.
 * @param labels items × raters, null = missing; at least 2 raters (columns).
 * @throws {RangeError} with fewer than 2 raters.
 * @example fleissKappa([['a', 'a'], ['b', 'b'], ['a', 'b']]).kappa // => 0.333…
 */
export function fleissKappa(labels: LabelMatrix): FleissKappaResult {
  const raters = labels.length > 0 ? labels[0].length : 0;
  if (labels.some((row) => row.length !== raters)) throw new RangeError('fleissKappa: every item needs one column per rater');
  if (labels.length > 0 && raters < 2) throw new RangeError(`fleissKappa needs at least 2 raters (got ${raters})`);
  const complete = labels.filter((row) => row.every((label) => label !== null));
  const categories = [...new Set(complete.flat() as string[])].sort();
  const index = new Map(categories.map((label, j) => [label, j]));
  const counts = complete.map((row) => {
    const counts = new Array<number>(categories.length).fill(0);
    for (const label of row) counts[index.get(label as string) as number] += 1;
    return counts;
  });
  const result = fleissKappaFromCounts(counts, labels.length - complete.length);
  if (result.raters === 0) result.raters = raters;
  if (result.droppedItems > 0 && complete.length > 0) {
    result.warnings.push(`Fleiss' kappa uses the ${complete.length} items every annotator labelled; ${result.droppedItems} with a missing label left out`);
  }
  return result;
}
