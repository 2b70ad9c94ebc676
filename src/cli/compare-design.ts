import { loadDesign, type DesignFile } from '../data/design-file.js';
import { InputError } from '../data/errors.js';
import { alignModels } from '../data/pairing.js';
import { listIds, loadScores } from '../data/scores.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { auditAgreement, poissonDifferenceEstimate, stratifiedDifferenceEstimate, type AgreementAudit } from '../selection/index.js';
import { emit, warningLines, type Context } from './io.js';

/** `benchplan compare LIST --design FILE --json`: the pool's difference from a select design. */
export interface CompareDesignReport {
  scores: string;
  design: string;
  pool: string;
  a: string;
  b: string;
  method: DesignFile['method'];
  sampling: DesignFile['sampling'];
  estimator: 'stratified-horvitz-thompson' | 'horvitz-thompson' | 'horvitz-thompson-with-judge';
  poolSize: number;
  labelled: number;
  chosenUnlabelled: number;
  estimate: number;
  interval: [number, number];
  /** SE for the population the pool stands for (two-phase: the pool's spread plus the subsampling). */
  standardError: number;
  /** SE of the pool's own mean (subsampling only; 0 when every item is labelled). */
  poolStandardError: number;
  confidenceLevel: number;
  excludesZero: boolean;
  lambda: number | null;
  /** Clusters among the labelled items when the pool had a cluster column (the variance is then by cluster), else null. */
  nClusters: number | null;
  cells: Array<{ cell: string; size: number; labelled: number; mean: number }>;
  audit: AgreementAudit;
  warnings: string[];
}

/**
 * compare --design: reads back the annotation list `select` wrote (scores filled in) and
 * estimates the whole pool's mean difference A − B with the design's inclusion probabilities.
 */
export function compareWithDesign(ctx: Context, scoresPath: string, designPath: string, confidenceLevel: number): void {
  const design = loadDesign(designPath);
  const table = loadScores(scoresPath);
  const aligned = alignModels(table, [design.a, design.b]);
  const difference = new Map<string, number>();
  aligned.items.forEach((item, k) => difference.set(item, aligned.scores[0][k] - aligned.scores[1][k]));
  const rowOf = new Map(design.rows.map((r) => [r.item, r]));
  const unknown = aligned.items.filter((i) => !rowOf.get(i)?.selected);
  if (unknown.length > 0) {
    throw new InputError(
      `${unknown.length} labelled item${unknown.length === 1 ? ' was' : 's were'} not chosen by the design (${listIds(unknown)}): ${unknown.length === 1 ? 'its' : 'their'} inclusion probability is unknown, so they cannot be weighted; label only the list select wrote`,
      { file: scoresPath },
    );
  }
  const chosenUnlabelled = design.rows.filter((r) => r.selected && !difference.has(r.item));
  const warnings: string[] = [];
  if (chosenUnlabelled.length > 0) {
    warnings.push(`${chosenUnlabelled.length} chosen item${chosenUnlabelled.length === 1 ? ' has' : 's have'} no label (${listIds(chosenUnlabelled.map((r) => r.item))}); the estimate treats them as missing at random within their cell`);
  }
  const auditRows = design.rows.filter((r) => r.kind === 'agree' && difference.has(r.item)).map((r) => ({ item: r.item, difference: difference.get(r.item) as number }));
  const audit = auditAgreement(auditRows);
  if (audit.assumptionFailed) {
    warnings.push(
      `the audit found ${audit.differing} of ${audit.audited} agreeing items with different scores (${audit.examples.join(', ')}): "same output ⇒ same score" does not hold here, so the agreeing cells are estimated from the audit and the interval is wider; consider a looser --equality or labelling more agreeing items`,
    );
  }
  let estimate: number;
  let standardError: number;
  let poolStandardError: number;
  let interval: [number, number];
  let lambda: number | null = null;
  let nClusters: number | null = null;
  const clustered = design.rows.length > 0 && design.rows.every((r) => r.cluster !== undefined);
  let estimator: CompareDesignReport['estimator'];
  let cells: CompareDesignReport['cells'];
  if (design.sampling === 'stratified') {
    const r = stratifiedDifferenceEstimate(
      design.cells.map((c) => {
        const rows = design.rows.filter((x) => x.cell === c.cell && difference.has(x.item));
        return { cell: c.cell, size: c.size, differences: rows.map((x) => difference.get(x.item) as number), ...(clustered ? { clusters: rows.map((x) => x.cluster as string) } : {}) };
      }),
      confidenceLevel,
    );
    ({ estimate, standardError, poolStandardError, nClusters } = r);
    interval = r.confidenceInterval;
    estimator = 'stratified-horvitz-thompson';
    cells = r.cells.map((c) => ({ cell: c.cell, size: c.size, labelled: c.labelled, mean: c.mean }));
    warnings.push(...r.warnings);
  } else {
    const judged = design.rows.every((r) => r.prediction !== undefined);
    const r = poissonDifferenceEstimate(
      design.rows.map((x) => ({ inclusionProbability: x.inclusionProbability, difference: difference.get(x.item), ...(judged ? { prediction: x.prediction } : {}), ...(clustered ? { cluster: x.cluster } : {}) })),
      { confidenceLevel },
    );
    ({ estimate, standardError, poolStandardError, nClusters } = r);
    interval = r.confidenceInterval;
    lambda = r.lambda;
    estimator = judged ? 'horvitz-thompson-with-judge' : 'horvitz-thompson';
    cells = design.cells.map((c) => {
      const d = design.rows.filter((x) => x.cell === c.cell && difference.has(x.item)).map((x) => difference.get(x.item) as number);
      return { cell: c.cell, size: c.size, labelled: d.length, mean: d.length ? d.reduce((s, v) => s + v, 0) / d.length : NaN };
    });
    warnings.push(...r.warnings);
  }
  const report: CompareDesignReport = {
    scores: scoresPath,
    design: designPath,
    pool: design.pool,
    a: design.a,
    b: design.b,
    method: design.method,
    sampling: design.sampling,
    estimator,
    poolSize: design.poolSize,
    labelled: difference.size,
    chosenUnlabelled: chosenUnlabelled.length,
    estimate,
    interval,
    standardError,
    poolStandardError,
    confidenceLevel,
    excludesZero: interval[0] > 0 || interval[1] < 0,
    lambda,
    nClusters,
    cells,
    audit,
    warnings,
  };
  emit(ctx, report, () => formatDesign(report));
}

