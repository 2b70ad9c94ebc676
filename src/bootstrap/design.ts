/**
 * The resampling design: what one bootstrap resample draws. Items are grouped into units (clusters,
 * or single items) and units into groups (strata, or one group); a resample draws, within each
 * group, as many units as the group has, with replacement. All typed arrays, so a design can be
 * posted to a worker thread as is.
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
  /** Every unit is one item (not clustered): the hot loop need not count items. */
  singleItemUnits: boolean;
  clustered: boolean;
  stratified: boolean;
  /** Distinct clusters (when clustered). */
  nClusters: number;
  /** Distinct non-empty strata (when stratified). */
  nStrata: number;
}

/** The parts of BootstrapOptions that shape the design. */
export interface DesignOptions {
  cluster?: Int32Array | null;
  strata?: Int32Array | null;
  stratumWeights?: ArrayLike<number> | null;
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

/**
 * Builds the design for n items (and their values, for the mean path).
 * @throws {RangeError} on labels of the wrong length or negative, weights of the wrong length or
 *   negative / non-finite, weights without strata, a cluster that spans two strata, or a weighted
 *   stratum with no items.
 * O(n + G + H) time and memory.
 */
export function buildDesign(n: number, options: DesignOptions, values: Float64Array | null): ResampleDesign {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`the bootstrap needs at least one item (got n = ${n})`);
  const cluster = options.cluster ?? null;
  const strata = options.strata ?? null;
  const weights = options.stratumWeights ?? null;
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
        throw new RangeError(`cluster ${cluster === null ? u : cluster[i]} spans two strata (${unitStratum[u]} and ${strata[i]}): clusters must lie within one stratum`);
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
        if (!Number.isFinite(w) || w < 0) throw new RangeError(`stratumWeights[${h}] must be a finite number ≥ 0 (got ${w})`);
        if (w > 0 && (h >= labelCount || perStratum[h] === 0)) throw new RangeError(`stratum ${h} has weight ${w} but no items`);
      }
      groupWeight = Float64Array.from(present, (h) => weights[h]);
    }
  } else {
    groupStart = Int32Array.of(0, nUnits);
    groupUnits = new Int32Array(nUnits);
    for (let u = 0; u < nUnits; u++) groupUnits[u] = u;
    groupStratum = Int32Array.of(0);
  }
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
    singleItemUnits: cluster === null,
    clustered: cluster !== null,
    stratified: strata !== null,
    nClusters: cluster !== null ? nUnits : 0,
    nStrata,
  };
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
 * Leave-one-unit-out statistics in O(units): θ_(u) = (S − s_u) / (N − c_u) for the pooled mean;
 * θ̂ − w_h S_h / N_h + w_h (S_h − s_u) / (N_h − c_u) for the weighted one (NaN when u is its stratum's only unit).
 * Returned in unit order.
 */
export function designJackknife(design: ResampleDesign): Float64Array {
  const { groupStart, groupUnits, unitSum, unitCount, groupWeight, nUnits } = design;
  const out = new Float64Array(nUnits);
  const groups = groupStart.length - 1;
  if (groupWeight === null) {
    let total = 0;
    let count = 0;
    for (let u = 0; u < nUnits; u++) {
      total += unitSum[u];
      count += unitCount[u];
    }
    for (let u = 0; u < nUnits; u++) out[u] = (total - unitSum[u]) / (count - unitCount[u]);
    return out;
  }
  const groupMean = new Float64Array(groups);
  const groupSum = new Float64Array(groups);
  const groupCount = new Float64Array(groups);
  let estimate = 0;
  for (let g = 0; g < groups; g++) {
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      groupSum[g] += unitSum[groupUnits[k]];
      groupCount[g] += unitCount[groupUnits[k]];
    }
    groupMean[g] = groupSum[g] / groupCount[g];
    estimate += groupWeight[g] * groupMean[g];
  }
  for (let g = 0; g < groups; g++) {
    for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
      const u = groupUnits[k];
      const rest = groupCount[g] - unitCount[u];
      out[u] = rest > 0 ? estimate - groupWeight[g] * groupMean[g] + groupWeight[g] * ((groupSum[g] - unitSum[u]) / rest) : NaN;
    }
  }
  return out;
}
