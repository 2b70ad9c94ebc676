import { driftChartSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { INTERVAL_METHODS, type IntervalMethod } from '../bootstrap/index.js';
import { InputError } from '../data/errors.js';
import { loadScores } from '../data/scores.js';
import { formatInterval, formatNumber, formatTable } from '../report/table.js';
import { readArchiveVersion } from '../rotation/archive.js';
import { assertVersionSound } from '../rotation/record-links.js';
import { attributeDrift, driftScoresFromTable, type DriftResult } from '../rotation/drift.js';
import { choiceFlag, contextOf, emit, seedFlag, type Io, resamplesFlag } from './io.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** Bootstrap methods drift offers (the analytic t interval has no generic-statistic form). */
const DRIFT_METHODS = INTERVAL_METHODS.filter((m) => m !== 't') as IntervalMethod[];

/** The JSON document of `benchplan drift`. */
export interface DriftReport extends DriftResult {
  files: { before: string; rerun: string; after: string };
  archive: string | null;
}

const direction = (d: 'down' | 'up' | 'none') => (d === 'down' ? 'lower (the interval lies below 0)' : d === 'up' ? 'higher (the interval lies above 0)' : 'no clear change (the interval holds 0)');

export function formatDrift(r: DriftReport): string {
  const prev = r.previousVersion ?? 'previous version';
  const cur = r.currentVersion ?? 'current version';
  const out = [
    `verdict: ${r.verdict.text}`,
    '',
    formatTable(
      ['run', 'system', 'version', 'items', 'mean'],
      [
        ['before', r.models.before, prev, String(r.items.before), formatNumber(r.means.before)],
        ['re-run', r.models.rerun, prev, String(r.items.rerun), formatNumber(r.means.rerun)],
        ['after', r.models.after, cur, String(r.items.after), formatNumber(r.means.after)],
      ],
      { align: ['left', 'left', 'left', 'right', 'right'] },
    ),
    '',
    `change a dashboard shows (after − before): ${formatNumber(r.total)}`,
    `  model drift (re-run − before, paired on ${prev}'s ${r.model.n} items): ${formatNumber(r.model.estimate)} ${formatInterval(r.model.confidenceInterval)}: ${direction(r.model.direction)}`,
    `  instrument drift (after − re-run, same system; ${r.instrument.shared} kept, ${r.instrument.retired} retired, ${r.instrument.added} added): ${formatNumber(r.instrument.estimate)} ${formatInterval(r.instrument.confidenceInterval)}: ${direction(r.instrument.direction)}`,
    `  ${Math.round(r.confidenceLevel * 100)}% ${r.method} intervals, ${r.nResamples} resamples, seed ${r.seed}`,
    '',
    'by stratum',
    formatTable(
      ['stratum', 'paired', 'model drift', 'prev', 'current', 'kept', 'retired', 'added', 'instrument drift', 'interval'],
      r.strata.map((s) => [
        s.stratum,
        String(s.model.n),
        formatNumber(s.model.estimate),
        formatNumber(s.instrument.previous),
        formatNumber(s.instrument.current),
        String(s.instrument.shared),
        String(s.instrument.retired),
        String(s.instrument.added),
        formatNumber(s.instrument.estimate),
        formatInterval(s.instrument.confidenceInterval),
      ]),
    ),
  ];
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('drift')
    .description('separate "the system got worse" from "the test got harder" with a re-run of the frozen previous version')
    .requiredOption('--before <file>', "scores of last quarter's system on the previous version")
    .requiredOption('--rerun <file>', "scores of this quarter's system on the previous version (the re-run)")
    .requiredOption('--after <file>', "scores of this quarter's system on the current version")
    .option('--model <name>', "this quarter's system in --rerun and --after (default: the only model there)")
    .option('--before-model <name>', "last quarter's system in --before (default: --model, or the only model there)")
    .option('--archive <dir>', 'with --from and --to: take strata and item lists from the archived versions')
    .option('--from <id>', 'the previous version (what --before and --rerun were run on)')
    .option('--to <id>', 'the current version (what --after was run on)')
    .option('--method <method>', `interval method: ${DRIFT_METHODS.join(', ')}`, 'bca')
    .option(...confidenceOption('confidence level, in (0, 1)'))
    .option(...resamplesOption('bootstrap resamples (at most 10,000,000)'))
    .option(...seedOption('seed of the resampling streams'))
    .option(...dropUnpairedOption('leave out items scored in only one of --before / --rerun (and say how many)'))
    .option(...CHART_OPTION)
    .action(async (options, command) => {
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      const method = choiceFlag('--method', options.method, DRIFT_METHODS) as IntervalMethod;
      const confidenceLevel = confidenceFlag(options.confidence);
      const nResamples = resamplesFlag(options.resamples) as number;
      const seed = seedFlag(options.seed);
      const archived = [options.archive, options.from, options.to].filter((x) => x !== undefined).length;
      if (archived !== 0 && archived !== 3) {
        const missing = options.archive === undefined ? '--archive' : options.from === undefined ? '--from' : '--to';
        throw new InputError('--archive, --from and --to go together', { file: missing });
      }
      const previous = options.archive !== undefined ? readArchiveVersion(options.archive, options.from as string, '--from') : null;
      const current = options.archive !== undefined ? readArchiveVersion(options.archive, options.to as string, '--to') : null;
      // Attribute drift only between versions that are as they were frozen (exit 1 naming file and field otherwise).
      for (const record of [previous, current]) if (record) assertVersionSound(options.archive as string, record);
      const rerunTable = loadScores(options.rerun);
      const afterTable = loadScores(options.after);
      const beforeTable = loadScores(options.before);
      const rerun = driftScoresFromTable(rerunTable, options.model);
      const after = driftScoresFromTable(afterTable, options.model ?? rerun.model);
      const before = driftScoresFromTable(beforeTable, options.beforeModel ?? (beforeTable.models.length === 1 ? undefined : options.model ?? rerun.model));
      const evalOf = (r: typeof previous) => (r ? r.items.filter((x) => x.split === 'eval').map((x) => ({ item: x.item, stratum: x.stratum })) : null);
      const result = attributeDrift(
        { before, rerun, after },
        {
          method,
          confidenceLevel,
          nResamples,
          seed,
          dropUnpaired: Boolean(options.dropUnpaired),
          previousItems: evalOf(previous),
          currentItems: evalOf(current),
          previousVersion: previous?.version ?? null,
          currentVersion: current?.version ?? null,
        },
      );
      const report: DriftReport = { ...result, files: { before: options.before, rerun: options.rerun, after: options.after }, archive: options.archive ?? null };
      emit(ctx, report, () => formatDrift(report));
      if (options.chart !== undefined) await writeChart(driftChartSpec(result), options.chart);
    });
}