function formatDesign(r: CompareDesignReport): string {
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  const out: string[] = [];
  out.push(`${r.a} − ${r.b} over all ${r.poolSize} items of the pool ${r.pool}, from ${r.labelled} labelled items (${r.method} design, ${r.estimator}${r.lambda !== null && r.lambda > 0 ? `, judge λ = ${formatNumber(r.lambda, 3)}` : ''})`);
  out.push(
    formatTable(
      ['A − B', `${level} interval`, 'excludes 0', 'SE', 'labelled', 'pool'],
      [[formatNumber(r.estimate), formatInterval(r.interval), r.excludesZero ? 'yes' : 'no', formatNumber(r.standardError), String(r.labelled), String(r.poolSize)]],
      { align: ['right', 'right', 'left', 'right', 'right', 'right'] },
    ),
  );
  out.push(`The interval is about the items the pool stands for (as compare's paired interval is${r.nClusters !== null ? `; its pool-level variance is by cluster, ${r.nClusters} clusters labelled` : ''}); the pool's own mean has SE ${formatNumber(r.poolStandardError)} from the subsampling alone.`);
  out.push(formatTable(['cell', 'items', 'labelled', 'mean A − B'], r.cells.map((c) => [c.cell, String(c.size), String(c.labelled), formatNumber(c.mean)]), { align: ['left', 'right', 'right', 'right'] }));
  out.push(
    r.audit.audited === 0
      ? 'Audit: no agreeing item was labelled, so "same output ⇒ same score" is assumed, not checked.'
      : r.audit.assumptionFailed
        ? `Audit: FAILED — ${r.audit.differing} of ${r.audit.audited} agreeing items scored differently.`
        : `Audit: all ${r.audit.audited} labelled agreeing items scored the same for both candidates.`,
  );
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
