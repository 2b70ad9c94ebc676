import type { TopLevelSpec } from 'vega-lite';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** A drift estimate with its interval (attributeDrift's `model` and `instrument`). */
export interface DriftChartEstimate {
  estimate: number;
  confidenceInterval: readonly [number, number];
}

/** One quarter's drift attribution: the system's change and the test's change. */
export interface DriftChartPeriod {
  /** e.g. `2026Q3 → 2026Q4`. */
  label: string;
  /** Model drift: this period's system minus the last one's, on the previous (frozen) version. */
  model: DriftChartEstimate;
  /** Instrument drift: this period's system on the current version minus on the previous one. */
  instrument: DriftChartEstimate;
}

/** Drift over one or more periods; or one attributeDrift result with `previousVersion` / `currentVersion`. */
export interface DriftChartInput {
  periods?: readonly DriftChartPeriod[];
  model?: DriftChartEstimate;
  instrument?: DriftChartEstimate;
  previousVersion?: string | null;
  currentVersion?: string | null;
  confidenceLevel?: number;
}

const SYSTEM = 'the system (same test)';
const TEST = 'the test (same system)';

/**
 * Drift attribution: for each period, how much the score changed because the system changed
 * (re-run on the frozen previous version) and how much because the test changed (the same
 * system on the new version against the old), each with its interval, beside the zero line.
 * A quarterly score drop is one number with two candidate causes; this chart shows both.
 * @param input `{ periods: [{ label, model, instrument }] }`, or one attributeDrift result.
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no period or an estimate lacks its interval.
 * @example driftChartSpec({ periods: [{ label: 'Q1 → Q2', model: { estimate: -0.1, confidenceInterval: [-0.15, -0.05] }, instrument: { estimate: 0, confidenceInterval: [-0.02, 0.02] } }] })
 */
export function driftChartSpec(input: DriftChartInput): TopLevelSpec {
  const periods: readonly DriftChartPeriod[] =
    input.periods ??
    (input.model && input.instrument
      ? [{ label: `${input.previousVersion ?? 'previous'} → ${input.currentVersion ?? 'current'}`, model: input.model, instrument: input.instrument }]
      : []);
  requireChartField('driftChartSpec', periods.length > 0, 'needs at least one period (or a drift result with model and instrument)', input);
  const rows = periods.flatMap((p, k) => {
    for (const [name, e] of [['model', p.model], ['instrument', p.instrument]] as const) {
      requireChartField('driftChartSpec', typeof e?.estimate === 'number' && Array.isArray(e.confidenceInterval), `periods[${k}].${name} needs an estimate and a confidenceInterval`, e);
    }
    return [
      { period: p.label, cause: SYSTEM, estimate: finiteOrNull(p.model.estimate), low: finiteOrNull(p.model.confidenceInterval[0]), high: finiteOrNull(p.model.confidenceInterval[1]) },
      { period: p.label, cause: TEST, estimate: finiteOrNull(p.instrument.estimate), low: finiteOrNull(p.instrument.confidenceInterval[0]), high: finiteOrNull(p.instrument.confidenceInterval[1]) },
    ];
  });
  const y = { field: 'period', type: 'nominal', sort: periods.map((p) => p.label), title: null, axis: { labelLimit: 200 } };
  const yOffset = { field: 'cause', type: 'nominal', sort: [SYSTEM, TEST] };
  const color = { field: 'cause', type: 'nominal', title: 'change in score due to', sort: [SYSTEM, TEST], scale: { domain: [SYSTEM, TEST], range: [CHART_COLORS.holds, CHART_COLORS.flag] } };
  const title = 'change in mean score';
  const level = input.confidenceLevel ?? 0.95;
  return finishChartSpec(
    {
      width: 480,
      height: { step: 18 },
      data: { values: rows },
      layer: [
        { mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: 'quantitative', title } } },
        { mark: { type: 'rule', strokeWidth: 2.5 }, encoding: { y, yOffset, x: { field: 'low', type: 'quantitative', title }, x2: { field: 'high' }, color } },
        { mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { y, yOffset, x: { field: 'estimate', type: 'quantitative', title }, color } },
      ],
    },
    {
      text: 'Did the system get worse, or the test harder?',
      subtitle: [`system: re-run on the frozen previous version; test: the same system on the new version against the old; bars: ${Math.round(level * 1000) / 10}% intervals`],
    },
  );
}
