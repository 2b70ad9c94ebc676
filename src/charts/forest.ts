import type { TopLevelSpec } from 'vega-lite';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** One paired comparison as `benchplan compare` reports it: A − B with an interval. */
export interface ForestPlotPair {
  a: string;
  b: string;
  /** Mean of A − B over the paired items. */
  estimate: number;
  /** [low, high] for A − B; an infinite bound (one-sided) is drawn to the edge. */
  interval?: readonly [number, number];
  /** The library's name for `interval` (a PairComparison); either is accepted. */
  confidenceInterval?: readonly [number, number];
  /** Holm-adjusted p-value, when several pairs were compared. */
  adjustedPValue?: number;
  /** Whether the pair is distinguishable at the chosen level (after Holm), when known. */
  distinguishable?: boolean;
  n?: number;
}

/**
 * A compare result: either one comparison (fields at the top level) or every pair (`pairs`).
 * Only the fields the chart draws are required.
 */
export interface ForestPlotInput {
  pairs?: readonly ForestPlotPair[];
  a?: string;
  b?: string;
  estimate?: number;
  interval?: readonly [number, number];
  confidenceInterval?: readonly [number, number];
  confidenceLevel?: number;
  method?: string;
  /** The unit of the scores, for the axis title (e.g. "points"). */
  unit?: string;
}

function pairsOf(result: ForestPlotInput): readonly ForestPlotPair[] {
  if (result.pairs !== undefined) return result.pairs;
  return [{ a: result.a as string, b: result.b as string, estimate: result.estimate as number, interval: result.interval ?? result.confidenceInterval }];
}

/**
 * A forest plot of paired differences: one row per pair (A − B), the point estimate with its
 * interval, and the zero line. A pair whose interval excludes zero is drawn in colour, one that
 * contains it in grey (with Holm-adjusted results, `distinguishable` decides instead).
 * Use it to see at a glance which candidates the benchmark can tell apart.
 * @param result a `compare` result (CLI JSON or compareModels' CompareModelsResult): one comparison or `{ pairs: [...] }`;
 *   intervals as `interval` or `confidenceInterval`.
 * @returns a vega-lite spec (inline data; render with renderChartSvg / renderChartPng).
 * @throws {TypeError} when a pair lacks its names, estimate or interval.
 * @example forestPlotSpec({ a: 'alpha', b: 'beta', estimate: 0.05, interval: [0.01, 0.09] }).mark // layered: see .layer
 */
export function forestPlotSpec(result: ForestPlotInput): TopLevelSpec {
  const pairs = pairsOf(result);
  requireChartField('forestPlotSpec', Array.isArray(pairs) && pairs.length > 0, 'needs at least one pair', result.pairs);
  const rows = pairs.map((pair, k) => {
    requireChartField('forestPlotSpec', typeof pair.a === 'string' && typeof pair.b === 'string', `pairs[${k}] needs model names a and b`, pair);
    requireChartField('forestPlotSpec', typeof pair.estimate === 'number', `pairs[${k}].estimate must be a number`, pair.estimate);
    const interval = pair.interval ?? pair.confidenceInterval;
    requireChartField('forestPlotSpec', Array.isArray(interval) && interval.length === 2, `pairs[${k}].interval must be [low, high]`, interval);
    const [low, high] = interval as readonly [number, number];
    const excludesZero = low > 0 || high < 0;
    const resolved = pair.distinguishable ?? excludesZero;
    return {
      pair: `${pair.a} − ${pair.b}`,
      estimate: finiteOrNull(pair.estimate),
      low: finiteOrNull(low),
      high: finiteOrNull(high),
      reading: resolved ? 'distinguishable' : 'not distinguishable',
    };
  });
  const finite = rows.flatMap((row) => [row.low, row.high, row.estimate]).filter((x): x is number => x !== null);
  const span = Math.max(...finite.map(Math.abs), 1e-12);
  // One-sided intervals: draw the open end to the edge of the plot.
  for (const row of rows) {
    if (row.low === null && row.estimate !== null) row.low = -span * 1.1;
    if (row.high === null && row.estimate !== null) row.high = span * 1.1;
  }
  const level = result.confidenceLevel ?? 0.95;
  const axisTitle = `difference in mean score, A − B${result.unit ? ` (${result.unit})` : ''}`;
  const y = { field: 'pair', type: 'nominal', sort: null, title: null, axis: { labelLimit: 220 } };
  const color = {
    field: 'reading',
    type: 'nominal',
    title: null,
    scale: { domain: ['distinguishable', 'not distinguishable'], range: [CHART_COLORS.holds, CHART_COLORS.unresolved] },
  };
  return finishChartSpec(
    {
      width: 480,
      height: Math.max(60, 32 * rows.length),
      data: { values: rows },
      layer: [
        { mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: 'quantitative', title: axisTitle } } },
        { mark: { type: 'rule', strokeWidth: 2.5 }, encoding: { y, x: { field: 'low', type: 'quantitative', title: axisTitle }, x2: { field: 'high' }, color } },
        { mark: { type: 'point', filled: true, size: 70, opacity: 1 }, encoding: { y, x: { field: 'estimate', type: 'quantitative', title: axisTitle }, color } },
      ],
    },
    {
      text: 'Paired differences between models',
      subtitle: `point: mean of A − B over the same items; bar: ${Math.round(level * 1000) / 10}% interval${result.method ? ` (${result.method})` : ''}; dashed: no difference`,
    },
  );
}
