import type { DesignFile } from '../data/design-file.js';
import type { StratumWeight } from '../strata/headline.js';
import { clopperPearson, weightedProportionInterval } from '../strata/proportion-interval.js';
import { studentTQuantile } from '../distributions/index.js';
import { auditAgreement, type AgreementAudit } from './audit.js';
import { partlyLabelledClusters } from './design-difference.js';
import { designWeightedMean, type WeightedDesignResult } from './design-weighted-mean.js';

/** Options of {@link designHeadline}. */
export interface DesignHeadlineOptions {
  /** Traffic share of every stratum of the pool (summing to 1); default: the strata's shares of the pool's items. */
  weights?: readonly StratumWeight[];
  /** Two-sided level in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Smooth the variance of a constant 0/1 cell in each candidate's own headline (see below); default true. */
  smoothConstantCells?: boolean;
}

/** An estimate with its two-phase SE and normal interval. */
export interface DesignHeadlineEstimate {
  estimate: number;
  /** For the population the pool stands for (the pool's spread plus the subsampling). */
  standardError: number;
  /** Of the pool's own value (subsampling only; 0 when every item is labelled). */
  poolStandardError: number;
  interval: [number, number];
  /**
   * wald: estimate ± z·SE; beta: Korn–Graubard (a candidate's own headline of 0/1 scores, inside
   * [0, 1]); beta-smoothed: Korn–Graubard with Jeffreys-smoothed cell variances (the default for a
   * candidate's own 0/1 headline on a stratified item design; see {@link designHeadline}).
   */
  intervalMethod: 'wald' | 'beta' | 'beta-smoothed';
}

/** Traffic-weighted headlines of a select design's two candidates and of their difference. */
export interface DesignHeadlineResult {
  a: string;
  b: string;
  estimator: 'stratified-horvitz-thompson' | 'horvitz-thompson' | 'cluster-horvitz-thompson';
  /** traffic: the weights given; pool: each stratum's share of the pool (no weights given). */
  weighting: 'traffic' | 'pool';
  weights: StratumWeight[];
  confidenceLevel: number;
  poolSize: number;
  labelled: number;
  nClusters: number | null;
  /** Per candidate: the headline Σ_s T_s ȳ_s and each stratum's pool mean ȳ_s. */
  models: Array<{ model: string; headline: DesignHeadlineEstimate; strata: Array<DesignHeadlineEstimate & { stratum: string; poolItems: number; labelled: number; weight: number }> }>;
  /** Headline of A − B (= headline A − headline B), and per stratum. */
  difference: DesignHeadlineEstimate & { excludesZero: boolean; strata: Array<DesignHeadlineEstimate & { stratum: string }> };
  audit: AgreementAudit;
  warnings: string[];
}

