/**
 * The resampling design: what one bootstrap resample draws. Items are grouped into units (clusters,
 * or single items) and units into groups (strata, or one group); a resample draws, within each
 * group, as many units as the group has, with replacement. Typed arrays (and the group labels, plain
 * strings), so a design can be posted to a worker thread as is.
 */
export interface ResampleDesign {
  /** Items. */
  n: number;
  /** Units (clusters, or items when not clustered). */
  nUnits: number;
  /** Per unit: its items, CSR style: items unitItems[unitStart[u] … unitStart[u + 1]). */
  unitStart: Int32Array;
  unitItems: Int32Array;
  /** Per unit: the number of its items, as a double for the hot loop. */
  unitCount: Float64Array;
  /** Per unit: the sum of its values (mean path only; zeros for the generic path). */
  unitSum: Float64Array;
  /** Per group: its units, CSR style: units groupUnits[groupStart[h] … groupStart[h + 1]). Only non-empty groups. */
  groupStart: Int32Array;
  groupUnits: Int32Array;
  /** Per group: the stratum weight w_h (weighted statistic Σ w_h · mean_h), or null for the pooled mean. */
  groupWeight: Float64Array | null;
  /** Per group: the stratum index it came from. */
  groupStratum: Int32Array;
  /** Per group: how warnings name it: `stratum "NAME"` with strataNames, else `stratum #k` (k its index). */
  groupLabel: string[];
  /** Every unit is one item (not clustered): the hot loop need not count items. */
  singleItemUnits: boolean;
  clustered: boolean;
  stratified: boolean;
  /** Distinct clusters (when clustered). */
  nClusters: number;
  /** Distinct non-empty strata (when stratified). */
  nStrata: number;
  /**
   * The counts path (see resample.ts), per group: 1 when its resamples draw how many units of each
   * class they take (a class: the units with one (sum, count) pair, which are interchangeable for
   * the mean) instead of which units; 0 when they draw unit indices. All 0 without values.
   */
  groupCounts: Uint8Array;
  /** Per group: its classes, CSR style: classes classStart[g] … classStart[g + 1] (none for an index group). */
  classStart: Int32Array;
  /** Per class: the value sum of each of its units. */
  classSum: Float64Array;
  /** Per class: the item count of each of its units. */
  classItems: Float64Array;
  /** Per class: how many of its group's units are in it (c_k). */
  classUnits: Float64Array;
  /** Per class: c_k / Σ_{j ≥ k} c_j over its group's classes: the sequential multinomial's conditional probability. */
  classProbability: Float64Array;
  /** Per group: Σ unitSum and Σ unitCount in unit order (as designEstimate adds them): every resample of a one-class group. */
  groupSum: Float64Array;
  groupCount: Float64Array;
}

/**
 * How the mean path draws a resample (an internal switch, for the tests and the bench):
 * `'auto'` (the default) draws class counts in every group where COUNTS_PATH_RULE holds and unit
 * indices elsewhere; `'indices'` draws unit indices everywhere; `'counts'` draws class counts in
 * every group, however many classes it has. All three give the same bootstrap distribution.
 */
export type ResamplePath = 'auto' | 'indices' | 'counts';

/**
 * When `'auto'` draws class counts in a group of m units with K classes (distinct (sum, count)
 * pairs): K ≤ maxClasses and m ≥ unitsPerBinomial · (K − 1). A resample of the group then costs
 * K − 1 binomial draws instead of m index draws; one binomial draw (BTRS or inversion, plus the
 * bookkeeping) costs about as much as 20 to 45 index draws in V8 (typically 25–30; measured at
 * m = 100 … 1,648, K = 2 … 64), so at the rule's boundary the two paths cost about the same and
 * inside it the counts path is cheaper, by far for few values (30× for K = 3 at m = 1,648): 0/1 paired
 * differences (K = 3) from 64 items on; integer points (up to 201 distinct differences on a 0–100
 * scale) while at most 64 of them occur and there are 32 items per extra value. A one-class group
 * (K = 1: every unit alike) never varies and takes no draws.
 */
export const COUNTS_PATH_RULE = { maxClasses: 64, unitsPerBinomial: 32 } as const;

/** The parts of BootstrapOptions that shape the design. */
export interface DesignOptions {
  cluster?: Int32Array | null;
  strata?: Int32Array | null;
  stratumWeights?: ArrayLike<number> | null;
  /** Names of the stratum indices, for messages (see BootstrapOptions.strataNames). */
  strataNames?: readonly string[] | null;
  /** Names of the cluster indices, for messages (see BootstrapOptions.clusterNames). */
  clusterNames?: readonly string[] | null;
  /** INTERNAL (tests, bench): force the index or the counts path; default `'auto'`. */
  resamplePath?: ResamplePath;
}

