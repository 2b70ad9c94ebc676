import type { TopLevelSpec } from 'vega-lite';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** What the history chart needs: a runHistory result. */
export interface HistoryChartInput {
  runs: ReadonlyArray<{
    date: string;
    versionBoundary: boolean;
    models: ReadonlyArray<{
      model: string;
      points: ReadonlyArray<{ scope: string; estimate: number; confidenceInterval: readonly [number, number] }>;
      changes: ReadonlyArray<{ scope: string; flagged: boolean }>;
    }>;
    /** At a boundary: the drift attribution per model (runHistory's). */
    attribution?: ReadonlyArray<{
      model: string;
      system: { estimate: number };
      instrument: { estimate: number };
      reweighted: { system: number; instrument: number } | null;
      strata: ReadonlyArray<{ stratum: string; system: number; instrument: number }>;
    }>;
  }>;
  headline?: string;
  confidenceLevel?: number;
}

/**
 * The weekly dashboard: small multiples, one panel per scope (the headline first, then each
 * stratum), each run's score with its interval over the run dates, one colour per model, a
 * ring around a run whose change from the previous run is distinguishable, and a dashed
 * vertical line at each version boundary (the test changed there), labelled in every panel with
 * the drift attribution's split of the change there, `model: sys ±x · test ±y` (the headline
 * panel: the reweighted split when there is one, else the plain mean over items).
 * @param result a runHistory result.
 * @returns a vega-lite spec (faceted, three panels a row).
 * @throws {TypeError} when there is no run.
 * @example historyChartSpec(runHistory([{ date: '2026-11-02', table }])).facet // => { field: 'scope', … }
 */
export function historyChartSpec(result: HistoryChartInput): TopLevelSpec {
  requireChartField('historyChartSpec', Array.isArray(result.runs) && result.runs.length > 0, 'needs at least one run', result.runs);
  const scopes: string[] = [];
  const rows: Array<Record<string, string | number | boolean | null>> = [];
  for (const run of result.runs) {
    for (const m of run.models) {
      for (const p of m.points) {
        if (!scopes.includes(p.scope)) scopes.push(p.scope);
        const flagged = m.changes.some((c) => c.scope === p.scope && c.flagged);
        rows.push({ kind: 'score', scope: p.scope, date: run.date, model: m.model, estimate: finiteOrNull(p.estimate), low: finiteOrNull(p.confidenceInterval[0]), high: finiteOrNull(p.confidenceInterval[1]), flagged });
      }
    }
  }
  const signed = (x: number) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Number(Math.abs(x).toPrecision(2))}` : '?');
  for (const run of result.runs) {
    if (!run.versionBoundary) continue;
    for (const scope of scopes) {
      rows.push({ kind: 'boundary', scope, date: run.date });
      (run.attribution ?? []).forEach((a, k) => {
        const part = scope === 'headline' ? (a.reweighted ?? { system: a.system.estimate, instrument: a.instrument.estimate }) : a.strata.find((h) => h.stratum === scope);
        if (part === undefined) return;
        const who = (run.attribution ?? []).length > 1 ? `${a.model}: ` : '';
        rows.push({ kind: 'attribution', scope, date: run.date, offset: 10 + 11 * k, label: `${who}sys ${signed(part.system)} · test ${signed(part.instrument)}` });
      });
    }
  }
  const dates = result.runs.map((r) => r.date);
  const x = { field: 'date', type: 'ordinal', sort: dates, title: 'run', axis: { labelAngle: -40 } };
  const y = { field: 'estimate', type: 'quantitative', title: 'score', scale: { zero: false } };
  const color = { field: 'model', type: 'nominal', title: 'model' };
  const level = Math.round((result.confidenceLevel ?? 0.95) * 1000) / 10;
  const score = { filter: "datum.kind === 'score'" };
  return finishChartSpec(
    {
      data: { values: rows },
      facet: { field: 'scope', type: 'nominal', sort: scopes, title: null, header: { labelFontWeight: 'bold' } },
      columns: 3,
      spec: {
        width: 220,
        height: 150,
        layer: [
          { transform: [{ filter: "datum.kind === 'boundary'" }], mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [4, 3] }, encoding: { x } },
          { transform: [{ filter: "datum.kind === 'attribution'" }], mark: { type: 'text', align: 'right', dx: -4, fontSize: 9, color: CHART_COLORS.reference }, encoding: { x, y: { field: 'offset', type: 'quantitative', scale: null }, text: { field: 'label' } } },
          { transform: [score], mark: { type: 'line', opacity: 0.5 }, encoding: { x, y, color } },
          { transform: [score], mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, y: { field: 'low', type: 'quantitative', title: 'score' }, y2: { field: 'high' }, color } },
          { transform: [score], mark: { type: 'point', filled: true, size: 40, opacity: 1 }, encoding: { x, y, color } },
          { transform: [score, { filter: 'datum.flagged' }], mark: { type: 'point', filled: false, size: 220, strokeWidth: 2, color: CHART_COLORS.flag }, encoding: { x, y } },
        ],
      },
      resolve: { scale: { y: 'independent' } },
    },
    {
      text: 'The instrument over time',
      subtitle: [`${result.headline ?? 'headline'} headline and each stratum, ${level}% intervals; ring: a distinguishable change from the previous run (paired, Holm); dashed line: a version boundary, labelled with the drift attribution's split (sys: the system, test: the instrument)`],
    },
  );
}