/**
 * The traffic-reweighted headline from a `benchplan select` design: each candidate's expected
 * score on production traffic, Σ_s T_s ȳ_s, and of A − B, where ȳ_s is stratum s's mean over the
 * whole pool estimated from the labelled items with the design's inclusion probabilities. Each
 * is a design-weighted mean with item weights a_i = T_s / N_s (N_s the pool items of stratum s)
 * ({@link designWeightedMean}): stratified expansion within the design's cells (item or cluster
 * sampling), or Horvitz–Thompson 1/π (active design; without the judge's control variate, which
 * compare --design uses for the difference). Interval: estimate ± z·SE, SE two-phase as in
 * compare --design, with the phase-1 residuals taken around each stratum's mean (the pool is a
 * stratified sample of traffic) and summed by cluster when the design has clusters.
 * A disagreement design labels few agreeing items, so each candidate's own headline is wide;
 * the difference is what the design measures precisely. For a candidate's own headline a cell
 * sampled in part whose 0/1 labels are all equal gets the Jeffreys-smoothed variance
 * p̃(1 − p̃), p̃ = (x + ½)/(m + 1), not 0 (the difference keeps the plain estimator: an agreeing
 * cell's zero differences are the design's assumption, which the audit checks).
 * The interval of a candidate's own 0/1 headline stays inside [0, 1]. On a stratified item design
 * (the default) it is `beta-smoothed`, as `headline` without a design: Korn–Graubard's Clopper–Pearson
 * interval at x* = n* p̂ with the effective size n* = p̃(1 − p̃)/Ṽ · (t(n − 1, α/2)/t(n − H, α/2))²,
 * where p̃ = Σ_h W_h p̃_h, p̃_h = (x_h + ½)/(m_h + 1) over the H cells with labels (W_h = the cell's
 * weight in the headline, m_h its labels, x_h its ones), and Ṽ = V̂ − Σ_h W_h² s²_h/m_h + Σ_h W_h² p̃_h(1 − p̃_h)/m_h:
 * the two-phase V̂ (here without the constant-cell smoothing, so no cell is smoothed twice) with its
 * within-cell part, s²_h = x_h(m_h − x_h)/(m_h(m_h − 1)), taken at the smoothed shares instead (the
 * rest of V̂, the cells' random shares of their stratum, kept). Why: the agreeing cells are known from a handful of
 * audited items; when those happen to score all (or nearly all) 1, p̂ is high and V̂ small together,
 * and svyciprop's plain beta (n* = p̂(1 − p̂)/V̂) covered 0.926 ± 0.004 in bench/efficiency.ts
 * section D (50% agreement, audit share 0.1); beta-smoothed covers 0.940 ± 0.004 there (mean width
 * 0.154 vs 0.153), and at 80% agreement with the same audit 0.988 instead of 0.991 (width 0.381 vs 0.446). With `smoothConstantCells: false`, and on Poisson or cluster designs, it is the
 * plain `beta` (svyciprop(method = "beta") at V̂, df = labelled − cells); at p̂ = 0 or 1, Clopper–Pearson
 * at Kish's effective size. Reference for beta-smoothed: tests/reference/selection/headline_beta_smoothed.R
 * (the same formula in R, with survey's qbeta-based Clopper–Pearson, on design_reference.R's case A).
 * Reference: Cochran (1977) §5.3 (stratified mean with population weights), §9A (clusters);
 * R survey: `svycontrast(svyby(~y, ~stratum, svydesign(ids = ~unit, strata = ~cell, fpc = ~M), svymean), T)`
 * (tests/reference/selection/design_reference.R).
 * @param design the parsed design file.
 * @param scores both candidates' scores (design.a, design.b) per labelled item.
 * @param options traffic weights and level.
 * @returns see {@link DesignHeadlineResult}.
 * @throws {RangeError} for a pool stratum without a weight, a weighted stratum with no pool item,
 *   weights not summing to 1, weights on a pool without strata, a bad level, or a partly labelled cluster.
 * Cost O(N · strata).
 * @example // one stratum; cell d (4 items, all labelled: A = 1, 0, 1, 1), cell a (10 items, 4 labelled, all A = 1)
 * designHeadline(design, scores).models[0].headline.estimate // => 0.9285714285714286 (= (3 + 10 · 1) / 14)
 */
