import { normalQuantile, studentTQuantile } from '../distributions/index.js';

/** One pool item for {@link designWeightedMean}: its weight in the estimand, its design, its label. */
export interface WeightedDesignRow {
  /** a_i ≥ 0, the item's share of the estimand: 1/N for the pool mean; traffic_s / N_s for a traffic-weighted headline; 0 for items outside a stratum's own mean. */
  weight: number;
  /** The labelled value y_i; undefined when the item was not labelled. */
  value?: number;
  /** π_i in (0, 1] (Poisson sampling); stratified sampling uses the cell's M_h / m_h instead. */
  inclusionProbability: number;
  /** The phase-2 stratum (design cell). */
  cell: string;
  /** The phase-2 sampling unit: the item itself, or its cluster when whole clusters were sampled. */
  unit: string;
  /** The phase-1 stratum whose mean the item's residual is taken around ('' for one group). */
  group: string;
  /** The phase-1 cluster (document); give it on every row or none. */
  cluster?: string;
}

/** How the labelled units were drawn: simple random samples of units within cells, or independent Poisson draws. */
export interface WeightedDesignOptions {
  sampling: 'stratified' | 'poisson';
  /** Stratified: units in each cell of the pool (M_h ≥ 1). Every row's cell must be listed. */
  cellSizes?: ReadonlyMap<string, number>;
  confidenceLevel?: number;
  /** 'population' (default): add the pool's own spread V₁ (two-phase); 'pool': the pool's weighted mean only. */
  estimand?: 'population' | 'pool';
  /**
   * Stratified sampling of single items with 0/1 values: a cell sampled in part whose labels are
   * all equal gets the variance p̃(1 − p̃) with p̃ = (x + ½)/(m + 1) (Jeffreys) instead of 0. Default false.
   */
  smoothConstantCells?: boolean;
  /**
   * 'normal' (default): θ̂ ± z·SE; 'design': θ̂ ± t(df)·SE with the design's degrees of freedom,
   * df = labelled units − cells with labels (R survey's degf; confint(..., df = degf(design))).
   */
  quantile?: 'normal' | 'design';
}

/** A design-weighted mean and its two-phase standard error. */
export interface WeightedDesignResult {
  /** Σ_i a_i ξ_i y_i / π̃_i (Horvitz–Thompson). */
  estimate: number;
  standardError: number;
  /** SE from the subsampling alone (V₂). */
  poolStandardError: number;
  /** SE from the pool's own spread (V₁), the part that remains when every item is labelled. */
  phase1StandardError: number;
  estimand: 'population' | 'pool';
  confidenceInterval: [number, number];
  /** The df of the t quantile ('design'), or null for the normal one. */
  degreesOfFreedom: number | null;
  confidenceLevel: number;
  labelled: number;
  /** Labelled sampling units (items, or clusters for cluster sampling). */
  labelledUnits: number;
  /** Phase-1 clusters among the labelled items when clusters were given, else null. */
  nClusters: number | null;
  /** Cells sampled in part whose labelled units all have the same total: their subsampling variance is estimated as 0, likely too small. */
  constantCells: string[];
  warnings: string[];
}

/**
 * A weighted mean of a labelled variable over a pool, from a probability sample of the pool's
 * units (items, or whole clusters), as a two-phase design: the pool stands for a population
 * (phase 1), the labelled units are a design sample of the pool (phase 2). One estimator serves
 * the pool's mean difference (a_i = 1/N), a model's traffic-weighted headline (a_i = T_s / N_s,
 * T_s the stratum's traffic share and N_s its pool items), and one stratum's mean.
 *   θ̂ = Σ_k w_k u_k,  u_k = Σ_{labelled i in unit k} a_i y_i,
 * with w_k = M_h / m_h (stratified: M_h units in cell h, m_h of them labelled) or 1/π_k (Poisson).
 *   V₂ (stratified) = Σ_h M_h² (1 − m_h/M_h) s²_{u,h} / m_h   (s² with divisor m_h − 1),
 *   V₂ (Poisson)    = Σ_k (1 − π_k) u_k² / π_k²,
 *   V₁ = Σ_g c_g Σ_{labelled i∈g} w_i e_i²,  e_i = a_i (y_i − ȳ_g),  ȳ_g = Σ_{i∈g} w_i a_i y_i / Σ_{pool i∈g} a_i,
 * with c_g = N_g/(N_g − 1) when the pool has several groups (a stratified phase 1, as R survey's
 * twophase with phase-1 strata computes it, to within its joint-probability cross terms) and 1 for one group (R's
 * unstratified twophase exactly),
 * or with phase-1 clusters V₁ = C/(C − 1) Σ_c z_c², z_c = Σ_{labelled i in c} w_i e_i
 * (the pool a sample of documents; C the labelled clusters), and when whole clusters were the
 * sampling units V₁ = C/(C − 1) Σ_{labelled c} w_c z_c², z_c = Σ_{i in c} e_i, C the pool's clusters
 * (the Horvitz–Thompson estimate of the pool's cluster-robust variance). SE = √(V₁ + V₂) ('population') or
 * √V₂ ('pool'); normal interval θ̂ ± z·SE. With a_i = 1/N and one group this is
 * {@link stratifiedDifferenceEstimate} (units = items) and {@link poissonDifferenceEstimate} (λ = 0).
 * Reference: Cochran (1977) §5.3 and §9A (stratified cluster sampling, unbiased estimator of the
 * total); Särndal, Swensson & Wretman (1992) §4.3 and §9.3 (two-phase). The pool part is R
 * `svytotal(~ay, svydesign(ids = ~unit, strata = ~cell, fpc = ~M))` with ay = a·y (SE = √V₂), and
 * with traffic weights `svycontrast(svyby(~y, ~stratum, design, svymean), traffic)` when cells nest
 * in strata (tests/reference/selection/design_reference.R).
 * @param rows every pool item with its weight, design cell, unit and (when labelled) value.
 * @param options sampling, the cells' unit counts (stratified), level and estimand.
 * @returns see {@link WeightedDesignResult}; NaN estimate with a warning when a cell with weight has no labelled unit.
 * @throws {RangeError} for no rows, a weight or value that is not finite, π outside (0, 1], a cell without a size, more labelled units than its size, clusters on only some rows.
 * Cost O(N).
 * @example designWeightedMean([{ weight: 0.5, value: 1, inclusionProbability: 1, cell: 'c', unit: 'x', group: '' }, { weight: 0.5, value: 0, inclusionProbability: 1, cell: 'c', unit: 'y', group: '' }], { sampling: 'stratified', cellSizes: new Map([['c', 2]]) }).estimate // => 0.5
 */
