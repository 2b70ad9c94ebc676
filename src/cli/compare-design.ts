import type { DesignFile } from '../data/design-file.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { designDifference, type DesignDifferenceResult } from '../selection/index.js';
import { emit, warningLines, type Context } from './io.js';
import { readDesignLabels } from '../data/design-labels.js';
import { auditLine } from '../report/design-audit.js';

/** `benchplan compare LIST --design FILE --json`: the pool's difference from a select design. */
export interface CompareDesignReport
  extends Pick<DesignDifferenceResult, 'estimator' | 'estimate' | 'interval' | 'standardError' | 'poolStandardError' | 'confidenceLevel' | 'degreesOfFreedom' | 'lambda' | 'nClusters' | 'cells' | 'audit' | 'warnings'> {
  scores: string;
  design: string;
  pool: string;
  a: string;
  b: string;
  method: DesignFile['method'];
  sampling: DesignFile['sampling'];
  poolSize: number;
  labelled: number;
  chosenUnlabelled: number;
  excludesZero: boolean;
}

/**
 * compare --design: reads back the annotation list `select` wrote (scores filled in) and
 * estimates the whole pool's mean difference A − B with the design's inclusion probabilities.
 */
export function compareWithDesign(ctx: Context, scoresPath: string, designPath: string, confidenceLevel: number): void {
  const { design, difference, chosenUnlabelled, warnings } = readDesignLabels(scoresPath, designPath);
  const r = designDifference(design, difference, confidenceLevel);
  warnings.push(...r.warnings);
  const { estimator, estimate, standardError, poolStandardError, lambda, nClusters, cells, audit, interval } = r;
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
    degreesOfFreedom: r.degreesOfFreedom,
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
  out.push(formatTable(['cell', r.sampling === 'cluster' ? 'clusters' : 'items', 'labelled', 'mean A − B'], r.cells.map((c) => [c.cell, String(c.size), String(c.labelled), formatNumber(c.mean)]), { align: ['left', 'right', 'right', 'right'] }));
  out.push(auditLine(r.audit));
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
