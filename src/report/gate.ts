import type { NonInferiorityResult } from '../bootstrap/gate.js';
import { formatNumber, formatTable } from './table.js';

function bound(x: number): string {
  return Number.isNaN(x) ? 'NaN' : formatNumber(x, 3);
}

/** The one-line verdict that heads the report (and an assertion's message). */
export function nonInferiorityHeadline(result: NonInferiorityResult): string {
  const level = `${+(result.confidenceLevel * 100).toFixed(4)}%`;
  const o = result.overall;
  if (result.passed) {
    return `no regression: ${result.candidate} − ${result.baseline} ≥ ${bound(o.lowerBound)} (${level} lower bound) > ${formatNumber(result.threshold)} (−margin)${result.perStratum ? `, and in all ${result.strata.length} strata` : ''}`;
  }
  const strata = result.failed.filter((name) => name !== 'overall');
  const parts: string[] = [];
  if (!o.passed) {
    const items = o.itemsNeeded != null ? `; ${o.methodUsed === 'newcombe' || o.methodUsed === 'tango' ? '' : 'about '}${o.itemsNeeded} items would let it pass` : '';
    // A check can fail with a bound above −margin: the data cannot support a bound (no spread, or
    // unbounded scores skewed toward the candidate's losses); the headline must not say "≤".
    const verdict = o.pValueTest === 'exact-score' ? `${level} lower bound ${bound(o.lowerBound)} clears ${formatNumber(result.threshold)}, but the exact score test at the margin does not (p = ${formatNumber(o.pValue ?? NaN, 3)})` : o.lowerBound > result.threshold ? `no valid ${level} lower bound (the computed ${bound(o.lowerBound)} would clear ${formatNumber(result.threshold)}; see the reason)` : `${level} lower bound ${bound(o.lowerBound)} ≤ ${formatNumber(result.threshold)} (−margin)`;
    parts.push(verdict + items);
  }
  if (strata.length > 0) parts.push(`${strata.length} of ${result.strata.length} strata fail (${strata.join(', ')})`);
  return `regression not ruled out: ${result.candidate} − ${result.baseline}: ${parts.join('; ')}`;
}

/**
 * The gate's one-screen report: the verdict, a table of checks (n, estimate, lower bound,
 * threshold, verdict), the reasons for failures, the settings and warnings.
 */
export function formatNonInferiorityReport(result: NonInferiorityResult): string {
  const level = `${+(result.confidenceLevel * 100).toFixed(4)}%`;
  const checks = [result.overall, ...result.strata];
  const rows = checks.map((c) => [c.stratum ?? 'overall', String(c.n), formatNumber(c.estimate, 3), bound(c.lowerBound), formatNumber(c.threshold, 3), c.passed ? 'pass' : 'FAIL']);
  const lines = [
    `${result.passed ? 'PASS' : 'FAIL'}  ${nonInferiorityHeadline(result)}`,
    '',
    `candidate ${result.candidate} vs baseline ${result.baseline} on ${result.n} paired items${result.dropped > 0 ? ` (${result.dropped} unpaired left out)` : ''}${result.overall.nClusters !== null ? `, ${result.overall.nClusters} clusters` : ''}`,
    `passes when the one-sided ${level} lower bound of candidate − baseline is above −margin (${formatNumber(result.threshold, 3)})${result.methodUsed === 'tango' ? ` and, for these 0/1 scores, the exact score test of a drop of the margin is significant at ${formatNumber(1 - result.confidenceLevel, 3)}` : ''}`,
    '',
    formatTable(['check', 'n', 'estimate', `${level} lower`, 'threshold', 'verdict'], rows, { align: ['left', 'right', 'right', 'right', 'right', 'left'] }),
  ];
  const failures = checks.filter((c) => !c.passed);
  if (failures.length > 0) {
    lines.push('');
    for (const c of failures) lines.push(`${c.stratum ?? 'overall'}: ${c.reason}`);
  }
  lines.push(
    '',
    result.method === 'auto'
      ? `method auto: ${result.methodReason}${result.methodUsed === 'bca' || result.methodUsed === 'studentized' ? `, ${result.nResamples} resamples, seed ${result.seed}` : ''}${result.stratified ? ', stratum sizes held fixed' : ''}`
      : `method ${result.method}${result.method === 't' ? '' : `, ${result.nResamples} resamples`}, seed ${result.seed}, alternative greater${result.clustered ? ', clusters resampled' : ''}${result.stratified ? ', resampled within strata' : ''}`,
  );
  if (result.method === 'auto') {
    for (const c of result.strata) if (c.methodUsed !== result.methodUsed) lines.push(`${c.stratum}: ${c.methodReason}`);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}
