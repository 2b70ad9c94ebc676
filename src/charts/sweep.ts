import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { CHART_COLORS, finishChartSpec, requireChartField } from './theme.js';

/** One model's expected cost per document as a line in the swept cost: intercept + slope · value. */
export interface CostSweepLine {
  model: string;
  /** Expected cost per document with the swept cost at 0. */
  intercept: number;
  /** Increase in expected cost per document for each unit of the swept cost (its rate per document). */
  slope: number;
}

/** A sweep result, as `benchplan sweep` reports it. */
export interface CostSweepInput {
  /** The outcome kind whose cost is varied, e.g. `fabrication`. */
  vary: string;
  /** The accepted band for that cost [low, high]. */
  band: readonly [number, number];
  /** One line per model; or give `costs` as costSweep returns them (each with its `line`). */
  lines?: readonly CostSweepLine[];
  costs?: ReadonlyArray<{ model: string; line: { intercept: number; slope: number } }>;
  /** Where two models' lines cross: at `value` a and b cost the same. */
  crossings?: ReadonlyArray<{ value: number; models: readonly [string, string] | readonly string[] }>;
  /** The policy's cost for the swept kind, marked on the chart. */
  policyValue?: number;
  /** `data` (no crossing inside the band) or `assumption` (a crossing inside). */
  verdict?: string;
  owner?: string;
  decided?: string;
  /** The swept range to draw [from, to]; default covers the band, the policy and every crossing. */
  range?: readonly [number, number];
}

/**
 * The cost sweep: each model's expected cost per document as the swept cost varies (a straight
 * line, since expected cost is linear in each cost), the accepted band shaded, the policy's
 * value marked, and every crossing (where the ranking flips) marked with its value. A crossing
 * inside the band means the assumption decides the ranking, not the data.
 * @param result `{ vary, band, lines: [{model, intercept, slope}], crossings?, policyValue?, verdict?, owner? }`,
 *   or a costSweep result as is (lines from `costs[].line`, per document).
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no line, or the band is not [low, high].
 * @example costSweepSpec({ vary: 'fabrication', band: [4, 20], lines: [{ model: 'a', intercept: 0.3, slope: 0.01 }, { model: 'b', intercept: 0.2, slope: 0.03 }] })
 */
