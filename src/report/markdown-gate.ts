import type { NonInferiorityCheck, NonInferiorityResult } from '../gate/gate.js';
import { markdownDocument, markdownLevel, markdownTable, markdownText, markdownWarnings } from './markdown.js';
import { formatNumber } from './table.js';
import { criterionBound } from './gate.js';

const number = (x: number) => formatNumber(x, 3);

/** The verdict cell of a check or the summary: ✅ pass, ❌ FAIL or ⚠️ INCONCLUSIVE. */
function verdictCell(verdict: NonInferiorityCheck['verdict']): string {
  return verdict === 'pass' ? '✅ pass' : verdict === 'fail' ? '❌ FAIL' : '⚠️ INCONCLUSIVE';
}

/**
 * The gate's verdict as one Markdown line: ✅ PASS, ❌ FAIL or ⚠️ INCONCLUSIVE, the two models, the
 * one-sided bounds against −margin, the strata that fail or are inconclusive, and the items that would decide.
 * @example gateVerdictMarkdown(result) // => "✅ **PASS**: no regression of pr against main: pr − main ≥ -0.0272 (95% lower bound) > -0.05 (−margin)."
 */
export function gateVerdictMarkdown(result: NonInferiorityResult): string {
  const level = markdownLevel(result.confidenceLevel);
  const candidate = markdownText(result.candidate);
  const baseline = markdownText(result.baseline);
  const o = result.overall;
  if (result.verdict === 'pass') {
    const strata = result.perStratum ? `, and in all ${result.strata.length} strata` : '';
    return `✅ **PASS**: no regression of ${candidate} against ${baseline}: ${candidate} − ${baseline} ≥ ${number(o.lowerBound)} (${level} lower bound) > ${number(result.threshold)} (−margin)${strata}.`;
  }
  const parts: string[] = [];
  if (o.verdict === 'fail') parts.push(`${level} upper bound ${number(o.upperBound)} < ${number(result.threshold)} (−margin): a drop larger than the margin is shown`);
  else if (o.verdict === 'inconclusive') {
    const items = o.itemsNeeded != null ? `; about ${o.itemsNeeded} items would ${o.estimate < result.threshold ? 'show the drop' : 'let it pass'}` : '';
    // As the terminal headline: a bound above −margin on an inconclusive check is not a valid one, never "bound ≤ −margin".
    const clause =
      o.lowerBound > result.threshold
        ? `no valid ${level} lower bound (the computed ${number(o.lowerBound)} would clear ${number(result.threshold)}; see the reason)`
        : Number.isNaN(o.upperBound)
          ? `${level} lower bound ${number(o.lowerBound)} ≤ ${number(result.threshold)} (−margin)`
          : `${level} bounds [${number(o.lowerBound)}, ${number(o.upperBound)}] contain ${number(result.threshold)} (−margin)`;
    parts.push(clause + items);
  }
  const failing = result.strata.filter((c) => c.verdict === 'fail').map((c) => markdownText(c.stratum as string));
  const open = result.strata.filter((c) => c.verdict === 'inconclusive').map((c) => markdownText(c.stratum as string));
  if (failing.length > 0) parts.push(`${failing.length} of ${result.strata.length} strata show a drop beyond the margin (${failing.join(', ')})`);
  if (open.length > 0) parts.push(`${open.length} of ${result.strata.length} strata inconclusive (${open.join(', ')})`);
  if (result.verdict === 'fail') return `❌ **FAIL**: regression shown for ${candidate} against ${baseline}: ${parts.join('; ')}.`;
  return `⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for ${candidate} against ${baseline}: ${parts.join('; ')}.`;
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
      ['check', 'n', 'estimate', `${level} lower`, `${level} upper`, 'threshold', 'verdict'],
      checks.map((c) => [c.stratum === null ? 'overall' : markdownText(c.stratum), String(c.n), number(c.estimate), number(c.lowerBound), Number.isNaN(c.upperBound) ? '-' : number(c.upperBound), number(c.threshold), verdictCell(c.verdict)]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
    ),
  );
  const failures = checks.filter((c) => !c.passed);
  if (failures.length > 0) {
    lines.push('');
    for (const c of failures) lines.push(`- ${c.stratum === null ? 'overall' : markdownText(c.stratum)}: ${markdownText(c.reason)}`);
  }
  const items = `${result.n} paired items${result.dropped > 0 ? ` (${result.dropped} unpaired left out)` : ''}${result.overall.nClusters !== null ? `, ${result.overall.nClusters} clusters resampled` : ''}`;
  const method = `method ${result.method}${result.method === 't' ? '' : `, ${result.nResamples} resamples`}, seed ${markdownText(result.seed)}${result.stratified ? ', resampled within strata' : ''}`;
  lines.push('', `<sub>candidate − baseline on ${items}; passes when the ${criterionBound(result, level, '')} is above −margin, fails when the upper bound is below it, else inconclusive; ${method}. benchplan gate.</sub>`);
  lines.push(...markdownWarnings(result.warnings));
  return markdownDocument(lines);
}
