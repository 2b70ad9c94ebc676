import { InputError } from '../data/errors.js';
import type { AnnotationOrder } from '../data/annotation-order.js';
import type { PairedScores } from '../data/pairing.js';
import type { Arrival, MonitorLook, SequenceMethod, SequentialVerdict } from '../sequential/index.js';
import { formatNumber } from '../report/table.js';

/** The flag of the scores' bounds, shared by monitor, gate --sequential and size --sequential. */
export const SCORE_RANGE_OPTION = ['--score-range <low,high>', 'the range scores can take (default [0, 1], checked); differences then lie in [low − high, high − low]'] as const;

/** The flag choosing the sequence, shared by monitor, gate --sequential and size --sequential: auto by default (see autoSequenceMethod). */
export const SEQUENCE_OPTION = [
  '--sequence <method>',
  'the anytime-valid sequence: auto (see docs/monitor.md), agrapa (betting with aGRAPA bets), betting (hedged plug-in bets) or eb (empirical Bernstein, closed form)',
  'auto',
] as const;

/** Kept for monitor's registration: the same flag. */
export const MONITOR_SEQUENCE_OPTION = SEQUENCE_OPTION;

/** Parses `--sequence auto|agrapa|betting|eb` (absent: auto). */
export function monitorSequenceFlag(raw: string | undefined): SequenceMethod | 'auto' {
  return raw === undefined || raw === 'auto' ? 'auto' : sequenceFlag(raw);
}

/** Parses one named sequence: `eb` (or `empirical-bernstein`), `betting`, `agrapa`. */
export function sequenceFlag(raw: string, message = 'must be auto, agrapa, betting or eb'): SequenceMethod {
  if (raw === 'eb' || raw === 'empirical-bernstein') return 'empirical-bernstein';
  if (raw === 'betting' || raw === 'agrapa') return raw;
  throw new InputError(message, { file: '--sequence', value: raw });
}

/** A sequence's name in a sentence: 'aGRAPA betting', 'hedged betting', 'empirical Bernstein'. */
export function sequenceName(method: SequenceMethod): string {
  return method === 'agrapa' ? 'aGRAPA betting' : method === 'betting' ? 'hedged betting' : 'empirical Bernstein';
}

/** Parses `--score-range LOW,HIGH`. */
export function scoreRangeFlag(raw: string | undefined): [number, number] | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(',').map((p) => p.trim());
  const nums = parts.map((p) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(p) ? Number(p) : NaN));
  if (nums.length !== 2 || !nums.every(Number.isFinite) || !(nums[0] < nums[1])) {
    throw new InputError('must be two numbers LOW,HIGH with LOW < HIGH', { file: '--score-range', value: raw });
  }
  // Paired differences lie in [LOW − HIGH, HIGH − LOW]: a width past the largest double (±1e308) would make them infinite.
  if (!Number.isFinite(nums[1] - nums[0])) {
    throw new InputError(`is too wide: differences of paired scores span HIGH − LOW = ${nums[1] - nums[0]}, beyond the largest finite number; give the range the scores can really take`, { file: '--score-range', value: raw });
  }
  return [nums[0], nums[1]];
}

/** The arrival of the paired items from the loaded order columns. */
export function arrivalOf(paired: PairedScores, order: AnnotationOrder): Arrival {
  return {
    position: Float64Array.from(paired.items, (id) => order.order.get(id) ?? Infinity),
    batch: order.hasBatch ? Int32Array.from(paired.items, (id) => order.batch.get(id) ?? 0) : null,
  };
}

/** A verdict in words: `resolved: A better`, `continue (≈ 95 more items)`. */
export function verdictText(verdict: SequentialVerdict, a: string, b: string, mde: number | null, look?: Pick<MonitorLook, 'itemsStillNeeded' | 'unitsStillNeeded'>, unit = 'items'): string {
  switch (verdict) {
    case 'a-better':
      return `resolved: ${a} better`;
    case 'b-better':
      return `resolved: ${b} better`;
    case 'equivalent':
      return `resolved: equivalent within ±${formatNumber((mde as number) / 2)}`;
    case 'inconsistent':
      return 'inconsistent (sequence empty)';
    default: {
      const more = unit === 'items' ? look?.itemsStillNeeded : look?.unitsStillNeeded;
      if (more === undefined || more === null) return 'continue';
      return more === Infinity ? 'continue (no verdict in sight at this estimate)' : `continue (≈ ${more} more ${unit})`;
    }
  }
}