export function costSweepSpec(input: CostSweepInput): TopLevelSpec {
  const lines = input.lines ?? input.costs?.map((c) => ({ model: c.model, intercept: c.line?.intercept, slope: c.line?.slope }));
  requireChartField('costSweepSpec', Array.isArray(lines) && lines.length > 0, 'needs at least one model line (lines, or costs with a line each)', lines);
  const result = { ...input, lines: lines as CostSweepLine[] };
  requireChartField('costSweepSpec', Array.isArray(result.band) && result.band.length === 2 && result.band[0] <= result.band[1], 'band must be [low, high]', result.band);
  for (const [k, line] of result.lines.entries()) {
    requireChartField('costSweepSpec', typeof line.model === 'string' && Number.isFinite(line.intercept) && Number.isFinite(line.slope), `lines[${k}] needs a model, a finite intercept and slope`, line);
  }
  const crossings = (result.crossings ?? []).filter((c) => Number.isFinite(c.value));
  const [bandLow, bandHigh] = result.band;
  let [from, to] = result.range ?? [0, bandHigh * 1.25];
  if (result.range === undefined) {
    const marks = [bandLow, bandHigh, ...(result.policyValue !== undefined ? [result.policyValue] : []), ...crossings.map((c) => c.value)];
    from = Math.min(0, ...marks);
    to = Math.max(...marks) * 1.15 || 1;
  }
  const steps = 2; // lines are straight: two points each draw them exactly
  const lineRows = result.lines.flatMap((line) =>
    Array.from({ length: steps }, (_, k) => {
      const value = from + ((to - from) * k) / (steps - 1);
      return { model: line.model, value, cost: line.intercept + line.slope * value };
    }),
  );
  const costAt = (model: string, value: number) => {
    const line = result.lines.find((l) => l.model === model);
    return line ? line.intercept + line.slope * value : NaN;
  };
  const crossingRows = crossings
    .filter((c) => c.value >= from && c.value <= to)
    .map((c) => {
      const cost = costAt(String(c.models[0]), c.value);
      const inBand = c.value >= bandLow && c.value <= bandHigh;
      return { value: c.value, cost: Number.isFinite(cost) ? cost : null, label: `${c.models[0]} = ${c.models[1]} at ${formatNumber(c.value)}`, where: inBand ? 'inside the band' : 'outside the band' };
    });
  const x = { field: 'value', type: 'quantitative', title: `cost of one ${result.vary.replace(/_/g, ' ')} (other costs fixed)`, scale: { domain: [from, to], nice: false } };
  const y = { field: 'cost', type: 'quantitative', title: 'expected cost per document' };
  const models = result.lines.map((line) => line.model);
  const layer: object[] = [
    {
      data: { values: [{ low: bandLow, high: bandHigh, label: `accepted band ${formatNumber(bandLow)}–${formatNumber(bandHigh)}` }] },
      layer: [
        { mark: { type: 'rect', color: CHART_COLORS.band, opacity: 0.7 }, encoding: { x: { field: 'low', type: 'quantitative', title: x.title }, x2: { field: 'high' } } },
        { mark: { type: 'text', align: 'left', baseline: 'top', dx: 4, dy: 4, fontSize: 10, color: '#3d5a80' }, encoding: { x: { field: 'low', type: 'quantitative', title: x.title }, y: { value: 0 }, text: { field: 'label' } } },
      ],
    },
    { mark: { type: 'line', strokeWidth: 2.5, clip: true }, encoding: { x, y, color: { field: 'model', type: 'nominal', sort: models, title: null } } },
  ];
  if (result.policyValue !== undefined && Number.isFinite(result.policyValue)) {
    layer.push({
      data: { values: [{ value: result.policyValue, label: `policy: ${formatNumber(result.policyValue)}` }] },
      layer: [
        { mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [4, 3] }, encoding: { x: { field: 'value', type: 'quantitative', title: x.title } } },
        { mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, fontSize: 10 }, encoding: { x: { field: 'value', type: 'quantitative', title: x.title }, y: { value: 'height' }, text: { field: 'label' } } },
      ],
    });
  }
  if (crossingRows.length > 0) {
    // Only the kinds of crossing present get a legend entry.
    const kinds = (['inside the band', 'outside the band'] as const).filter((w) => crossingRows.some((c) => c.where === w));
    const whereScale = { domain: kinds, range: kinds.map((w) => (w === 'inside the band' ? CHART_COLORS.flag : CHART_COLORS.unresolved)) };
    layer.push({
      data: { values: crossingRows },
      layer: [
        {
          mark: { type: 'point', shape: 'diamond', filled: true, size: 110, opacity: 1 },
          encoding: {
            x: { field: 'value', type: 'quantitative', title: x.title },
            y: { field: 'cost', type: 'quantitative', title: y.title },
            fill: { field: 'where', type: 'nominal', title: null, scale: whereScale },
          },
        },
        {
          mark: { type: 'text', align: 'left', baseline: 'top', dx: 6, dy: 4, fontSize: 10 },
          encoding: { x: { field: 'value', type: 'quantitative', title: x.title }, y: { field: 'cost', type: 'quantitative', title: y.title }, text: { field: 'label' } },
        },
      ],
    });
  }
  const verdict =
    result.verdict === 'assumption'
      ? 'a crossing inside the band: the assumption decides the ranking'
      : result.verdict === 'data'
        ? 'no crossing inside the band: the data decides the ranking'
        : undefined;
  const subtitle = [
    'lines: expected cost per document for each model (lower is better); diamonds: ranking flips',
    ...(verdict ? [verdict] : []),
    ...(result.owner ? [`cost policy owned by ${result.owner}${result.decided ? `, decided ${result.decided}` : ''}`] : []),
  ];
  return finishChartSpec({ width: 480, height: 280, data: { values: lineRows }, layer }, { text: `Ranking as the cost of a ${result.vary.replace(/_/g, ' ')} varies`, subtitle });
}