export function designHeadline(design: DesignFile, scores: ReadonlyMap<string, { a: number; b: number }>, options: DesignHeadlineOptions = {}): DesignHeadlineResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const N = design.rows.length;
  const poolCount = new Map<string, number>();
  const labelledCount = new Map<string, number>();
  for (const r of design.rows) {
    poolCount.set(r.stratum, (poolCount.get(r.stratum) ?? 0) + 1);
    if (scores.has(r.item)) labelledCount.set(r.stratum, (labelledCount.get(r.stratum) ?? 0) + 1);
  }
  const strata = [...poolCount.keys()];
  let weights: StratumWeight[];
  let weighting: DesignHeadlineResult['weighting'];
  if (options.weights === undefined) {
    weighting = 'pool';
    weights = strata.map((s) => ({ stratum: s, weight: (poolCount.get(s) as number) / N }));
  } else {
    weighting = 'traffic';
    if (strata.length === 1 && strata[0] === '') throw new RangeError('the design has no strata, so traffic weights cannot be applied');
    const given = new Map<string, number>();
    let sum = 0;
    for (const w of options.weights) {
      if (given.has(w.stratum)) throw new RangeError(`stratum "${w.stratum}" has two weights`);
      if (!(Number.isFinite(w.weight) && w.weight >= 0)) throw new RangeError(`stratum "${w.stratum}": weight must be a finite number ≥ 0 (got ${w.weight})`);
      if (w.weight > 0 && !poolCount.has(w.stratum)) throw new RangeError(`stratum "${w.stratum}" has traffic share ${w.weight} but no item in the pool, so the headline cannot cover it`);
      given.set(w.stratum, w.weight);
      sum += w.weight;
    }
    if (Math.abs(sum - 1) > 1e-6) throw new RangeError(`the headline's weights must sum to 1 (got ${sum})`);
    const missing = strata.filter((s) => !given.has(s));
    if (missing.length > 0) throw new RangeError(`stratum "${missing[0]}" has ${poolCount.get(missing[0])} pool items but no traffic share`);
    weights = strata.map((s) => ({ stratum: s, weight: given.get(s) as number }));
  }
  const weightOf = new Map(weights.map((w) => [w.stratum, w.weight]));
  if (design.sampling === 'cluster') {
    const partial = partlyLabelledClusters(design, (item) => scores.has(item));
    if (partial.length > 0) throw new RangeError(`cluster design: ${partial.length} chosen cluster${partial.length === 1 ? ' has' : 's have'} items without a label (${partial.slice(0, 5).join(', ')}): label every item of a chosen cluster, or none of it`);
  }
  const clustered = design.rows.length > 0 && design.rows.every((r) => r.cluster !== undefined);
  const sampling = design.sampling === 'poisson' ? 'poisson' : 'stratified';
  const cellSizes = new Map(design.cells.map((c) => [c.cell, c.size]));
  const estimate = (value: (s: { a: number; b: number }) => number, itemWeight: (stratum: string) => number, smooth = false): WeightedDesignResult =>
    designWeightedMean(
      design.rows.map((r) => {
        const s = scores.get(r.item);
        return {
          weight: itemWeight(r.stratum),
          value: s === undefined ? undefined : value(s),
          inclusionProbability: r.inclusionProbability,
          cell: r.cell,
          unit: design.sampling === 'cluster' ? (r.cluster as string) : r.item,
          group: r.stratum,
          ...(clustered ? { cluster: r.cluster as string } : {}),
        };
      }),
      { sampling, cellSizes, confidenceLevel, smoothConstantCells: smooth, quantile: design.sampling === 'cluster' ? 'design' : 'normal' },
    );
  const traffic = (s: string) => (weightOf.get(s) as number) / (poolCount.get(s) as number);
  const only = (stratum: string) => (s: string) => (s === stratum ? 1 / (poolCount.get(s) as number) : 0);
  const pack = (r: WeightedDesignResult): DesignHeadlineEstimate => ({ estimate: r.estimate, standardError: r.standardError, poolStandardError: r.poolStandardError, interval: r.confidenceInterval, intervalMethod: 'wald' });
  // A candidate's own score of 0/1 labels: Korn–Graubard's beta interval (beta-smoothed on a
  // stratified item design, else at the effective size p̂(1 − p̂)/V̂ as svyciprop(method = "beta"));
  // a normal interval on a handful of audited agreeing items near 1 covers badly.
  const binary = [...scores.values()].every((s) => (s.a === 0 || s.a === 1) && (s.b === 0 || s.b === 1));
  const labelledRows = design.rows.filter((r) => scores.has(r.item));
  const cellLabelled = new Map<string, Set<string>>();
  for (const r of labelledRows) cellLabelled.set(r.cell, (cellLabelled.get(r.cell) ?? new Set()).add(design.sampling === 'cluster' ? (r.cluster as string) : r.item));
  const expansion = (r: DesignFile['rows'][number]) => (design.sampling === 'poisson' ? 1 / r.inclusionProbability : (cellSizes.get(r.cell) as number) / (cellLabelled.get(r.cell) as Set<string>).size);
  const packScore = (r: WeightedDesignResult, itemWeight: (stratum: string) => number, key: 'a' | 'b', smooth: boolean, unsmoothed: () => WeightedDesignResult): DesignHeadlineEstimate => {
    const out = pack(r);
    if (!binary || !Number.isFinite(r.estimate) || !Number.isFinite(r.standardError) || r.estimate < 0 || r.estimate > 1) return out;
    let kish = 0;
    for (const row of labelledRows) kish += (expansion(row) * itemWeight(row.stratum)) ** 2;
    const alpha = 1 - confidenceLevel;
    // At 0 or 1 the beta interval is Clopper–Pearson for 0 (or n) of Kish's effective size.
    if (r.estimate <= 0 || r.estimate >= 1) {
      const edge = 1 - (alpha / 2) ** (kish > 0 ? kish : 1 / labelledRows.length);
      return { ...out, interval: r.estimate <= 0 ? [0, edge] : [1 - edge, 1], intervalMethod: 'beta' };
    }
    const input = { estimate: Math.min(1, Math.max(0, r.estimate)), variance: r.standardError ** 2, items: labelledRows.length, strata: cellLabelled.size, kishSize: kish > 0 ? 1 / kish : labelledRows.length, confidenceLevel };
    if (design.sampling !== 'stratified' || !smooth || labelledRows.length - cellLabelled.size < 1) {
      const p = weightedProportionInterval(input, 'beta');
      return { ...out, interval: p.interval, intervalMethod: 'beta' };
    }
    // beta-smoothed (see the JSDoc): the within-cell part of V̂ taken at Jeffreys-smoothed shares.
    const cellW = new Map<string, number>();
    for (const row of design.rows) cellW.set(row.cell, (cellW.get(row.cell) ?? 0) + itemWeight(row.stratum));
    const cellX = new Map<string, { m: number; x: number }>();
    for (const row of labelledRows) {
      const c = cellX.get(row.cell) ?? { m: 0, x: 0 };
      c.m += 1;
      c.x += (scores.get(row.item) as { a: number; b: number })[key];
      cellX.set(row.cell, c);
    }
    let raw = 0;
    let smoothed = 0;
    let centre = 0;
    for (const [cell, { m, x }] of cellX) {
      const W = cellW.get(cell) as number;
      if (W === 0) continue;
      const q = (x + 0.5) / (m + 1);
      centre += W * q;
      smoothed += (W * W * q * (1 - q)) / m;
      if (m > 1) raw += (W * W * (x * (m - x)) / (m * (m - 1))) / m;
    }
    // V̂ without the constant-cell smoothing, so that no cell's variance is smoothed twice.
    const variance = unsmoothed().standardError ** 2 - raw + smoothed;
    if (!(variance > 0)) return { ...out, interval: weightedProportionInterval(input, 'beta').interval, intervalMethod: 'beta' };
    const df = labelledRows.length - cellLabelled.size;
    const ratio = studentTQuantile(alpha / 2, labelledRows.length - 1) / studentTQuantile(alpha / 2, df);
    const size = ((centre * (1 - centre)) / variance) * ratio * ratio;
    return { ...out, interval: clopperPearson(input.estimate, size, alpha), intervalMethod: 'beta-smoothed' };
  };
  const warnings: string[] = [];
  const models = (['a', 'b'] as const).map((key) => {
    const smooth = options.smoothConstantCells ?? true;
    const head = estimate((s) => s[key], traffic, smooth);
    warnings.push(...head.warnings.map((w) => `${design[key]}: ${w}`));
    if (head.constantCells.length > 0 && smooth) {
      warnings.push(
        `${design[key]}: every labelled item of cell${head.constantCells.length === 1 ? '' : 's'} ${head.constantCells.join(', ')} has the same score; for 0/1 scores the cell's variance is taken as p̃(1 − p̃), p̃ = (x + ½)/(m + 1), not 0, but so few labels make ${design[key]}'s own headline rough: label more agreeing items (--audit-share) before relying on it`,
      );
    }
    return {
      model: design[key],
      headline: packScore(head, traffic, key, smooth, () => estimate((s) => s[key], traffic, false)),
      strata: strata.map((stratum) => ({ stratum, poolItems: poolCount.get(stratum) as number, labelled: labelledCount.get(stratum) ?? 0, weight: weightOf.get(stratum) as number, ...packScore(estimate((s) => s[key], only(stratum), smooth), only(stratum), key, smooth, () => estimate((s) => s[key], only(stratum), false)) })),
    };
  });
  const diff = estimate((s) => s.a - s.b, traffic);
  const audit = auditAgreement(design.rows.filter((r) => r.kind === 'agree' && scores.has(r.item)).map((r) => {
    const s = scores.get(r.item) as { a: number; b: number };
    return { item: r.item, difference: s.a - s.b };
  }));
  if (audit.assumptionFailed) warnings.push(`the audit found ${audit.differing} of ${audit.audited} agreeing items with different scores (${audit.examples.join(', ')}): "same output ⇒ same score" does not hold here, so the agreeing cells are estimated from the audit and the interval is wider`);
  for (const w of weights) if (w.weight === 0) warnings.push(`stratum "${w.stratum}" has traffic share 0: its ${poolCount.get(w.stratum)} pool items do not enter the headline`);
  const [lo, hi] = diff.confidenceInterval;
  return {
    a: design.a,
    b: design.b,
    estimator: design.sampling === 'cluster' ? 'cluster-horvitz-thompson' : design.sampling === 'poisson' ? 'horvitz-thompson' : 'stratified-horvitz-thompson',
    weighting,
    weights,
    confidenceLevel,
    poolSize: N,
    labelled: design.rows.filter((r) => scores.has(r.item)).length,
    nClusters: diff.nClusters,
    models,
    difference: { ...pack(diff), excludesZero: lo > 0 || hi < 0, strata: strata.map((stratum) => ({ stratum, ...pack(estimate((s) => s.a - s.b, only(stratum))) })) },
    audit,
    warnings: [...new Set([...warnings, ...diff.warnings])],
  };
}
