import type { Command } from '@commander-js/extra-typings';
import { preflightChart, writeChart, CHART_OPTION } from '../charts/index.js';
import { historyChartSpec } from '../charts/history.js';
import { InputError } from '../data/errors.js';
import { loadStrata } from '../data/strata-file.js';
import { runHistory, type HistoryResult } from '../decision/history.js';
import { listArchiveVersions, readArchiveVersion } from '../rotation/archive.js';
import { formatInterval, formatNumber, formatTable } from '../report/table.js';
import { contextOf, emit, numberFlag, warningLines, type Io } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The readable history: one row per run and model, the headline and each stratum with its interval, flags and boundaries marked. */
export function formatHistory(r: HistoryResult): string {
  const level = `${+(r.confidenceLevel * 100).toFixed(4)}%`;
  const scopes = r.runs[0]?.models[0]?.points.map((p) => p.scope) ?? [];
  const rows: string[][] = [];
  const hasVersions = r.runs.some((x) => x.version !== null);
  for (const run of r.runs) {
    for (const m of run.models) {
      const cell = (scope: string) => {
        const p = m.points.find((x) => x.scope === scope);
        const c = m.changes.find((x) => x.scope === scope);
        if (!p) return '';
        return `${formatNumber(p.estimate)} ${formatInterval(p.confidenceInterval)}${c?.flagged ? ` ${c.estimate > 0 ? '▲' : '▼'}` : ''}`;
      };
      rows.push([`${run.date}${run.versionBoundary ? ' |' : ''}`, ...(hasVersions ? [run.version ?? '?'] : []), m.model, ...scopes.map(cell)]);
    }
  }
  const out = [`History of ${r.runs.length} runs (${r.headline} headline, ${level} intervals)`, formatTable(['run', ...(hasVersions ? ['version'] : []), 'model', ...scopes], rows)];
  const flagged = r.runs.flatMap((run) => run.models.flatMap((m) => m.changes.filter((c) => c.flagged).map((c) => `${run.date} ${m.model} ${c.scope}: ${c.estimate > 0 ? '+' : ''}${formatNumber(c.estimate)} ${formatInterval(c.confidenceInterval)} on ${c.shared} shared items (Holm-adjusted p ${formatNumber(c.adjustedPValue)})`)));
  out.push('', flagged.length === 0 ? 'No run changed distinguishably from the one before.' : 'Distinguishable changes from the previous run (paired on shared items; ▲ ▼ above):', ...flagged.map((f) => `  ${f}`));
  const boundaries = r.runs.filter((x) => x.versionBoundary);
  if (boundaries.length > 0) out.push('', ...boundaries.map((b) => `| version boundary at ${b.date}${b.version === null ? '' : ` (${b.version})`}: ${b.added} items added, ${b.removed} removed; a change here mixes the system's and the test's (see benchplan drift)`));
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('history')
    .description('the instrument over time: each run per stratum and headline with intervals, distinguishable changes flagged, version boundaries marked')
    .requiredOption('--run <DATE=FILE>', 'one run: its date and scores file (CSV / JSONL, or a promptfoo, Inspect, lm-eval result; repeat, in date order)', collect)
    .option('--strata <file>', 'strata file with traffic shares: the headline is reweighted (default: the plain mean)')
    .option('--model <model>', 'a model to follow (repeat; default every model)', collect)
    .option('--archive <dir>', "a benchmark archive: each run is labelled with the version whose eval items it scored")
    .option('--confidence <level>', 'two-sided level of the intervals', '0.95')
    .option(...CHART_OPTION);
  withSourceOptions(command)
    .action(async (opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const confidenceLevel = numberFlag('--confidence', opts.confidence, { above: 0, below: 1 }) as number;
      if (opts.chart !== undefined) preflightChart(opts.chart);
      const runs = opts.run.map((text) => {
        const at = text.indexOf('=');
        if (at <= 0 || at === text.length - 1) throw new InputError('must be DATE=FILE, e.g. 2026-11-02=runs/w45.csv', { file: '--run', value: text });
        return { date: text.slice(0, at), table: loadInputs([text.slice(at + 1)], opts as Record<string, unknown>, io).table };
      });
      let weights;
      if (opts.strata !== undefined) {
        const strata = loadStrata(opts.strata);
        if (!strata.hasTraffic) throw new InputError('the reweighted headline needs a traffic share for every stratum', { file: strata.source });
        weights = strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic! }));
      }
      let versions;
      if (opts.archive !== undefined) {
        const archive = opts.archive;
        versions = listArchiveVersions(archive).map((v) => {
          const record = readArchiveVersion(archive, v, '--archive');
          return { version: v, items: record.items.filter((x) => x.split === 'eval').map((x) => x.item) };
        });
      }
      const result = runHistory(runs, { confidenceLevel, ...(versions === undefined ? {} : { versions }), ...(weights === undefined ? {} : { weights }), ...(opts.model === undefined ? {} : { models: opts.model }) });
      emit(ctx, result, () => formatHistory(result));
      if (opts.chart !== undefined) await writeChart(historyChartSpec(result), opts.chart);
    });
}