/**
 * How messages name stratum index h: `stratum "NAME"` when `names` has a string at h, else `stratum #h`.
 * @example stratumLabel(1, ['routine', 'rare']) // => 'stratum "rare"'
 */
export function stratumLabel(h: number, names: readonly string[] | null | undefined): string {
  return `stratum ${nameOf(h, names)}`;
}

/**
 * How messages name cluster index c: `cluster "NAME"` when `names` has a string at c, else `cluster #c`.
 * @example clusterLabel(3, null) // => 'cluster #3'
 */
export function clusterLabel(c: number, names: readonly string[] | null | undefined): string {
  return `cluster ${nameOf(c, names)}`;
}

/** `"NAME"` or `#k`. */
function nameOf(k: number, names: readonly string[] | null | undefined): string {
  const name = names?.[k];
  return typeof name === 'string' ? `"${name}"` : `#${k}`;
}

function checkNames(option: string, names: readonly string[] | null | undefined): void {
  if (names != null && !Array.isArray(names)) throw new TypeError(`${option} must be an array of names (got ${Object.prototype.toString.call(names)})`);
}

function checkLabels(name: string, labels: Int32Array, n: number): number {
  if (!(labels instanceof Int32Array)) throw new TypeError(`${name} must be an Int32Array of indices (got ${Object.prototype.toString.call(labels)})`);
  if (labels.length !== n) throw new RangeError(`${name} must have one entry per item: ${n} (got ${labels.length})`);
  let max = -1;
  for (let i = 0; i < n; i++) {
    const v = labels[i];
    if (v < 0) throw new RangeError(`${name}[${i}] must be an index ≥ 0 (got ${v})`);
    if (v > max) max = v;
  }
  return max + 1;
}

/** buildDesign's checks that apply to every design: n a whole number ≥ 1, strataNames and clusterNames arrays (or absent). */
function checkItemsAndNames(n: number, options: DesignOptions): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`the bootstrap needs at least one item (got n = ${n})`);
  checkNames('strataNames', options.strataNames ?? null);
  checkNames('clusterNames', options.clusterNames ?? null);
}

function checkResamplePath(given: ResamplePath | undefined): ResamplePath {
  const path = given ?? 'auto';
  if (path !== 'auto' && path !== 'indices' && path !== 'counts') throw new RangeError(`resamplePath must be auto, indices or counts (got ${String(path)})`);
  return path;
}

/**
 * Whether `options` describe the plain design of n items: no clusters, no strata, no stratum
 * weights (every unit one item, one group). For such options it makes the checks buildDesign would
 * (n a whole number ≥ 1, names arrays, a known resamplePath) and throws as buildDesign does; other
 * options are left to buildDesign. The analytic statistics of a plain design (mean.ts: plainTResult,
 * plainTInterval, plainMean) need no ResampleDesign: they give the same numbers, bit for bit, from the
 * values in a few passes, where building the design costs several arrays of n entries and a hash of
 * the values (most of an analytic compare's time at 10⁴ items: bench/peers/speed.mjs).
 * Formula: plain ⇔ cluster = strata = stratumWeights = null.
 * @param n items. @param options the design's options.
 * @returns true for the plain design.
 * @throws {RangeError} as buildDesign, for plain options only.
 * @example isPlainDesign(3, {}) // => true
 */
export function isPlainDesign(n: number, options: DesignOptions): boolean {
  if (options.cluster != null || options.strata != null || options.stratumWeights != null) return false;
  checkItemsAndNames(n, options);
  checkResamplePath(options.resamplePath);
  return true;
}

/**
 * Builds the design for n items (and their values, for the mean path).
 * @throws {RangeError} on labels of the wrong length or negative, weights of the wrong length or
 *   negative / non-finite, weights without strata, a cluster that spans two strata, or a weighted
 *   stratum with no items.
 * O(n + G + H) time and memory.
 */
