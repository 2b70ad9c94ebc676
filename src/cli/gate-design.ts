import { InputError } from '../data/errors.js';
import type { PlanEcho } from './bind-plan.js';
import { finishGate, inconclusiveEcho, inconclusiveFlag } from './gate-verdict.js';
import { formatNumber, formatTable } from '../report/table.js';
import { designGate, type DesignGateResult } from '../selection/index.js';
import { readDesignLabels } from '../data/design-labels.js';
import { auditLine } from '../report/design-audit.js';
import { emit, numberFlag, warningLines, type Context } from './io.js';
import { confidenceFlag } from './shared-flags.js';

/** `benchplan gate LIST --design FILE --json`: the settings echoed with {@link DesignGateResult}. */
export interface GateDesignReport extends DesignGateResult, PlanEcho {
  scores: string;
  design: string;
  pool: string;
  method: string;
  sampling: string;
  poolSize: number;
  labelled: number;
  chosenUnlabelled: number;
}

/** Gate flags that resample or read tool files; the design gate is analytic on a labelled select list. */
const UNSUPPORTED: ReadonlyArray<readonly [string, string]> = [
  ['sequential', '--sequential'],
  ['state', '--state'],
  ['label', '--label'],
  ['scoreRange', '--score-range'],
  ['perStratum', '--per-stratum'],
  ['cluster', '--cluster'],
  ['stratified', '--stratified'],
  ['dropUnpaired', '--drop-unpaired'],
  ['inputFormat', '--input-format'],
  ['modelName', '--model-name'],
  ['allowChangedItems', '--allow-changed-items'],
  ['itemKey', '--item-key'],
  ['score', '--score'],
  ['scorer', '--scorer'],
  ['epochReducer', '--epoch-reducer'],
  ['metric', '--metric'],
  ['filter', '--filter'],
  ['stratumKey', '--stratum-key'],
  ['clusterKey', '--cluster-key'],
];

/**
 * The hook gate.ts calls for --design: reads the labelled select list and its design, checks the
 * flags, runs {@link designGate} and exits 1 (fail: the upper bound is below −margin) or 3
 * (inconclusive) when the lower bound is not above −margin (finishGate).
 */
export function gateWithDesign(ctx: Context, inputs: readonly string[], opts: Record<string, unknown>, echo: PlanEcho = {}): void {
  const designPath = opts.design as string;
  if (inputs.length !== 1) throw new InputError(`--design reads one labelled list (the one select wrote), got ${inputs.length} inputs`, { file: '--design', value: inputs.join(' ') });
  for (const [key, flag] of UNSUPPORTED) {
    const v = opts[key];
    if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) throw new InputError('--design estimates analytically from the design file; this option does not apply', { file: flag, value: v === true ? undefined : v });
  }
  if (opts.method !== undefined && opts.method !== 'auto') throw new InputError('--design uses the design estimator (normal bound); leave out --method', { file: '--method', value: opts.method });
  const margin = numberFlag('--margin', opts.margin as string, { min: 0 }) as number;
  const confidenceLevel = confidenceFlag(opts.confidence as string | undefined, 0.5);
  const scoresPath = inputs[0];
  const { design, difference, chosenUnlabelled, warnings } = readDesignLabels(scoresPath, designPath);
  const models = [design.a, design.b];
  if (opts.baseline === undefined || opts.candidate === undefined) {
    throw new InputError(`--design needs --baseline and --candidate: the design's two models, ${design.a} and ${design.b}`, { file: opts.baseline === undefined ? '--baseline' : '--candidate' });
  }
  for (const [flag, value] of [['--baseline', opts.baseline], ['--candidate', opts.candidate]] as const) {
    if (!models.includes(value as string)) throw new InputError(`not one of the design's models (${design.a}, ${design.b})`, { file: flag, value });
  }
  if (opts.baseline === opts.candidate) throw new InputError('--baseline and --candidate must be different models', { file: '--candidate', value: opts.candidate });
  const result = designGate(design, difference, { baseline: opts.baseline as string, candidate: opts.candidate as string, margin, confidenceLevel });
  const inconclusiveAs = inconclusiveFlag(opts.inconclusive as string | undefined);
  const report: GateDesignReport = {
    scores: scoresPath,
    design: designPath,
    pool: design.pool,
    method: design.method,
    sampling: design.sampling,
    poolSize: design.poolSize,
    labelled: difference.size,
    chosenUnlabelled: chosenUnlabelled.length,
    ...result,
    warnings: [...warnings, ...result.warnings],
    ...inconclusiveEcho(inconclusiveAs),
    ...echo,
  };
  emit(ctx, report, () => formatGateDesign(report));
  finishGate(ctx, report.verdict, inconclusiveAs, headline(report), report);
}

