import { sizingCurveSpec, writeChart } from '../charts/index.js';
import { InputError } from '../data/errors.js';
import type { PairedScores } from '../data/pairing.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { sizeFromPilot, type PilotSizing, type PilotSizingOptions } from '../sizing/pilot.js';
import { autoSequenceMethod, expectedItemsToDecision, monitorUnits, scoreRangeOf, type ExpectedItemsResult, type SequenceMethod } from '../sequential/index.js';
import { emit, numberFlag, seedFlag, type Context, budgetFlag, resamplesFlag } from './io.js';
import { monitorSequenceFlag, scoreRangeFlag, sequenceName } from './sequential-flags.js';

/** What `size --sequential` adds to the sizing report. */
export interface SequentialSizing extends ExpectedItemsResult {
  /** The sequence simulated (with 'auto', the one autoSequenceMethod chose, as monitor would); the same as `sequence`. */
  methodUsed: SequenceMethod;
  /** 'auto' or the sequence asked for. */
  methodRequested: SequenceMethod | 'auto';
  /** Why that sequence. */
  methodReason: string;
  unit: 'item' | 'cluster';
  /** Items per unit in the pilot (1 for items). */
  itemsPerUnit: number;
  /** The fixed-n counts from the same pilot, in items: the interval rule and the power count. */
  fixedItems: number;
  fixedItemsForPower: number;
  /** Per gap, mean items to a decision (meanUnits × itemsPerUnit) and its ratio to fixedItemsForPower. */
  items: Array<{ gap: number; meanItems: number; ratioToFixedForPower: number }>;
}

/** The flags `size` hands over with --sequential. */
export interface SequentialSizeFlags {
  gap?: string;
  simulations?: string;
  maxItems?: string;
  seed?: string;
  scoreRange?: string;
  sequence?: string;
  ignoreClusters?: boolean;
  chart?: string;
}

/** Runs the stopping-time simulation from the pilot, beside the fixed-n sizing already done. */
export function sequentialSizing(paired: PairedScores, sizing: PilotSizing, flags: SequentialSizeFlags): SequentialSizing {
  const { differenceRange } = scoreRangeOf(paired, scoreRangeFlag(flags.scoreRange));
  const gaps = flags.gap === undefined ? [sizing.mde, 2 * sizing.mde] : flags.gap.split(',').map((g) => numberFlag('--gap', g) as number);
  const cluster = paired.cluster !== null && !flags.ignoreClusters;
  const units = monitorUnits(paired, undefined, cluster);
  const itemsPerUnit = units.items.reduce((s, x) => s + x, 0) / units.values.length;
  const fixedForPower = sizing.nForPower;
  const maxItems = budgetFlag('--max-items', flags.maxItems, 1) ?? Math.max(100, 4 * (Number.isFinite(fixedForPower) ? fixedForPower : 1000));
  const simulations = resamplesFlag(flags.simulations ?? '1000', 1, '--simulations') as number;
  const methodRequested = monitorSequenceFlag(flags.sequence);
  const choice = methodRequested === 'auto' ? autoSequenceMethod(units) : { method: methodRequested, reason: 'asked for' };
  let result: ExpectedItemsResult;
  try {
    result = expectedItemsToDecision(units.values, {
      range: differenceRange,
      gaps,
      mde: sizing.mde,
      confidenceLevel: sizing.confidenceLevel,
      simulations,
      maxUnits: Math.max(1, Math.round(maxItems / itemsPerUnit)),
      seed: seedFlag(flags.seed),
      method: choice.method,
    });
  } catch (error) {
    if (error instanceof RangeError) throw new InputError(error.message, { file: '--gap', value: flags.gap ?? gaps.join(',') });
    throw error;
  }
  return {
    ...result,
    methodUsed: choice.method,
    methodRequested,
    methodReason: choice.reason,
    unit: cluster ? 'cluster' : 'item',
    itemsPerUnit,
    fixedItems: sizing.n,
    fixedItemsForPower: fixedForPower,
    items: result.rows.map((r) => ({ gap: r.gap, meanItems: r.meanUnits * itemsPerUnit, ratioToFixedForPower: (r.meanUnits * itemsPerUnit) / fixedForPower })),
  };
}

/** The readable block: expected items to a decision against the fixed-n counts. */
export function formatSequentialSizing(s: SequentialSizing, sizing: PilotSizing): string {
  const out: string[] = [''];
  const unitWord = s.unit === 'cluster' ? `; each unit a whole cluster of ${formatNumber(s.itemsPerUnit)} items on average` : '';
  out.push(
    `Sequentially (an anytime-valid ${formatPercent(s.confidenceLevel, 0)} ${sequenceName(s.sequence)} sequence${s.methodRequested === 'auto' ? ' (by --sequence auto)' : ''} read after every ${s.unit}, stopping at the first verdict; ${s.simulations} simulated runs per gap from the pilot tilted to that gap, capped at ${formatNumber(s.maxUnits * s.itemsPerUnit, 4)} items${unitWord}):`,
  );
  out.push(
    formatTable(
      ['true gap', 'mean items', 'median', '90th pct', 'A better', 'B better', 'equivalent', 'undecided', `vs fixed n = ${s.fixedItemsForPower} (${formatPercent(sizing.power, 0)} power)`],
      s.rows.map((r, k) => [
        formatNumber(r.gap),
        `${formatNumber(s.items[k].meanItems, 4)} ± ${formatNumber(1.96 * r.meanUnitsStandardError * s.itemsPerUnit, 2)}`,
        formatNumber(r.medianUnits * s.itemsPerUnit, 4),
        formatNumber(r.p90Units * s.itemsPerUnit, 4),
        formatPercent(r.gap >= 0 ? r.correct : r.wrong),
        formatPercent(r.gap >= 0 ? r.wrong : r.correct),
        formatPercent(r.gap === 0 ? r.correct : r.equivalent),
        formatPercent(r.undecided),
        `${formatPercent(s.items[k].ratioToFixedForPower, 0)}`,
      ]),
      { align: ['right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'] },
    ),
  );
  out.push(`The fixed design must pick n before seeing data (${s.fixedItemsForPower} items for ${formatPercent(sizing.power, 0)} power at a gap of ${formatNumber(sizing.mde)}); the sequence stops early when the gap is larger and runs on when it is smaller.`);
  return out.join('\n');
}

/**
 * `size --sequential`: the fixed-n sizing (as `size` computes it), the simulation beside it, one
 * report (JSON: the sizing with a `sequential` field), and the chart when asked.
 */
export async function runSequentialSize(
  ctx: Context,
  paired: PairedScores,
  settings: PilotSizingOptions,
  flags: SequentialSizeFlags,
  formatSize: (r: PilotSizing) => string,
): Promise<void> {
  const result = sizeFromPilot(paired, settings);
  const sequential = sequentialSizing(paired, result, flags);
  emit(ctx, { ...result, sequential }, () => `${formatSize(result)}\n${formatSequentialSizing(sequential, result)}`);
  if (flags.chart !== undefined) await writeChart(sizingCurveSpec(result), flags.chart);
}