export function buildDesign(n: number, options: DesignOptions, values: Float64Array | null): ResampleDesign {
  checkItemsAndNames(n, options);
  const cluster = options.cluster ?? null;
  const strata = options.strata ?? null;
  const weights = options.stratumWeights ?? null;
  const strataNames = options.strataNames ?? null;
  const clusterNames = options.clusterNames ?? null;
  if (weights !== null && strata === null) throw new RangeError('stratumWeights needs strata (got strata = null)');
  // Units: clusters renumbered densely in order of first appearance, or the items themselves.
  let unitOf: Int32Array;
  let nUnits: number;
  if (cluster !== null) {
    const labelCount = checkLabels('cluster', cluster, n);
    const dense = new Int32Array(labelCount).fill(-1);
    unitOf = new Int32Array(n);
    nUnits = 0;
    for (let i = 0; i < n; i++) {
      const c = cluster[i];
      if (dense[c] < 0) dense[c] = nUnits++;
      unitOf[i] = dense[c];
    }
  } else {
    unitOf = new Int32Array(n);
    for (let i = 0; i < n; i++) unitOf[i] = i;
    nUnits = n;
  }
  const unitCount = new Float64Array(nUnits);
  for (let i = 0; i < n; i++) unitCount[unitOf[i]] += 1;
  const unitStart = new Int32Array(nUnits + 1);
  for (let u = 0; u < nUnits; u++) unitStart[u + 1] = unitStart[u] + unitCount[u];
  const unitItems = new Int32Array(n);
  const fill = unitStart.slice(0, nUnits);
  for (let i = 0; i < n; i++) unitItems[fill[unitOf[i]]++] = i;
  const unitSum = new Float64Array(nUnits);
  if (values !== null) {
    // Sum in item order within each unit, so a single-item unit's sum is its value exactly.
    for (let u = 0; u < nUnits; u++) {
      let s = 0;
      for (let k = unitStart[u]; k < unitStart[u + 1]; k++) s += values[unitItems[k]];
      unitSum[u] = s;
    }
  }
  // Groups: non-empty strata in index order, or one group of every unit.
  let groupStart: Int32Array;
  let groupUnits: Int32Array;
  let groupStratum: Int32Array;
  let groupWeight: Float64Array | null = null;
  let nStrata = 0;
  if (strata !== null) {
    const labelCount = checkLabels('strata', strata, n);
    const unitStratum = new Int32Array(nUnits).fill(-1);
    for (let i = 0; i < n; i++) {
      const u = unitOf[i];
      if (unitStratum[u] < 0) unitStratum[u] = strata[i];
      else if (unitStratum[u] !== strata[i]) {
        const spanning = cluster === null ? `item #${u}` : clusterLabel(cluster[i], clusterNames);
        throw new RangeError(`${spanning} spans two strata, ${nameOf(unitStratum[u], strataNames)} and ${nameOf(strata[i], strataNames)}: clusters must lie within one stratum`);
      }
    }
    const perStratum = new Int32Array(labelCount);
    for (let u = 0; u < nUnits; u++) perStratum[unitStratum[u]] += 1;
    const present: number[] = [];
    for (let h = 0; h < labelCount; h++) if (perStratum[h] > 0) present.push(h);
    nStrata = present.length;
    groupStratum = Int32Array.from(present);
    groupStart = new Int32Array(nStrata + 1);
    const groupOfStratum = new Int32Array(labelCount).fill(-1);
    present.forEach((h, g) => {
      groupOfStratum[h] = g;
      groupStart[g + 1] = groupStart[g] + perStratum[h];
    });
    groupUnits = new Int32Array(nUnits);
    const next = groupStart.slice(0, nStrata);
    for (let u = 0; u < nUnits; u++) groupUnits[next[groupOfStratum[unitStratum[u]]]++] = u;
    if (weights !== null) {
      if (weights.length < labelCount) throw new RangeError(`stratumWeights needs one weight per stratum index: at least ${labelCount} (got ${weights.length})`);
      for (let h = 0; h < weights.length; h++) {
        const w = weights[h];
        if (!Number.isFinite(w) || w < 0) {
          const which = typeof strataNames?.[h] === 'string' ? ` (${stratumLabel(h, strataNames)})` : '';
          throw new RangeError(`stratumWeights[${h}]${which} must be a finite number ≥ 0 (got ${w})`);
        }
        if (w > 0 && (h >= labelCount || perStratum[h] === 0)) throw new RangeError(`${stratumLabel(h, strataNames)} has weight ${w} but no items`);
      }
      groupWeight = Float64Array.from(present, (h) => weights[h]);
    }
  } else {
    groupStart = Int32Array.of(0, nUnits);
    groupUnits = new Int32Array(nUnits);
    for (let u = 0; u < nUnits; u++) groupUnits[u] = u;
    groupStratum = Int32Array.of(0);
  }
  const path = checkResamplePath(options.resamplePath);
  const classes = unitClasses(groupStart, groupUnits, unitSum, unitCount, values === null ? 'indices' : path);
  return {
    n,
    nUnits,
    unitStart,
    unitItems,
    unitCount,
    unitSum,
    groupStart,
    groupUnits,
    groupWeight,
    groupStratum,
    groupLabel: Array.from(groupStratum, (h) => stratumLabel(h, strataNames)),
    singleItemUnits: cluster === null,
    clustered: cluster !== null,
    stratified: strata !== null,
    nClusters: cluster !== null ? nUnits : 0,
    nStrata,
    ...classes,
  };
}

