import type { DesignFile } from '../data/design-file.js';
import type { DesignDifferenceResult } from '../selection/index.js';
import { auditLine } from './design-audit.js';
import { formatInterval, formatNumber, formatPercent, formatTable, warningLines } from './table.js';

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

/** What compare --design read: the design, the labelled differences, the chosen items left unlabelled and the reader's warnings (readDesignLabels). */
export interface CompareDesignInput {
  design: DesignFile;
  difference: ReadonlyMap<string, number>;
  chosenUnlabelled: readonly unknown[];
  warnings: readonly string[];
}

/**
 * The JSON document of `benchplan compare LIST --design FILE`: the whole pool's A − B
 * (designDifference's result) with the design it came from and the counts of labelled and
 * unlabelled chosen items. A pure function: the reader's warnings come first, then the estimator's.
 * @param labels what readDesignLabels read from the list and the design file.
 * @param result designDifference(labels.design, labels.difference, confidenceLevel).
 * @param paths the list's and the design file's paths, as the command names them.
 * @returns the report; its keys are the `compare --design --json` document's, in order.
 * @example compareDesignReport(labels, designDifference(labels.design, labels.difference, 0.95), { scores: 'labelled.csv', design: 'to-label.design.json' }).labelled // => 120 (labels = readDesignLabels(…))
 */
export function compareDesignReport(labels: CompareDesignInput, result: DesignDifferenceResult, paths: { scores: string; design: string }): CompareDesignReport {
  const { design, difference } = labels;
  const { estimator, estimate, standardError, poolStandardError, lambda, nClusters, cells, audit, interval } = result;
  return {
    scores: paths.scores,
    design: paths.design,
    pool: design.pool,
    a: design.a,
    b: design.b,
    method: design.method,
    sampling: design.sampling,
    estimator,
    poolSize: design.poolSize,
    labelled: difference.size,
    chosenUnlabelled: labels.chosenUnlabelled.length,
    estimate,
    interval,
    standardError,
    poolStandardError,
    confidenceLevel: result.confidenceLevel,
    degreesOfFreedom: result.degreesOfFreedom,
    excludesZero: interval[0] > 0 || interval[1] < 0,
    lambda,
    nClusters,
    cells,
    audit,
    warnings: [...labels.warnings, ...result.warnings],
  };
}

/**
 * The readable report of `benchplan compare LIST --design FILE`: the pool's A − B with its
 * interval, what the interval is about, the per-cell means, the agreement audit and the warnings.
 * @param r the report (compareDesignReport).
 * @returns the text, lines joined by "\n", no trailing newline.
 * @example formatCompareDesign(report).split('\n')[0] // => "alpha − beta over all 2000 items of the pool … (…)"
 */
export function formatCompareDesign(r: CompareDesignReport): string {
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
