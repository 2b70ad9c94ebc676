import { historyChartSpec } from '../../charts/history.js';
import { runHistory, type HistoryResult, type HistoryRun } from '../../decision/history.js';
import type { Strata } from '../../data/strata-file.js';
import { formatInterval, formatNumber } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

/**
 * The weekly dashboard as a report section: each run's headline per model with its interval
 * (traffic-reweighted when the strata carry traffic shares, else the plain mean), the runs whose
 * change from the previous one is distinguishable after Holm, the version boundaries (where the
 * item set changed, so a change in score mixes the system's change with the test's), and the
 * small-multiples chart of `benchplan history`. The numbers are runHistory's, unchanged.
 * @param runs the runs in date order (at least one).
 * @param strata optional: traffic shares reweight the headline.
 * @throws {InputError | RangeError} as runHistory does (dates out of order, bad confidence level).
 */
export function historySection(runs: readonly HistoryRun[], strata: Strata | undefined, settings: ReportSettings): { section: ReportSection; result: HistoryResult } {
  const weights = strata?.hasTraffic ? strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic as number })) : undefined;
  const result = runHistory(runs, { confidenceLevel: settings.confidenceLevel, ...(weights === undefined ? {} : { weights }) });
  const headlineOf = (run: HistoryResult['runs'][number], model: string) => {
    const entry = run.models.find((m) => m.model === model);
    const point = entry?.points.find((p) => p.scope === 'headline');
    if (entry === undefined || point === undefined) return '-';
    return `${formatNumber(point.estimate)} ${formatInterval(point.confidenceInterval)}${entry.flagged ? ' ⚑' : ''}`;
  };
  const flagged = result.runs.flatMap((run) =>
    run.models.flatMap((m) => m.changes.filter((c) => c.flagged).map((c) => `${run.date} ${m.model} ${c.scope}: ${formatNumber(c.estimate)} ${formatInterval(c.confidenceInterval)} on ${c.shared} shared items (Holm p ${formatNumber(c.adjustedPValue)})`)),
  );
  const boundaries = result.runs.filter((r) => r.versionBoundary).map((r) => `${r.date} (${r.added} items added, ${r.removed} removed)`);
  const section: ReportSection = {
    id: 'history',
    title: 'The instrument over time',
    paragraphs: [
      `${result.runs.length} runs from ${result.runs[0].date} to ${result.runs[result.runs.length - 1].date}; headline: ${result.headline}. A change from the previous run is flagged (⚑) when it is distinguishable from 0 on the items both runs scored, after Holm across that model's scopes.`,
      flagged.length > 0 ? `Distinguishable changes: ${flagged.join('; ')}.` : 'No run changed distinguishably from the one before it.',
      boundaries.length > 0
        ? `The item set changed at ${boundaries.join(', ')}: a change there mixes the system's change with the test's; re-run the frozen previous version (benchplan drift) to tell them apart.`
        : 'Every run scored the same items.',
    ],
    figure: { spec: historyChartSpec(result), caption: `Each run's score per stratum and headline with ${Math.round(result.confidenceLevel * 100)}% intervals.` },
    tables: [
      {
        caption: 'Headline [interval] by run (⚑: a distinguishable change from the previous run)',
        header: ['date', 'items', 'version', ...result.models],
        rows: result.runs.map((run) => [run.date, String(run.items), run.version ?? (run.versionBoundary ? 'changed' : ''), ...result.models.map((model) => headlineOf(run, model))]),
      },
    ],
    settings: [
      ['confidence level', String(result.confidenceLevel)],
      ['multiplicity', 'Holm, per model and run'],
    ],
    warnings: result.warnings,
  };
  return { section, result };
}