type UnitClasses = Pick<ResampleDesign, 'groupCounts' | 'classStart' | 'classSum' | 'classItems' | 'classUnits' | 'classProbability' | 'groupSum' | 'groupCount'>;

/**
 * The classes of each group's units: units with the same (unitSum, unitCount) pair (compared
 * exactly), sorted by sum then count, so the counts path does not depend on the order of the
 * items. A group gets classes when `path` is 'counts', or 'auto' and COUNTS_PATH_RULE holds.
 * O(units) expected time (a hash map per group, given up past maxClasses under 'auto').
 */
function unitClasses(groupStart: Int32Array, groupUnits: Int32Array, unitSum: Float64Array, unitCount: Float64Array, path: ResamplePath): UnitClasses {
  const groups = groupStart.length - 1;
  const groupCounts = new Uint8Array(groups);
  const groupSum = new Float64Array(groups);
  const groupCount = new Float64Array(groups);
  const classStart = new Int32Array(groups + 1);
  const sums: number[] = [];
  const items: number[] = [];
  const units: number[] = [];
  for (let g = 0; g < groups; g++) {
    let s = 0;
    let c = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      s += unitSum[groupUnits[k]];
      c += unitCount[groupUnits[k]];
    }
    groupSum[g] = s;
    groupCount[g] = c;
    classStart[g + 1] = classStart[g];
    if (path === 'indices') continue;
    const m = groupStart[g + 1] - groupStart[g];
    const limit = path === 'counts' ? Infinity : Math.min(COUNTS_PATH_RULE.maxClasses, 1 + Math.floor(m / COUNTS_PATH_RULE.unitsPerBinomial));
    // sum → the classes with that sum, as [count, units, count, units, …]
    const bySum = new Map<number, number[]>();
    let distinct = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1] && distinct <= limit; k++) {
      const u = groupUnits[k];
      const sum = unitSum[u];
      const count = unitCount[u];
      let list = bySum.get(sum);
      if (list === undefined) {
        list = [];
        bySum.set(sum, list);
      }
      let found = false;
      for (let j = 0; j < list.length; j += 2) {
        if (list[j] === count) {
          list[j + 1] += 1;
          found = true;
          break;
        }
      }
      if (!found) {
        list.push(count, 1);
        distinct += 1;
      }
    }
    if (distinct > limit) continue;
    const found: Array<[number, number, number]> = [];
    for (const [sum, list] of bySum) for (let j = 0; j < list.length; j += 2) found.push([sum, list[j], list[j + 1]]);
    found.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    for (const [sum, count, size] of found) {
      sums.push(sum);
      items.push(count);
      units.push(size);
    }
    groupCounts[g] = 1;
    classStart[g + 1] = classStart[g] + found.length;
  }
  const classUnits = Float64Array.from(units);
  const classProbability = new Float64Array(units.length);
  for (let g = 0; g < groups; g++) {
    let rest = 0;
    for (let k = classStart[g + 1] - 1; k >= classStart[g]; k--) {
      rest += classUnits[k];
      classProbability[k] = classUnits[k] / rest;
    }
  }
  return { groupCounts, classStart, classSum: Float64Array.from(sums), classItems: Float64Array.from(items), classUnits, classProbability, groupSum, groupCount };
}

/**
 * The statistic on the data as given: Σ_h w_h S_h / N_h when weighted, else S / N (the mean).
 */
export function designEstimate(design: ResampleDesign): number {
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight } = design;
  const groups = groupStart.length - 1;
  let total = 0;
  let count = 0;
  let weighted = 0;
  for (let g = 0; g < groups; g++) {
    let s = 0;
    let c = 0;
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      s += unitSum[u];
      c += unitCount[u];
    }
    if (groupWeight !== null) weighted += groupWeight[g] * (s / c);
    else {
      total += s;
      count += c;
    }
  }
  return groupWeight !== null ? weighted : total / count;
}

