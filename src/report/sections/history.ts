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
 * At each version boundary the section gives runHistory's drift attribution (boundaryDrift): how
 * much of each model's change there is the system and how much the instrument, with intervals.
 * @param strata optional: traffic shares reweight the headline.
 * @param reruns optional: re-runs of the previous version by a boundary run's systems, by date.
 * @throws {InputError | RangeError} as runHistory does (dates out of order, bad confidence level).
 */
export function historySection(runs: readonly HistoryRun[], strata: Strata | undefined, settings: ReportSettings, reruns: readonly HistoryRun[] = []): { section: ReportSection; result: HistoryResult } {
  const weights = strata?.hasTraffic ? strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic as number })) : undefined;
  const result = runHistory(runs, { confidenceLevel: settings.confidenceLevel, attribution: { reruns, nResamples: settings.nResamples, seed: settings.seed }, names: { runs: '--history-run', reruns: '--history-rerun' }, ...(weights === undefined ? {} : { weights }) });
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
  const attributionRows = result.runs.flatMap((run) =>
    run.attribution.map((a) => [
      run.date,
      a.model,
      a.mode === 'rerun' ? `re-run ${run.rerun}` : `${a.shared} shared items`,
      formatNumber(a.total),
      `${formatNumber(a.system.estimate)} ${formatInterval(a.system.confidenceInterval)}`,
      `${formatNumber(a.instrument.estimate)} ${formatInterval(a.instrument.confidenceInterval)}`,
      a.mode === 'rerun' && a.retired === 0 ? '' : formatNumber(a.retired),
      a.verdict.text,
    ]),
  );
  const section: ReportSection = {
    id: 'history',
    title: 'The instrument over time',
    paragraphs: [
      `${result.runs.length} runs from ${result.runs[0].date} to ${result.runs[result.runs.length - 1].date}; headline: ${result.headline}. A change from the previous run is flagged (⚑) when it is distinguishable from 0 on the items both runs scored, after Holm across that model's scopes.`,
      flagged.length > 0 ? `Distinguishable changes: ${flagged.join('; ')}.` : 'No run changed distinguishably from the one before it.',
      boundaries.length > 0
        ? `The item set changed at ${boundaries.join(', ')}: a change there mixes the system's change with the test's, split below by drift attribution (the system: paired on the items the previous version and ${reruns.length > 0 ? 'the re-run' : 'this run'} share; the instrument: the same system on the new items against the old).`
        : 'Every run scored the same items.',
    ],
    figure: { spec: historyChartSpec(result), caption: `Each run's score per stratum and headline with ${Math.round(result.confidenceLevel * 100)}% intervals.` },
    tables: [
      {
        caption: 'Headline [interval] by run (⚑: a distinguishable change from the previous run)',
        header: ['date', 'items', 'version', ...result.models],
        rows: result.runs.map((run) => [run.date, String(run.items), run.version ?? (run.versionBoundary ? 'changed' : ''), ...result.models.map((model) => headlineOf(run, model))]),
      },
      ...(attributionRows.length === 0
        ? []
        : [
            {
              caption: `At each version boundary: the change (mean over items) split into the system's and the instrument's part (${result.attributionSettings?.method} ${Math.round(result.confidenceLevel * 100)}% intervals, drift attribution)`,
              header: ['date', 'model', 'split from', 'change', 'system', 'instrument', 'retired items', 'verdict'],
              rows: attributionRows,
            },
          ]),
    ],
    settings: [
      ['confidence level', String(result.confidenceLevel)],
      ['multiplicity', 'Holm, per model and run'],
      ...(result.attributionSettings === null ? [] : ([['drift attribution', `${result.attributionSettings.method}, ${result.attributionSettings.nResamples} resamples, seed ${result.attributionSettings.seed}`]] as Array<[string, string]>)),
    ],
    warnings: result.warnings,
  };
  return { section, result };
}
