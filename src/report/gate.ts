import type { NonInferiorityResult } from '../gate/gate.js';
import { formatNumber, formatTable } from './table.js';

function bound(x: number): string {
  return Number.isNaN(x) ? 'NaN' : formatNumber(x, 3);
}

/** The verdict's word in a report: PASS, FAIL or INCONCLUSIVE. */
export function verdictWord(verdict: 'pass' | 'fail' | 'inconclusive'): string {
  return verdict.toUpperCase();
}

/** One check's clause: its bound against −margin and, when inconclusive, the items that would decide it. */
function checkClause(c: NonInferiorityResult['overall'], level: string, threshold: number): string {
  if (c.verdict === 'fail') return `${level} upper bound ${bound(c.upperBound)} < ${formatNumber(threshold)} (−margin): a drop larger than the margin is shown`;
  const exact = c.methodUsed === 'newcombe' || c.methodUsed === 'tango' ? '' : 'about ';
  const toward = c.estimate < threshold ? 'show the drop' : 'let it pass';
  const items = c.itemsNeeded != null ? `; ${exact}${c.itemsNeeded} items would ${toward}` : '';
  // An inconclusive check can have a bound above −margin: the data cannot support a bound (no spread, or
  // unbounded scores skewed toward the candidate's losses); the headline must not say "≤".
  if (c.pValueTest === 'exact-score' && c.lowerBound > threshold) return `${level} lower bound ${bound(c.lowerBound)} clears ${formatNumber(threshold)}, but the exact score test at the margin does not (p = ${formatNumber(c.pValue ?? NaN, 3)})${items}`;
  if (c.lowerBound > threshold) return `no valid ${level} lower bound (the computed ${bound(c.lowerBound)} would clear ${formatNumber(threshold)}; see the reason)${items}`;
  if (Number.isNaN(c.upperBound)) return `${level} lower bound ${bound(c.lowerBound)} ≤ ${formatNumber(threshold)} (−margin)${items}`;
  return `${level} bounds [${bound(c.lowerBound)}, ${bound(c.upperBound)}] contain ${formatNumber(threshold)} (−margin)${items}`;
}

/**
 * The bound the gate's criterion names, for its one-line statement: the one-sided lower bound at the
 * level, or, where the check reads the two-sided t interval's end (boundAtIntervalEnd: bounded scores,
 * bench/comet-gate-rules.txt R4), that end. `subject` follows "lower bound" (e.g. " of candidate − baseline").
 */
export function criterionBound(result: NonInferiorityResult, level: string, subject: string): string {
  return result.overall.boundAtIntervalEnd === true ? `${level} lower bound${subject} (for these bounded scores the lower end of the two-sided ${level} t interval)` : `one-sided ${level} lower bound${subject}`;
}

/** The one-line verdict that heads the report (and an assertion's message). */
export function nonInferiorityHeadline(result: NonInferiorityResult): string {
  const level = `${+(result.confidenceLevel * 100).toFixed(4)}%`;
  const o = result.overall;
  if (result.verdict === 'pass') {
    return `no regression: ${result.candidate} − ${result.baseline} ≥ ${bound(o.lowerBound)} (${level} lower bound) > ${formatNumber(result.threshold)} (−margin)${result.perStratum ? `, and in all ${result.strata.length} strata` : ''}`;
  }
  const parts: string[] = [];
  if (o.verdict !== 'pass') parts.push(checkClause(o, level, result.threshold));
  const failing = result.strata.filter((c) => c.verdict === 'fail').map((c) => c.stratum as string);
  const open = result.strata.filter((c) => c.verdict === 'inconclusive').map((c) => c.stratum as string);
  if (failing.length > 0) parts.push(`${failing.length} of ${result.strata.length} strata show a drop beyond the margin (${failing.join(', ')})`);
  if (open.length > 0) parts.push(`${open.length} of ${result.strata.length} strata inconclusive (${open.join(', ')})`);
  const head = result.verdict === 'fail' ? 'regression shown' : 'neither a regression nor its absence is shown';
  return `${head}: ${result.candidate} − ${result.baseline}: ${parts.join('; ')}`;
}

/**
 * The gate's one-screen report: the verdict, a table of checks (n, estimate, lower bound,
 * threshold, verdict), the reasons for failures, the settings and warnings.
 */
export function formatNonInferiorityReport(result: NonInferiorityResult): string {
  const level = `${+(result.confidenceLevel * 100).toFixed(4)}%`;
  const checks = [result.overall, ...result.strata];
  const rows = checks.map((c) => [c.stratum ?? 'overall', String(c.n), formatNumber(c.estimate, 3), bound(c.lowerBound), Number.isNaN(c.upperBound) ? '-' : bound(c.upperBound), formatNumber(c.threshold, 3), c.verdict === 'pass' ? 'pass' : verdictWord(c.verdict)]);
  const lines = [
    `${verdictWord(result.verdict)}  ${nonInferiorityHeadline(result)}`,
    '',
    `candidate ${result.candidate} vs baseline ${result.baseline} on ${result.n} paired items${result.dropped > 0 ? ` (${result.dropped} unpaired left out)` : ''}${result.overall.nClusters !== null ? `, ${result.overall.nClusters} clusters` : ''}`,
    `passes when the ${criterionBound(result, level, ' of candidate − baseline')} is above −margin (${formatNumber(result.threshold, 3)})${result.methodUsed === 'tango' ? ` and, for these 0/1 scores, the exact score test of a drop of the margin is significant at ${formatNumber(1 - result.confidenceLevel, 3)}` : ''}; fails when the ${level} upper bound is below it; else inconclusive`,
    '',
    formatTable(['check', 'n', 'estimate', `${level} lower`, `${level} upper`, 'threshold', 'verdict'], rows, { align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'] }),
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
