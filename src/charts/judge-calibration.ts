import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** One judge-score bin, as `benchplan judge --json` gives it in `calibration[]`. */
export interface JudgeCalibrationBin {
  low: number;
  high: number;
  n: number;
  /** The judge's mean score in the bin. */
  judgeMean: number;
  /** The humans' mean (their rate, for 0/1 labels) in the bin, with its interval. */
  humanMean: number;
  confidenceInterval: readonly [number, number];
}

/**
 * The judge's calibration: the humans' rate (or mean) per judge-score bin, a point at the bin's
 * mean judge score with its interval as a vertical line and the bin's size as a label. When the
 * judge's scores lie in [0, 1] the diagonal (human rate = judge score: a calibrated judge) is
 * drawn; points below it are bins where the judge says "good" more often than the humans do.
 * @param input `{ bins }` from `benchplan judge --json` (`calibration`).
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no bin or a bin lacks its numbers.
 * @example judgeCalibrationSpec({ bins: [{ low: 0, high: 0, n: 60, judgeMean: 0, humanMean: 0.25, confidenceInterval: [0.16, 0.37] }, { low: 1, high: 1, n: 300, judgeMean: 1, humanMean: 0.9, confidenceInterval: [0.86, 0.93] }] }).layer.length // => 4
 */
export function judgeCalibrationSpec(input: { bins: readonly JudgeCalibrationBin[] }): TopLevelSpec & { layer: unknown[] } {
  requireChartField('judgeCalibrationSpec', Array.isArray(input.bins) && input.bins.length > 0, 'needs at least one calibration bin', input.bins);
  const rows = input.bins.map((b, k) => {
    requireChartField('judgeCalibrationSpec', typeof b.judgeMean === 'number' && typeof b.humanMean === 'number' && Array.isArray(b.confidenceInterval), `bins[${k}] needs judgeMean, humanMean and confidenceInterval`, b);
    return {
      judge: finiteOrNull(b.judgeMean),
      human: finiteOrNull(b.humanMean),
      low: finiteOrNull(b.confidenceInterval[0]),
      high: finiteOrNull(b.confidenceInterval[1]),
      label: `n = ${b.n}`,
      range: b.low === b.high ? formatNumber(b.low) : `${formatNumber(b.low)}–${formatNumber(b.high)}`,
    };
  });
  const unit = input.bins.every((b) => b.low >= 0 && b.high <= 1);
  const values = rows.flatMap((r) => [r.judge ?? 0, r.low ?? 0, r.high ?? 0, r.human ?? 0]);
  const domain = unit ? [0, 1] : [Math.min(...values), Math.max(...values)];
  const x = { field: 'judge', type: 'quantitative', title: 'judge score (bin mean)', scale: { domain: unit ? [0, 1] : [Math.min(...rows.map((r) => r.judge ?? 0)), Math.max(...rows.map((r) => r.judge ?? 0))], nice: !unit } };
  const y = { field: 'human', type: 'quantitative', title: 'human rate (mean) in the bin', scale: { domain, nice: !unit } };
  const layer: unknown[] = [
    { mark: { type: 'rule', color: '#222', strokeWidth: 1.5 }, encoding: { x, y: { field: 'low', type: 'quantitative', title: y.title, scale: y.scale }, y2: { field: 'high' } } },
    { mark: { type: 'point', filled: true, size: 70, color: CHART_COLORS.holds }, encoding: { x, y, tooltip: [{ field: 'range', title: 'judge scores' }, { field: 'label', title: 'rows' }] } },
    { mark: { type: 'text', align: 'left', dx: 6, dy: -6, fontSize: 10, color: '#222' }, encoding: { x, y, text: { field: 'label' } } },
  ];
  if (unit) layer.unshift({ data: { values: [{ judge: 0, human: 0 }, { judge: 1, human: 1 }] }, mark: { type: 'line', color: CHART_COLORS.reference, strokeDash: [4, 3], strokeWidth: 1.2 }, encoding: { x, y } });
  return finishChartSpec(
    { width: 360, height: 300, data: { values: rows }, layer },
    {
      text: 'Judge calibration against the human labels',
      subtitle: [unit ? 'points: the humans’ rate per judge-score bin; lines: its interval; dashed: a calibrated judge' : 'points: the humans’ mean per judge-score bin; lines: its interval'],
    },
  ) as TopLevelSpec & { layer: unknown[] };
}
