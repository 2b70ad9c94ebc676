import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** One status of a labelling session: labels used so far and the sequence's bounds then. */
export interface LabelSequencePoint {
  labelsUsed: number;
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

/** What the chart of a labelling session needs. */
export interface LabelSequenceInput {
  points: readonly LabelSequencePoint[];
  /** The gate's margin m: the line at −m the lower bound must clear. */
  margin: number;
  confidenceLevel: number;
  /** Names for the axis title, e.g. "candidate − current". */
  difference: string;
}

/**
 * The sequence narrowing: the anytime-valid confidence sequence of candidate − baseline (band) and
 * its running estimate (line) against the labels used, with −margin drawn across. The session
 * passes once the band's lower edge is above the line, fails once its upper edge is below it.
 * Bounds that are unknown (null) are not drawn.
 * @param input the statuses in order, the margin, the level and the difference's name.
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no status.
 * @example labelSequenceSpec({ points: [{ labelsUsed: 10, estimate: 0.1, lower: -0.3, upper: 0.4 }], margin: 0.05, confidenceLevel: 0.95, difference: 'B − A' }).title
 * // => { text: 'The confidence sequence as labels arrive' , subtitle: '95% sequence of B − A; the line at −0.05 is −margin' }
 */
export function labelSequenceSpec(input: LabelSequenceInput): TopLevelSpec {
  requireChartField('labelSequenceSpec', Array.isArray(input.points) && input.points.length > 0, 'needs at least one status', input.points);
  const rows = input.points.map((p) => ({ labels: p.labelsUsed, estimate: finiteOrNull(p.estimate), lower: finiteOrNull(p.lower), upper: finiteOrNull(p.upper) }));
  const x = { field: 'labels', type: 'quantitative', title: 'human labels used' };
  const yTitle = input.difference;
  const level = `${Math.round(input.confidenceLevel * 1000) / 10}%`;
  return finishChartSpec(
    {
      width: 420,
      height: 240,
      layer: [
        { data: { values: rows }, mark: { type: 'area', color: CHART_COLORS.band, opacity: 0.9, interpolate: 'step-after' }, encoding: { x, y: { field: 'lower', type: 'quantitative', title: yTitle }, y2: { field: 'upper' } } },
        { data: { values: rows }, mark: { type: 'line', color: CHART_COLORS.holds, strokeWidth: 2, point: true }, encoding: { x, y: { field: 'estimate', type: 'quantitative', title: yTitle } } },
        { data: { values: [{ m: -input.margin }] }, mark: { type: 'rule', color: CHART_COLORS.flag, strokeDash: [5, 4] }, encoding: { y: { field: 'm', type: 'quantitative', title: yTitle } } },
      ],
    },
    { text: 'The confidence sequence as labels arrive', subtitle: `${level} sequence of ${input.difference}; the line at ${formatNumber(-input.margin)} is −margin` },
  );
}
