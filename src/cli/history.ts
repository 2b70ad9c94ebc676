import type { Command } from '@commander-js/extra-typings';
import { preflightChart, writeChart, CHART_OPTION } from '../charts/index.js';
import { historyChartSpec } from '../charts/history.js';
import { InputError } from '../data/errors.js';
import { loadStrata } from '../data/strata-file.js';
import { runHistory, type HistoryResult } from '../decision/history.js';
import { listArchiveVersions, readArchiveVersion } from '../rotation/archive.js';
import { formatInterval, formatNumber, formatTable } from '../report/table.js';
import { INTERVAL_METHODS, type IntervalMethod } from '../bootstrap/index.js';
import { choiceFlag, contextOf, emit, resamplesFlag, seedFlag, warningLines, type Io } from './io.js';

/** The drift attribution's bootstrap methods (as `benchplan drift`: the analytic t has no form for its statistic). */
const DRIFT_METHODS = INTERVAL_METHODS.filter((m) => m !== 't') as IntervalMethod[];
import { loadInputs, withSourceOptions } from './sources.js';
import { confidenceFlag, confidenceOption, resamplesOption, seedOption } from './shared-flags.js';

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
  for (const b of boundaries) {
    out.push('', `| version boundary at ${b.date}${b.version === null ? '' : ` (${b.version})`}: ${b.added} items added, ${b.removed} removed; the change splits into the system's and the test's (drift attribution${b.rerun === null ? ', the shared items held still: no re-run given' : `, re-run ${b.rerun}`}):`);
    if (b.attribution.length === 0) out.push(`  not split${r.attributionSettings === null ? ' (attribution off)' : ' (no model ran on both sides, or nothing was shared; see the warnings)'}`);
    for (const a of b.attribution) {
      const rows = [
        ['change (mean over items)', formatNumber(a.total), ''],
        [`system (paired on ${a.mode === 'rerun' ? `the re-run's ${a.system.n}` : `the ${a.system.n} shared`} items)`, formatNumber(a.system.estimate), formatInterval(a.system.confidenceInterval)],
        [a.mode === 'rerun' ? 'instrument (same system, new vs old version)' : `instrument (same system: ${a.addedItems} added items vs the shared)`, formatNumber(a.instrument.estimate), formatInterval(a.instrument.confidenceInterval)],
        ...(a.mode === 'rerun' && a.retired === 0 ? [] : [[a.mode === 'rerun' ? 'not covered by the re-run' : `retired items (${a.retiredItems}, on the previous system)`, formatNumber(a.retired), '']]),
      ];
      out.push(`  ${a.model}: ${a.verdict.text}`);
      out.push(formatTable(['part', 'estimate', `${level} ${a.method} interval`], rows, { align: ['left', 'right', 'right'] }).replace(/^/gm, '    '));
      if (a.reweighted !== null) out.push(`    reweighted headline: change ${formatNumber(a.reweighted.total)} = system ${formatNumber(a.reweighted.system)} + instrument ${formatNumber(a.reweighted.instrument)}${a.mode === 'rerun' ? '' : ` + retired ${formatNumber(a.reweighted.total - a.reweighted.system - a.reweighted.instrument)}`} (Σ traffic × per stratum)`);
      out.push(`    by stratum (system / instrument): ${a.strata.map((h) => `${h.stratum} ${formatNumber(h.system)} / ${formatNumber(h.instrument)}`).join('; ')}`);
    }
  }
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
    .option('--rerun <DATE=FILE>', "at a version boundary: the run DATE's system re-run on the previous version (repeat), for the exact drift split", collect)
    .option(...resamplesOption('bootstrap resamples of the drift attribution at version boundaries (at most 10,000,000)'))
    .option(...seedOption('seed of the drift attribution'))
    .option('--drift-method <method>', `interval method of the drift attribution: ${DRIFT_METHODS.join(', ')}`, 'bca')
    .option(...confidenceOption('two-sided level of the intervals'))
    .option(...CHART_OPTION);
  withSourceOptions(command)
    .action(async (opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const confidenceLevel = confidenceFlag(opts.confidence);
      if (opts.chart !== undefined) preflightChart(opts.chart);
      const nResamples = resamplesFlag(opts.resamples) as number;
      const seed = seedFlag(opts.seed);
      const method = choiceFlag('--drift-method', opts.driftMethod, DRIFT_METHODS) as IntervalMethod;
      const dated = (flag: string) => (text: string) => {
        const at = text.indexOf('=');
        if (at <= 0 || at === text.length - 1) throw new InputError('must be DATE=FILE, e.g. 2026-11-02=runs/w45.csv', { file: flag, value: text });
        return { date: text.slice(0, at), table: loadInputs([text.slice(at + 1)], opts as Record<string, unknown>, io).table };
      };
      const runs = opts.run.map(dated('--run'));
      const reruns = (opts.rerun ?? []).map(dated('--rerun'));
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
      const result = runHistory(runs, { confidenceLevel, attribution: { reruns, nResamples, seed, method }, ...(versions === undefined ? {} : { versions }), ...(weights === undefined ? {} : { weights }), ...(opts.model === undefined ? {} : { models: opts.model }) });
      emit(ctx, { ...result, strata: opts.strata ?? null, archive: opts.archive ?? null }, () => formatHistory(result));
      if (opts.chart !== undefined) await writeChart(historyChartSpec(result), opts.chart);
    });
}