function levelOf(x: number): string {
  return `${+(x * 100).toFixed(4)}%`;
}

/** One line naming the bound, −margin and, after a failed audit, that the assumption failed. */
function headline(r: GateDesignReport): string {
  const bound = Number.isFinite(r.lowerBound) ? formatNumber(r.lowerBound) : 'not estimable';
  const cmp = r.passed ? '>' : '≤';
  const core = !Number.isFinite(r.lowerBound)
    ? `${r.candidate} − ${r.baseline} ${levelOf(r.confidenceLevel)} lower bound not estimable (see the warnings)`
    : r.verdict === 'fail'
      ? `${r.candidate} − ${r.baseline} ${levelOf(r.confidenceLevel)} upper bound ${formatNumber(r.upperBound)} < ${formatNumber(-r.margin)} (−margin)`
      : `${r.candidate} − ${r.baseline} ${levelOf(r.confidenceLevel)} lower bound ${bound} ${cmp} ${formatNumber(-r.margin)} (−margin)${r.verdict === 'inconclusive' ? `, upper bound ${formatNumber(r.upperBound)} ≥ it` : ''}`;
  const audit = r.assumptionFailed ? `; the audit FAILED (${r.audit.differing} of ${r.audit.audited} agreeing items scored differently): "same output ⇒ same score" does not hold, the bound uses the audit for the agreeing cells` : '';
  const head = r.verdict === 'pass' ? 'no regression' : r.verdict === 'fail' ? 'regression shown' : 'neither a regression nor its absence is shown';
  return `${head}: ${core}${audit}`;
}

function formatGateDesign(r: GateDesignReport): string {
  const out: string[] = [];
  out.push(`${r.verdict.toUpperCase()}  ${headline(r)}`, '');
  out.push(`candidate ${r.candidate} vs baseline ${r.baseline} over all ${r.poolSize} items of the pool ${r.pool}, from ${r.labelled} labelled items (${r.method} design, ${r.estimator}${r.lambda !== null && r.lambda > 0 ? `, judge λ = ${formatNumber(r.lambda, 3)}` : ''})`);
  out.push(`passes when the one-sided ${levelOf(r.confidenceLevel)} lower bound (the lower end of compare --design's ${levelOf(r.twoSidedLevel)} interval) is above −margin (${formatNumber(-r.margin)}), fails when the upper end is below it, else inconclusive`);
  out.push(
    formatTable(
      ['C − B', `${levelOf(r.confidenceLevel)} lower`, `${levelOf(r.confidenceLevel)} upper`, 'threshold', 'SE', 'labelled', 'pool', 'verdict'],
      [[formatNumber(r.estimate), Number.isFinite(r.lowerBound) ? formatNumber(r.lowerBound) : '—', Number.isFinite(r.upperBound) ? formatNumber(r.upperBound) : '—', formatNumber(-r.margin), formatNumber(r.standardError), String(r.labelled), String(r.poolSize), r.verdict === 'pass' ? 'pass' : r.verdict.toUpperCase()]],
      { align: ['right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'] },
    ),
  );
  out.push(formatTable(['cell', r.sampling === 'cluster' ? 'clusters' : 'items', 'labelled', 'mean C − B'], r.cells.map((c) => [c.cell, String(c.size), String(c.labelled), formatNumber(c.mean)]), { align: ['left', 'right', 'right', 'right'] }));
  out.push(auditLine(r.audit));
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
