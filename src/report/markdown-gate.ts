import type { NonInferiorityCheck, NonInferiorityResult } from '../bootstrap/gate.js';
import { markdownDocument, markdownLevel, markdownTable, markdownText, markdownWarnings } from './markdown.js';
import { formatNumber } from './table.js';

const number = (x: number) => formatNumber(x, 3);

/**
 * The gate's verdict as one Markdown line: ✅ PASS or ❌ FAIL, the two models, the one-sided
 * lower bound against −margin, and the strata that fail.
 * @example gateVerdictMarkdown(result) // => "✅ **PASS**: no regression of pr against main: pr − main ≥ -0.0272 (95% lower bound) > -0.05 (−margin)."
 */
export function gateVerdictMarkdown(result: NonInferiorityResult): string {
  const level = markdownLevel(result.confidenceLevel);
  const candidate = markdownText(result.candidate);
  const baseline = markdownText(result.baseline);
  const o = result.overall;
  if (result.passed) {
    const strata = result.perStratum ? `, and in all ${result.strata.length} strata` : '';
    return `✅ **PASS**: no regression of ${candidate} against ${baseline}: ${candidate} − ${baseline} ≥ ${number(o.lowerBound)} (${level} lower bound) > ${number(result.threshold)} (−margin)${strata}.`;
  }
  const parts: string[] = [];
  if (!o.passed) parts.push(o.lowerBound > result.threshold ? `no valid ${level} lower bound (the computed ${number(o.lowerBound)} would clear ${number(result.threshold)}; see the reason)` : `${level} lower bound ${number(o.lowerBound)} ≤ ${number(result.threshold)} (−margin)`);
  const strata = result.failed.filter((name) => name !== 'overall');
  if (strata.length > 0) parts.push(`${strata.length} of ${result.strata.length} strata fail (${strata.map(markdownText).join(', ')})`);
  return `❌ **FAIL**: regression not ruled out for ${candidate} against ${baseline}: ${parts.join('; ')}.`;
}

/**
 * The gate's result in GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` or a PR comment:
 * the verdict line, a table of the checks (n, estimate, lower bound, threshold, verdict), the
 * reason of each failed check, the settings, and the warnings. A pure function of the result.
 * @param result what nonInferiorityGate (or nonInferiorityFromScores) returned.
 * @returns the document, ending in a newline.
 * @example gateMarkdown(nonInferiorityGate(table, { baseline: 'main', candidate: 'pr', margin: 0.05 }))
 */
export function gateMarkdown(result: NonInferiorityResult): string {
  const level = markdownLevel(result.confidenceLevel);
  const checks: NonInferiorityCheck[] = [result.overall, ...result.strata];
  const lines = [gateVerdictMarkdown(result), ''];
  lines.push(
    markdownTable(
      ['check', 'n', 'estimate', `${level} lower`, 'threshold', 'verdict'],
      checks.map((c) => [c.stratum === null ? 'overall' : markdownText(c.stratum), String(c.n), number(c.estimate), number(c.lowerBound), number(c.threshold), c.passed ? '✅ pass' : '❌ FAIL']),
      ['left', 'right', 'right', 'right', 'right', 'left'],
    ),
  );
  const failures = checks.filter((c) => !c.passed);
  if (failures.length > 0) {
    lines.push('');
    for (const c of failures) lines.push(`- ${c.stratum === null ? 'overall' : markdownText(c.stratum)}: ${markdownText(c.reason)}`);
  }
  const items = `${result.n} paired items${result.dropped > 0 ? ` (${result.dropped} unpaired left out)` : ''}${result.overall.nClusters !== null ? `, ${result.overall.nClusters} clusters resampled` : ''}`;
  const method = `method ${result.method}${result.method === 't' ? '' : `, ${result.nResamples} resamples`}, seed ${markdownText(result.seed)}${result.stratified ? ', resampled within strata' : ''}`;
  lines.push('', `<sub>candidate − baseline on ${items}; passes when the one-sided ${level} lower bound is above −margin; ${method}. benchplan gate.</sub>`);
  lines.push(...markdownWarnings(result.warnings));
  return markdownDocument(lines);
}
