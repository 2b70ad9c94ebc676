import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { finishGate, inconclusiveEcho, inconclusiveFlag } from './gate-verdict.js';
import { pairScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { readSmallText } from '../data/yaml.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { parseGateState, sequentialGate, type SequentialGateResult } from '../sequential/index.js';
import { emit, numberFlag, seedFlag, toJsonText, warningLines, type Context } from './io.js';
import { monitorSequenceFlag, scoreRangeFlag, sequenceName } from './sequential-flags.js';
import type { LoaderSettingsEcho } from './sources.js';
import { confidenceFlag } from './shared-flags.js';

/** The options `gate` hands over when --sequential is given. */
export interface SequentialGateFlags {
  baseline: string;
  candidate: string;
  margin: string;
  confidence: string;
  state?: string;
  label?: string;
  scoreRange?: string;
  sequence?: string;
  seed?: string;
  inconclusive?: string;
  cluster?: boolean;
  dropUnpaired?: boolean;
  perStratum?: boolean;
  stratified?: boolean;
}

/** The readable report of one sequential look. */
export function formatSequentialGate(r: SequentialGateResult): string {
  const out: string[] = [];
  const verdict = r.verdict.toUpperCase();
  out.push(`${verdict}: look ${r.look} of a sequential gate on ${r.candidate} − ${r.baseline} (margin ${formatNumber(r.margin)}, ${r.items} items${r.cluster ? ` in ${r.units} clusters` : ''}).`);
  out.push(
    `This look's level α_${r.look} = ${formatNumber(r.alpha, 3)} (α/(k(k+1)) with α = ${formatNumber(1 - r.confidenceLevel)}); all ${r.look} looks so far spent ${formatNumber(r.alphaSpent, 3)} of it, ` +
      `so the chance that any look ever passes a candidate worse than −${formatNumber(r.margin)} stays ≤ ${formatPercent(1 - r.confidenceLevel, 0)}.`,
  );
  out.push(
    `mean ${r.candidate} − ${r.baseline} = ${formatNumber(r.estimate)}; one-sided ${formatPercent(1 - r.alpha, 2)} lower bound ${formatNumber(r.lowerBound)} ${r.passed ? '>' : '≤'} −${formatNumber(r.margin)}` +
      `${Number.isNaN(r.upperBound) ? '' : `, upper bound ${formatNumber(r.upperBound)} ${r.verdict === 'fail' ? '<' : '≥'} −${formatNumber(r.margin)}${r.verdict === 'fail' ? ' (a drop beyond the margin is shown)' : ''}`} ` +
      `(${sequenceName(r.methodUsed)} sequence${r.methodRequested === 'auto' ? ' by --sequence auto' : ''}, over the ${r.cluster ? 'clusters' : 'items'} in a random order by --seed ${r.seed}).`,
  );
  out.push('');
  out.push(
    formatTable(
      ['look', 'label', 'candidate', 'items', 'mean', 'lower bound', 'α_k', 'seed', 'result'],
      r.state.looks.map((l) => [String(l.look), l.label ?? '-', l.candidate, String(l.items), l.estimate === null ? '-' : formatNumber(l.estimate), l.lowerBound === null ? '-' : formatNumber(l.lowerBound), formatNumber(l.alpha, 3), l.seed ?? 'file order', l.verdict ?? (l.passed ? 'pass' : 'fail')]),
      { align: ['right', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'left'] },
    ),
  );
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

/**
 * `gate --sequential --state FILE`: reads the state (absent file = first look), runs the look,
 * saves the state with this look appended (atomically, whatever the verdict), prints, and exits
 * 1 on fail, 3 on inconclusive (finishGate).
 */
export function runSequentialGate(table: ScoresTable, scores: string, opts: SequentialGateFlags, ctx: Context, loader: LoaderSettingsEcho = {}): void {
  if (opts.state === undefined) throw new InputError('--sequential needs --state FILE: the file that keeps every look (create it by naming a new path)', { file: '--state' });
  if (opts.perStratum || opts.stratified) throw new InputError('is not supported with --sequential (one sequence over all items)', { file: opts.perStratum ? '--per-stratum' : '--stratified' });
  const margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
  const confidenceLevel = confidenceFlag(opts.confidence);
  const scoreRange = scoreRangeFlag(opts.scoreRange);
  const sequence = monitorSequenceFlag(opts.sequence);
  const seed = seedFlag(opts.seed);
  if (opts.label !== undefined && opts.label.trim() === '') throw new InputError('must name the look (e.g. the commit id), or be left out', { file: '--label', value: opts.label });
  const state = existsSync(opts.state) ? parseGateState(readSmallText(opts.state), opts.state) : null;
  if (opts.cluster && !table.hasCluster) throw new InputError('--cluster needs a "cluster" column', { file: scores });
  const paired = pairScores(table, opts.candidate, opts.baseline, { dropUnpaired: Boolean(opts.dropUnpaired) });
  const result = sequentialGate(paired, { margin, confidenceLevel, scoreRange, state, stateSource: opts.state, label: opts.label, cluster: Boolean(opts.cluster), sequence, seed });
  writeFileAtomic(opts.state, toJsonText(result.state));
  const inconclusiveAs = inconclusiveFlag(opts.inconclusive);
  const report = { ...result, ...loader, ...inconclusiveEcho(inconclusiveAs) };
  emit(ctx, report, () => formatSequentialGate(result));
  const headline =
    result.verdict === 'fail'
      ? `look ${result.look}, upper bound ${formatNumber(result.upperBound)} < −${formatNumber(margin)}: a drop beyond the margin is shown`
      : `look ${result.look}, lower bound ${formatNumber(result.lowerBound)} ${result.passed ? '>' : '≤'} −${formatNumber(margin)}${Number.isNaN(result.upperBound) ? '' : `, upper bound ${formatNumber(result.upperBound)} ≥ −${formatNumber(margin)}`}`;
  finishGate(ctx, result.verdict, inconclusiveAs, headline, report);
}