export function designWeightedMean(rows: readonly WeightedDesignRow[], options: WeightedDesignOptions): WeightedDesignResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const estimand = options.estimand ?? 'population';
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  if (rows.length === 0) throw new RangeError('the pool has no items');
  const stratified = options.sampling === 'stratified';
  let withCluster = 0;
  rows.forEach((r, i) => {
    if (!(Number.isFinite(r.weight) && r.weight >= 0)) throw new RangeError(`row ${i}: weight must be a finite number ≥ 0 (got ${r.weight})`);
    if (r.value !== undefined && !Number.isFinite(r.value)) throw new RangeError(`row ${i}: value must be a finite number (got ${r.value})`);
    if (!stratified && !(r.inclusionProbability > 0 && r.inclusionProbability <= 1)) throw new RangeError(`row ${i}: inclusion probability must be in (0, 1] (got ${r.inclusionProbability})`);
    if (r.cluster !== undefined) withCluster += 1;
  });
  if (withCluster !== 0 && withCluster !== rows.length) throw new RangeError(`clusters are needed on every row or none (got ${withCluster} of ${rows.length})`);
  const warnings: string[] = [];

  // Per cell: the labelled units' totals u_k, and the cell's weight in the estimand.
  const cells = new Map<string, { units: Map<string, number>; weight: number; pi: Map<string, number>; binary: boolean; a: number | undefined; ones: number }>();
  const groupWeight = new Map<string, number>();
  const groupSize = new Map<string, number>();
  const constantCells: string[] = [];
  let labelled = 0;
  for (const r of rows) {
    let c = cells.get(r.cell);
    if (!c) {
      c = { units: new Map(), weight: 0, pi: new Map(), binary: true, a: undefined, ones: 0 };
      cells.set(r.cell, c);
    }
    c.weight += r.weight;
    groupWeight.set(r.group, (groupWeight.get(r.group) ?? 0) + r.weight);
    groupSize.set(r.group, (groupSize.get(r.group) ?? 0) + 1);
    if (r.value === undefined) continue;
    labelled += 1;
    // Single 0/1 items of one weight, for the smoothing of a constant cell.
    if (c.units.has(r.unit) || !(r.value === 0 || r.value === 1) || (c.a !== undefined && c.a !== r.weight)) c.binary = false;
    c.a = r.weight;
    c.ones += r.value === 1 ? 1 : 0;
    c.units.set(r.unit, (c.units.get(r.unit) ?? 0) + r.weight * r.value);
    c.pi.set(r.unit, r.inclusionProbability);
  }
  // Expansion weight of each labelled unit.
  const unitWeight = new Map<string, number>();
  let estimate = 0;
  let v2 = 0;
  let labelledUnits = 0;
  for (const [name, c] of cells) {
    const m = c.units.size;
    labelledUnits += m;
    if (stratified) {
      const M = options.cellSizes?.get(name);
      if (M === undefined || !(Number.isInteger(M) && M >= 1)) throw new RangeError(`cell ${name}: its size must be a whole number ≥ 1 (got ${M})`);
      if (m > M) throw new RangeError(`cell ${name}: ${m} labelled units but only ${M} in the cell`);
      if (m === 0) {
        if (c.weight > 0) {
          warnings.push(`cell ${name}: none of its ${M} units is labelled, so the estimate cannot cover it`);
          estimate = NaN;
        }
        continue;
      }
      const u = [...c.units.values()];
      const mean = u.reduce((s, x) => s + x, 0) / m;
      estimate += M * mean;
      for (const k of c.units.keys()) unitWeight.set(`${name}\u0000${k}`, M / m);
      if (m === M) continue;
      if (m === 1) {
        if (c.weight > 0) {
          warnings.push(`cell ${name}: 1 labelled unit of ${M}; its variance cannot be estimated`);
          v2 = NaN;
        }
        continue;
      }
      let s2 = 0;
      for (const x of u) s2 += (x - mean) ** 2;
      s2 /= m - 1;
      if (s2 === 0 && c.weight > 0) {
        constantCells.push(name);
        if (options.smoothConstantCells && c.binary) {
          const p = (c.ones + 0.5) / (m + 1);
          s2 = (c.a as number) ** 2 * p * (1 - p);
        }
      }
      v2 += (M * M * (1 - m / M) * s2) / m;
    } else {
      for (const [k, u] of c.units) {
        const pi = c.pi.get(k) as number;
        estimate += u / pi;
        v2 += ((1 - pi) * u * u) / (pi * pi);
        unitWeight.set(`${name}\u0000${k}`, 1 / pi);
      }
    }
  }
  if (labelled === 0) warnings.push('no item is labelled');

  // Phase 1: the pool's own spread, from the labels expanded by their weights.
  const groupTotal = new Map<string, number>();
  for (const r of rows) {
    if (r.value === undefined) continue;
    const w = unitWeight.get(`${r.cell}\u0000${r.unit}`) as number;
    groupTotal.set(r.group, (groupTotal.get(r.group) ?? 0) + w * r.weight * r.value);
  }
  const centre = (g: string) => {
    const total = groupWeight.get(g) as number;
    return total > 0 ? (groupTotal.get(g) ?? 0) / total : 0;
  };
  let v1 = 0;
  let nClusters: number | null = null;
  // Whole clusters sampled (the phase-2 unit is the phase-1 cluster): Σ_pool z_c² is estimated by
  // Σ_sampled w_c z_c² (Horvitz–Thompson of the squares), z_c = Σ_{i∈c} e_i; otherwise the cluster
  // sums are taken over expanded residuals, (Σ w e)², which errs on the wide side.
  const wholeClusters = withCluster > 0 && rows.every((r) => r.unit === r.cluster);
  const z = new Map<string, number>();
  const zWeight = new Map<string, number>();
  for (const r of rows) {
    if (r.value === undefined) continue;
    const w = unitWeight.get(`${r.cell}\u0000${r.unit}`) as number;
    const e = r.weight * (r.value - centre(r.group));
    if (wholeClusters) {
      z.set(r.cluster as string, (z.get(r.cluster as string) ?? 0) + e);
      zWeight.set(r.cluster as string, w);
    } else if (withCluster > 0) z.set(r.cluster as string, (z.get(r.cluster as string) ?? 0) + w * e);
    else {
      const Ng = groupSize.get(r.group) as number;
      v1 += (groupSize.size > 1 && Ng > 1 ? Ng / (Ng - 1) : 1) * w * e * e;
    }
  }
  if (withCluster > 0) {
    nClusters = z.size;
    let sum = 0;
    for (const [c, x] of z) sum += wholeClusters ? (zWeight.get(c) as number) * x * x : x * x;
    // C: the labelled clusters, or the pool's clusters when whole clusters were sampled.
    const C = wholeClusters ? new Set(rows.map((r) => r.cluster)).size : nClusters;
    v1 = nClusters > 1 ? (C / (C - 1)) * sum : NaN;
    if (nClusters < 2 && labelled > 0) warnings.push('the labelled items come from one cluster: the pool-level variance cannot be estimated');
  }
  const poolStandardError = Math.sqrt(v2);
  const standardError = estimand === 'pool' ? poolStandardError : Math.sqrt(v1 + v2);
  let labelledCells = 0;
  for (const c of cells.values()) if (c.units.size > 0) labelledCells += 1;
  const df = options.quantile === 'design' ? labelledUnits - labelledCells : null;
  const q = df === null ? normalQuantile(1 - (1 - confidenceLevel) / 2) : df >= 1 ? studentTQuantile(1 - (1 - confidenceLevel) / 2, df) : NaN;
  if (df !== null && df < 1 && labelled > 0) warnings.push(`${labelledUnits} labelled units in ${labelledCells} cells leave no degrees of freedom for the interval`);
  const ok = Number.isFinite(estimate) && Number.isFinite(standardError) && Number.isFinite(q) && labelled > 0;
  return {
    estimate: labelled > 0 ? estimate : NaN,
    standardError,
    poolStandardError,
    phase1StandardError: Math.sqrt(v1),
    estimand,
    confidenceInterval: ok ? [estimate - q * standardError, estimate + q * standardError] : [NaN, NaN],
    confidenceLevel,
    degreesOfFreedom: df,
    labelled,
    labelledUnits,
    nClusters,
    constantCells,
    warnings,
  };
}