/**
 * Leave-one-unit-out statistics θ_(u) for the BCa acceleration, in O(units), returned in unit order.
 * Leaving unit u out of group (stratum) g replaces that stratum's empirical distribution by the one
 * without u and keeps the design's stratum sizes fixed, as stratified resampling does (the statistic
 * as a function of the stratum distributions: Davison & Hinkley 1997, §3.7, stratified jackknife):
 * - not stratified: the pooled mean without u, θ_(u) = (S − s_u) / (N − c_u);
 * - weighted strata: θ_(u) = θ̂ − w_g S_g / N_g + w_g (S_g − s_u) / (N_g − c_u) (θ̂ when w_g = 0);
 * - unweighted strata: the pooled mean with stratum g's remaining m_g − 1 units scaled back up to its
 *   m_g units, θ_(u) = (S − S_g + m_g (S_g − s_u) / (m_g − 1)) / (N − N_g + m_g (N_g − c_u) / (m_g − 1)).
 *   Without clusters this is Σ_h (N_h / N) · mean_h with mean_g taken without u: the pooled mean with
 *   fixed stratum counts is the weighted mean with w_h = N_h / N. (Dropping u from the pooled mean
 *   instead would shift the weight between strata, and the acceleration would pick up the
 *   differences between strata that stratified resampling holds fixed.)
 * NaN where u is its stratum's only unit (and the stratum carries weight).
 * Feed the result to stratifiedAcceleration, which centres and scales within each stratum.
 */
export function designJackknife(design: ResampleDesign): Float64Array {
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight, nUnits } = design;
  const out = new Float64Array(nUnits);
  const groups = groupStart.length - 1;
  let total = 0;
  let count = 0;
  for (let u = 0; u < nUnits; u++) {
    total += unitSum[u];
    count += unitCount[u];
  }
  if (!design.stratified) {
    for (let u = 0; u < nUnits; u++) out[u] = (total - unitSum[u]) / (count - unitCount[u]);
    return out;
  }
  const groupSum = new Float64Array(groups);
  const groupCount = new Float64Array(groups);
  for (let g = 0; g < groups; g++) {
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      groupSum[g] += unitSum[groupUnits[k]];
      groupCount[g] += unitCount[groupUnits[k]];
    }
  }
  if (groupWeight !== null) {
    let estimate = 0;
    for (let g = 0; g < groups; g++) estimate += groupWeight[g] * (groupSum[g] / groupCount[g]);
    for (let g = 0; g < groups; g++) {
      const w = groupWeight[g];
      const groupMean = groupSum[g] / groupCount[g];
      for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
        const u = groupUnits[k];
        const rest = groupCount[g] - unitCount[u];
        out[u] = w === 0 ? estimate : rest > 0 ? estimate - w * groupMean + w * ((groupSum[g] - unitSum[u]) / rest) : NaN;
      }
    }
    return out;
  }
  for (let g = 0; g < groups; g++) {
    const m = groupStart[g + 1] - groupStart[g];
    const scale = m / (m - 1);
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      out[u] = m > 1 ? (total - groupSum[g] + scale * (groupSum[g] - unitSum[u])) / (count - groupCount[g] + scale * (groupCount[g] - unitCount[u])) : NaN;
    }
  }
  return out;
}

/**
 * The groups (strata) that carry weight but have fewer than two units: every stratum of an
 * unweighted stratified design, the strata with w_h > 0 of a weighted one. Such a stratum's mean
 * never varies between resamples, and one unit says nothing about its sampling variance, so no
 * interval can be had: the callers return NaN bounds and SE with thinGroupWarning. Empty when not stratified.
 */
export function thinGroups(design: ResampleDesign): number[] {
  const thin: number[] = [];
  if (!design.stratified) return thin;
  for (let g = 0; g + 1 < design.groupStart.length; g++) {
    const carries = design.groupWeight === null || design.groupWeight[g] > 0;
    if (carries && design.groupStart[g + 1] - design.groupStart[g] < 2) thin.push(g);
  }
  return thin;
}

/** The warning for one thin group (see thinGroups), naming the stratum. */
export function thinGroupWarning(design: ResampleDesign, g: number): string {
  const unit = design.clustered ? 'cluster' : 'item';
  const remedy = design.groupWeight !== null ? `add ${unit}s to it, merge it with a similar stratum, or give it weight 0` : `add ${unit}s to it or merge it with a similar stratum`;
  return `${design.groupLabel[g]} has a single ${unit}: a one-unit stratum has no sampling variance to estimate, so the interval and standard error are undefined (NaN); ${remedy}`;
}
