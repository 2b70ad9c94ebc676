import type { DesignFile } from '../data/design-file.js';
import { auditAgreement, type AgreementAudit } from './audit.js';
import { designWeightedMean } from './design-weighted-mean.js';
import { poissonDifferenceEstimate } from './poisson-estimate.js';
import { stratifiedDifferenceEstimate } from './stratified-estimate.js';

/** The pool's A − B estimated from a select design and the labelled items' differences. */
export interface DesignDifferenceResult {
  estimator: 'stratified-horvitz-thompson' | 'horvitz-thompson' | 'horvitz-thompson-with-judge' | 'cluster-horvitz-thompson';
  estimate: number;
  /** Two-sided normal interval at `confidenceLevel`. */
  interval: [number, number];
  /** SE for the population the pool stands for (two-phase: the pool's spread plus the subsampling). */
  standardError: number;
  /** SE of the pool's own mean (subsampling only; 0 when every item is labelled). */
  poolStandardError: number;
  confidenceLevel: number;
  /** Degrees of freedom of the t quantile (cluster designs: labelled clusters − cells, R's degf), or null for the normal interval. */
  degreesOfFreedom: number | null;
  /** The judge's λ for a Poisson design with predictions, else null. */
  lambda: number | null;
  /** Clusters among the labelled items when the design has a cluster per row, else null. */
  nClusters: number | null;
  cells: Array<{ cell: string; size: number; labelled: number; mean: number }>;
  /** The audit of the labelled agreeing items ({@link auditAgreement}). */
  audit: AgreementAudit;
  warnings: string[];
}

/**
 * Estimates the whole pool's mean paired difference A − B (A = design.a, B = design.b) from the
 * labelled items of a design `benchplan select` wrote. Stratified design: the stratified
 * Horvitz–Thompson mean Σ_h (N_h/N) d̄_h with its two-phase variance
 * ({@link stratifiedDifferenceEstimate}); Poisson (active) design: Σ d_i/π_i / N, with the judge
 * as a control variate when every row has a prediction ({@link poissonDifferenceEstimate});
 * cluster design: Σ_h (M_h/m_h) Σ_{c} t_c / N over the labelled clusters' totals t_c, with the
 * variance of stratified cluster sampling plus the pool's spread by cluster ({@link designWeightedMean}).
 * Interval: estimate ± z_{1−α/2}·SE (cluster design: t with df = labelled clusters − cells, as few
 * documents make the normal quantile too short). The audit counts agreeing items whose difference is not 0;
 * the agreeing cells are estimated from the audit either way, so a failure widens, not biases.
 * Reference: Cochran (1977) §5; Horvitz & Thompson (1952); Zrnic & Candès (2024) for active designs.
 * The caller checks that every labelled item was chosen by the design.
 * @throws {RangeError} for a cluster design with a labelled cluster whose items are not all labelled ({@link partlyLabelledClusters}).
 * @param design the parsed design file.
 * @param difference A − B for each labelled item id.
 * @param confidenceLevel two-sided level in (0, 1).
 * @example designDifference(design, new Map([['doc1', 1]]), 0.95).interval
 */
