/** Strata with fewer items than this are collapsed into a neighbour by `auto` (collapseSmallStrata's default). */
export const COLLAPSE_MIN_ITEMS = 3;

/** Strata after collapsing: a new index per item and, per new stratum, the original indices it holds. */
export interface CollapsedStrata {
  /** Per item its collapsed stratum (0 … K − 1, in the order of the original indices). */
  strata: Int32Array;
  /** Per collapsed stratum the original stratum indices it pools, ascending. */
  groups: number[][];
  /** Whether any stratum was merged (false: `strata` renumbers the original ones only). */
  collapsed: boolean;
}

/**
 * The collapsed-strata design: every stratum with fewer than `minItems` items is pooled with an
 * adjacent stratum (by index order) until every pooled stratum has at least `minItems` items (or
 * only one is left). Rule, deterministic: take the smallest stratum below `minItems` (ties: the
 * highest index), merge it with its smaller neighbour in index order (ties: the lower index),
 * repeat. A stratified mean with proportional weights W_h = n_h / n is unchanged by collapsing
 * (Σ_h W_h ȳ_h is the plain mean either way); its variance estimate Σ_c W_c² s_c² / n_c gains the
 * spread between the pooled strata's means, so it is conservative (never smaller in expectation),
 * and a pooled stratum of 4 items has 3 degrees of freedom where two of 2 items had 1 each.
 * This is the survey practice for strata too small to estimate their variance (Cochran 1977,
 * Sampling Techniques §5A.12 "collapsed strata"; Wolter 2007, Introduction to Variance Estimation
 * §2.5); R survey's svydesign on the collapsed stratum labels gives the same standard error.
 * @param strata per item its stratum index (any integers).
 * @param minItems the smallest stratum kept on its own; default COLLAPSE_MIN_ITEMS (3).
 * @returns strata (new per-item indices), groups (the original indices per new stratum), collapsed.
 * @throws {RangeError} when minItems is not a whole number ≥ 1.
 * @example collapseSmallStrata([0, 0, 0, 1, 1, 2, 2, 3, 3, 3]).groups // => [[0], [1, 2], [3]]
 */
export function collapseSmallStrata(strata: ArrayLike<number>, minItems: number = COLLAPSE_MIN_ITEMS): CollapsedStrata {
  if (!Number.isInteger(minItems) || minItems < 1) throw new RangeError(`minItems must be a whole number ≥ 1 (got ${String(minItems)})`);
  const counts = new Map<number, number>();
  for (let i = 0; i < strata.length; i++) counts.set(strata[i], (counts.get(strata[i]) ?? 0) + 1);
  const groups = [...counts.keys()].sort((p, q) => p - q).map((h) => ({ members: [h], size: counts.get(h) as number }));
  let collapsed = false;
  for (;;) {
    if (groups.length < 2) break;
    let pick = -1;
    for (let k = 0; k < groups.length; k++) if (groups[k].size < minItems && (pick < 0 || groups[k].size <= groups[pick].size)) pick = k;
    if (pick < 0) break;
    const left = pick - 1;
    const right = pick + 1;
    const into = left < 0 ? right : right >= groups.length ? left : groups[right].size < groups[left].size ? right : left;
    const [first, second] = into < pick ? [into, pick] : [pick, into];
    groups[first] = { members: [...groups[first].members, ...groups[second].members], size: groups[first].size + groups[second].size };
    groups.splice(second, 1);
    collapsed = true;
  }
  const newIndex = new Map<number, number>();
  groups.forEach((g, k) => g.members.forEach((h) => newIndex.set(h, k)));
  return { strata: Int32Array.from(Array.from(strata), (h) => newIndex.get(h) as number), groups: groups.map((g) => g.members), collapsed };
}
