import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** One point of the sizing curve: the items needed to resolve a gap of `mde`. */
export interface SizingCurvePoint {
  /** The minimum detectable effect (the smallest gap you would act on), in score units. */
  mde: number;
  /** Items needed at the pilot's variance. */
  n: number;
  /** Items needed at the lower / upper limit of the pilot variance's confidence interval. */
  nLower?: number;
  nUpper?: number;
}

/** A sizing result as `benchplan size` reports it, with the curve n(mde). */
export interface SizingCurveInput {
  curve: readonly SizingCurvePoint[];
  /** The target gap, marked on the curve. */
  mde?: number;
  /** Items needed at the target gap (default: read off the curve). */
  n?: number;
  /** The budget (items you can afford), drawn as a horizontal line; null: none. */
  budget?: number | null;
  /** The gap the budget resolves, marked where the budget line meets the curve; null: none. */
  mdeAtBudget?: number | null;
  confidenceLevel?: number;
  /** The unit of the scores (e.g. "points"), for the axis title. */
  unit?: string;
}

/**
 * The sizing curve: items needed n as a function of the smallest gap you would act on (mde),
 * n = varianceOfDifference · (2z / mde)², with the range the pilot's uncertainty about its own
 * variance allows shaded, the budget drawn across and the target gap marked. The curve's
 * steepness on the left is the chapter's lesson: halving the gap costs four times the items.
 * @param result a sizing result with `curve: [{mde, n, nLower?, nUpper?}]` (mde ascending or not).
 * @returns a vega-lite spec.
 * @throws {TypeError} when the curve is empty or a point lacks mde or n.
 * @example sizingCurveSpec({ curve: [{ mde: 2, n: 1648 }, { mde: 5, n: 264 }], mde: 5, budget: 400 })
 */
export function sizingCurveSpec(result: SizingCurveInput): TopLevelSpec {
  requireChartField('sizingCurveSpec', Array.isArray(result.curve) && result.curve.length > 1, 'needs a curve of at least two points', result.curve);
  const rows = result.curve.map((point, k) => {
    requireChartField('sizingCurveSpec', typeof point.mde === 'number' && typeof point.n === 'number', `curve[${k}] needs numbers mde and n`, point);
    // A limit that is unknown (absent or NaN) collapses the band onto the curve there.
    const limit = (x: number | undefined) => finiteOrNull(x !== undefined && Number.isFinite(x) ? x : point.n);
    return { mde: point.mde, n: finiteOrNull(point.n), nLower: limit(point.nLower), nUpper: limit(point.nUpper) };
  });
  rows.sort((p, q) => p.mde - q.mde);
  const hasBand = result.curve.some((point) => Number.isFinite(point.nUpper) || Number.isFinite(point.nLower));
  const unit = result.unit ? ` (${result.unit})` : '';
  const x = { field: 'mde', type: 'quantitative', title: `smallest gap you would act on${unit}` };
  const yTitle = 'items needed';
  const layer: object[] = [];
  if (hasBand) {
    layer.push({
      mark: { type: 'area', color: CHART_COLORS.band, opacity: 0.9 },
      encoding: { x, y: { field: 'nLower', type: 'quantitative', title: yTitle }, y2: { field: 'nUpper' } },
    });
  }
  layer.push({ mark: { type: 'line', color: CHART_COLORS.holds, strokeWidth: 2.5 }, encoding: { x, y: { field: 'n', type: 'quantitative', title: yTitle } } });
  const notes: string[] = [];
  const budget = typeof result.budget === 'number' && Number.isFinite(result.budget) ? result.budget : undefined;
  if (budget !== undefined) {
    layer.push({
      data: { values: [{ budget, label: `budget: ${formatNumber(budget)} items` }] },
      layer: [
        { mark: { type: 'rule', color: CHART_COLORS.flag, strokeDash: [5, 4] }, encoding: { y: { field: 'budget', type: 'quantitative', title: yTitle } } },
        {
          mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -3, color: CHART_COLORS.flag, fontSize: 11 },
          encoding: { y: { field: 'budget', type: 'quantitative', title: yTitle }, x: { value: 'width' }, text: { field: 'label' } },
        },
      ],
    });
  }
  if (result.mde !== undefined && Number.isFinite(result.mde)) {
    const n = result.n ?? interpolate(rows, result.mde);
    const label = Number.isFinite(n) ? `${formatNumber(n)} items for a gap of ${formatNumber(result.mde)}` : `target gap ${formatNumber(result.mde)}`;
    notes.push(label);
    layer.push({
      data: { values: [{ mde: result.mde, n: finiteOrNull(n), label }] },
      layer: [
        { mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [2, 3] }, encoding: { x: { field: 'mde', type: 'quantitative', title: x.title } } },
        { mark: { type: 'point', filled: true, size: 80, color: CHART_COLORS.reference }, encoding: { x: { field: 'mde', type: 'quantitative', title: x.title }, y: { field: 'n', type: 'quantitative', title: yTitle } } },
        {
          mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 6, dy: -4, fontSize: 11 },
          encoding: { x: { field: 'mde', type: 'quantitative', title: x.title }, y: { field: 'n', type: 'quantitative', title: yTitle }, text: { field: 'label' } },
        },
      ],
    });
  }
  if (typeof result.mdeAtBudget === 'number' && Number.isFinite(result.mdeAtBudget) && budget !== undefined) {
    notes.push(`${formatNumber(budget)} items resolve ${formatNumber(result.mdeAtBudget)}`);
    layer.push({
      data: { values: [{ mde: result.mdeAtBudget, n: budget }] },
      mark: { type: 'point', shape: 'diamond', filled: true, size: 90, color: CHART_COLORS.flag },
      encoding: { x: { field: 'mde', type: 'quantitative', title: x.title }, y: { field: 'n', type: 'quantitative', title: yTitle } },
    });
  }
  const level = result.confidenceLevel ?? 0.95;
  const subtitle = [
    `items for a ${Math.round(level * 1000) / 10}% paired interval no wider than the gap; n grows as 1 / gap²`,
    ...(hasBand ? ['shaded: the range the pilot’s own uncertainty about its variance allows'] : []),
    ...(notes.length ? [notes.join('; ')] : []),
  ];
  return finishChartSpec({ width: 480, height: 260, data: { values: rows }, layer }, { text: 'Items needed against the gap to detect', subtitle });
}

/** Linear interpolation of n at mde on the sorted curve (for the marker when n is not given). */
function interpolate(rows: ReadonlyArray<{ mde: number; n: number | null }>, mde: number): number {
  for (let k = 1; k < rows.length; k++) {
    const p = rows[k - 1];
    const q = rows[k];
    if (mde >= p.mde && mde <= q.mde && p.n !== null && q.n !== null) return p.n + ((q.n - p.n) * (mde - p.mde)) / (q.mde - p.mde || 1);
  }
  return NaN;
}