export function designDifference(design: DesignFile, difference: ReadonlyMap<string, number>, confidenceLevel: number): DesignDifferenceResult {
  const warnings: string[] = [];
  const auditRows = design.rows.filter((r) => r.kind === 'agree' && difference.has(r.item)).map((r) => ({ item: r.item, difference: difference.get(r.item) as number }));
  const audit = auditAgreement(auditRows);
  if (audit.assumptionFailed) {
    warnings.push(
      `the audit found ${audit.differing} of ${audit.audited} agreeing items with different scores (${audit.examples.join(', ')}): "same output ⇒ same score" does not hold here, so the agreeing cells are estimated from the audit and the interval is wider; consider a looser --equality or labelling more agreeing items`,
    );
  }
  const clustered = design.rows.length > 0 && design.rows.every((r) => r.cluster !== undefined);
  const cellMeans = () =>
    design.cells.map((c) => {
      const d = design.rows.filter((x) => x.cell === c.cell && difference.has(x.item)).map((x) => difference.get(x.item) as number);
      return { cell: c.cell, size: c.size, labelled: d.length, mean: d.length ? d.reduce((s, v) => s + v, 0) / d.length : NaN };
    });
  // Each estimator's result in the one shape every design returns (key order as before).
  const result = (
    estimator: DesignDifferenceResult['estimator'],
    r: { estimate: number; confidenceInterval: [number, number]; standardError: number; poolStandardError: number; nClusters: number | null; warnings: string[] },
    rest: Pick<DesignDifferenceResult, 'degreesOfFreedom' | 'lambda' | 'cells'>,
  ): DesignDifferenceResult => ({
    estimator,
    degreesOfFreedom: rest.degreesOfFreedom,
    estimate: r.estimate,
    interval: r.confidenceInterval,
    standardError: r.standardError,
    poolStandardError: r.poolStandardError,
    confidenceLevel,
    lambda: rest.lambda,
    nClusters: r.nClusters,
    cells: rest.cells,
    audit,
    warnings: [...warnings, ...r.warnings],
  });
  if (design.sampling === 'cluster') {
    const partial = partlyLabelledClusters(design, (item) => difference.has(item));
    if (partial.length > 0) throw new RangeError(`cluster design: ${partial.length} chosen cluster${partial.length === 1 ? ' has' : 's have'} items without a label (${partial.slice(0, 5).join(', ')}): label every item of a chosen cluster, or none of it`);
    const N = design.rows.length;
    const r = designWeightedMean(
      design.rows.map((x) => ({ weight: 1 / N, value: difference.get(x.item), inclusionProbability: x.inclusionProbability, cell: x.cell, unit: x.cluster as string, group: '', cluster: x.cluster as string })),
      { sampling: 'stratified', cellSizes: new Map(design.cells.map((c) => [c.cell, c.size])), confidenceLevel, quantile: 'design' },
    );
    return result('cluster-horvitz-thompson', r, { degreesOfFreedom: r.degreesOfFreedom, lambda: null, cells: cellMeans() });
  }
  if (design.sampling === 'stratified') {
    const r = stratifiedDifferenceEstimate(
      design.cells.map((c) => {
        const rows = design.rows.filter((x) => x.cell === c.cell && difference.has(x.item));
        return { cell: c.cell, size: c.size, differences: rows.map((x) => difference.get(x.item) as number), ...(clustered ? { clusters: rows.map((x) => x.cluster as string) } : {}) };
      }),
      confidenceLevel,
    );
    return result('stratified-horvitz-thompson', r, { degreesOfFreedom: null, lambda: null, cells: r.cells.map((c) => ({ cell: c.cell, size: c.size, labelled: c.labelled, mean: c.mean })) });
  }
  const judged = design.rows.every((r) => r.prediction !== undefined);
  const r = poissonDifferenceEstimate(
    design.rows.map((x) => ({ inclusionProbability: x.inclusionProbability, difference: difference.get(x.item), ...(judged ? { prediction: x.prediction } : {}), ...(clustered ? { cluster: x.cluster } : {}) })),
    { confidenceLevel },
  );
  return result(judged ? 'horvitz-thompson-with-judge' : 'horvitz-thompson', r, { degreesOfFreedom: null, lambda: r.lambda, cells: cellMeans() });
}

/**
 * The chosen clusters of a cluster design that are labelled only in part: their totals would be
 * short, so the estimators refuse them (a cluster left wholly unlabelled is missing at random within its cell).
 * @param design a design file; @param isLabelled whether an item has its label.
 * @returns the clusters with some but not all items labelled, in design order.
 * @example partlyLabelledClusters(design, (item) => labels.has(item)) // => ['doc07']
 */
export function partlyLabelledClusters(design: DesignFile, isLabelled: (item: string) => boolean): string[] {
  const count = new Map<string, [number, number]>();
  for (const r of design.rows) {
    if (!r.selected || r.cluster === undefined) continue;
    const c = count.get(r.cluster) ?? [0, 0];
    c[0] += 1;
    if (isLabelled(r.item)) c[1] += 1;
    count.set(r.cluster, c);
  }
  return [...count].filter(([, [n, l]]) => l > 0 && l < n).map(([name]) => name);
}
