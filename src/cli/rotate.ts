import { renameSync, rmSync } from 'node:fs';
import { rotationPlanSpec, CHART_OPTION, chartFormatOf, renderChartPng, renderChartSvg } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { writeTempFile, preflightOutput } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { loadManifest } from '../data/manifest.js';
import { loadScores, type ScoresTable } from '../data/scores.js';
import { formatPercent, formatTable } from '../report/table.js';
import type { FreezeResult } from '../rotation/archive.js';
import { benchmarkItemsFromManifest } from '../rotation/content.js';
import type { LeakageResult } from '../rotation/leakage.js';
import type { RotationPlan } from '../rotation/plan.js';
import { applyRotation, prepareRotation } from '../rotation/rotate.js';
import type { SaturationResult, SaturationTrend } from '../rotation/saturation.js';
import { checkVersionId } from '../rotation/version-id.js';
import { formatLeakage } from '../report/leakage.js';
import { dateFlag } from './shared-flags.js';
import { contextOf, emit, numberFlag, seedFlag, type Io } from './io.js';
import { seedOption } from './shared-flags.js';

/** The JSON document of `benchplan rotate`. */
export interface RotateReport extends RotationPlan {
  archive: string;
  incidents: string;
  /** The new version when --apply froze it, else null. */
  version: string | null;
  leakage: LeakageResult;
  saturation: SaturationResult | null;
  trend: SaturationTrend | null;
  applied: FreezeResult | null;
}

function formatSaturation(s: SaturationResult, trend: SaturationTrend | null): string[] {
  const out = [
    `Saturation: share of eval items every candidate (${s.models.join(', ')}) passes (score ≥ ${s.pass}); warning above ${formatPercent(s.warnAbove, 0)}`,
    formatTable(
      ['stratum', 'items', 'scored', 'saturated', 'share', 'flag'],
      [...s.strata.map((x) => [x.stratum, x.items, x.scored, x.saturated, formatPercent(x.share), x.warning ? 'SATURATED' : '']), ['all', s.overall.items, s.overall.scored, s.overall.saturated, formatPercent(s.overall.share), s.overall.warning ? 'SATURATED' : '']],
      { align: ['left', 'right', 'right', 'right', 'right', 'left'] },
    ),
  ];
  if (trend) {
    const line = (l: SaturationTrend['overall']) =>
      l.status === 'rising' ? `reaches ${formatPercent(trend.threshold, 0)} on ${l.saturatesOn} (+${formatPercent(l.slopePerYear)} a year)` : l.status === 'saturated' ? 'already saturated' : l.status === 'not-rising' ? `not rising (${formatPercent(l.slopePerYear)} a year)` : 'too few dated versions';
    out.push('', `At the current rate (straight line through ${trend.versions.map((v) => `${v.version} ${formatPercent(v.share)}`).join(', ')}): the eval split ${line(trend.overall)}`);
    for (const l of trend.strata) out.push(`  ${l.stratum}: ${line(l)}`);
  }
  return out;
}

export function formatRotate(r: RotateReport): string {
  const evalBefore = r.strata.reduce((t, s) => t + s.before, 0);
  const out = [
    `Rotation of ${r.from}${r.version ? ` → ${r.version}` : ''}: retire ${r.retire.length} of ${evalBefore} eval items (target ${r.target} = round(${r.fraction} × ${evalBefore})), add ${r.add.length} from ${r.incidents}, keep ${r.keep} (seed ${r.seed})`,
    r.applied ? `froze ${r.applied.version}: fingerprint ${r.applied.fingerprint}, ${r.applied.objectsWritten} content files written` : 'plan only: add --apply --version NEW to freeze it',
    '',
    formatTable(
      ['stratum', 'before', 'retire', 'add', 'after', 'short'],
      r.strata.map((s) => [s.stratum, s.before, s.retired, s.added, s.after, s.shortBy ? String(s.shortBy) : '']),
      { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
    ),
    '',
    'retire (in priority order: saturated, leaked into dev, oldest)',
  ];
  for (const x of r.retire) out.push(`  ${x.item.padEnd(10)} ${x.stratum.padEnd(18)} ${x.reason}${x.reason === 'oldest' && x.added ? ` (added ${x.added})` : ''}`);
  out.push('', 'add (newest incidents first)');
  for (const x of r.add) out.push(`  ${x.item.padEnd(10)} ${x.stratum}${x.added ? ` (added ${x.added})` : ''}`);
  if (r.skipped.length) {
    out.push('', 'incidents not used');
    for (const x of r.skipped) out.push(`  ${x.item.padEnd(10)} ${x.reason}`);
  }
  out.push('', ...formatLeakage(r.leakage));
  if (r.saturation) out.push('', ...formatSaturation(r.saturation, r.trend));
  const warnings = [...r.warnings, ...(r.saturation?.warnings ?? [])];
  if (warnings.length) out.push('', ...warnings.map((w) => `warning: ${w}`));
  return out.join('\n');
}

/** `--history ID=FILE`, repeatable. */
function historyFlag(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, io: Io): void {
  program
    .command('rotate')
    .description("plan next quarter's rotation: retire saturated, leaked, then oldest eval items; replace them stratum by stratum from the incidents log")
    .requiredOption('--archive <dir>', 'the archive folder')
    .requiredOption('--from <id>', 'the version to rotate from')
    .requiredOption('--incidents <file>', 'the incidents log (YAML or JSONL manifest; split may be omitted)')
    .option('--fraction <share>', 'share of eval items to retire, in [0, 1]', '0.2')
    .option('--scores <file>', "candidates' scores on the version: items every candidate passes are retired first")
    .option('--models <names>', 'with --scores: the candidates that count, comma-separated (default all)')
    .option('--pass <score>', 'with --scores: a candidate passes an item when its score is at least this (default 1, for 0/1 or [0, 1] scores; e.g. 90 for points)')
    .option('--saturation-warning <share>', 'warn for a stratum whose saturated share is above this', '0.8')
    .option('--history <id=file>', 'an earlier version and its scores, for the saturation date (repeatable)', historyFlag)
    .option('--near-duplicate <jaccard>', 'Jaccard similarity of word 3-shingles at which two texts count as copies', '0.8')
    .option(...seedOption('seed for breaking ties'))
    .option('--apply', 'freeze the rotated version (needs --version)')
    .option('--version <id>', 'with --apply: the new version id')
    .option('--guideline <version>', "with --apply: the new version's guideline (default the old one's)")
    .option('--date <yyyy-mm-dd>', 'with --apply: the date recorded (default today)')
    .option(...CHART_OPTION)
    .action(async (options, command) => {
      const ctx = contextOf(command, io);
      const chartFormat = options.chart === undefined ? null : chartFormatOf(options.chart);
      const fraction = numberFlag('--fraction', options.fraction, { min: 0, max: 1 }) as number;
      const pass = numberFlag('--pass', options.pass);
      const warnAbove = numberFlag('--saturation-warning', options.saturationWarning, { min: 0, max: 1 }) as number;
      const threshold = numberFlag('--near-duplicate', options.nearDuplicate, { above: 0, max: 1 }) as number;
      const seed = seedFlag(options.seed);
      checkVersionId(options.from, '--from');
      if (options.apply && options.version === undefined) throw new InputError('--apply needs --version NEW (the id of the rotated version)', { file: '--apply' });
      if (!options.apply) {
        for (const [flag, value] of [['--version', options.version], ['--guideline', options.guideline], ['--date', options.date]] as const) {
          if (value !== undefined) throw new InputError('is only used with --apply (without it rotate only plans)', { file: flag, value });
        }
      }
      const version = options.apply ? checkVersionId(options.version as string) : null;
      const date = options.apply ? dateFlag(options.date) : null;
      if ((options.models !== undefined || options.history !== undefined) && options.scores === undefined) {
        throw new InputError('needs --scores', { file: options.models !== undefined ? '--models' : '--history' });
      }
      const models = options.models?.split(',').map((m) => m.trim()).filter((m) => m !== '');
      if (models !== undefined && models.length === 0) throw new InputError('name at least one model', { file: '--models', value: options.models });
      const history = (options.history ?? []).map((spec) => {
        const at = spec.indexOf('=');
        if (at <= 0 || at === spec.length - 1) throw new InputError('must be VERSION=SCORES_FILE', { file: '--history', value: spec });
        return { version: checkVersionId(spec.slice(0, at), '--history'), scores: loadScores(spec.slice(at + 1)) as ScoresTable };
      });
      if (options.pass !== undefined && options.scores === undefined) throw new InputError('needs --scores', { file: '--pass' });
      // Every output is checked before anything is written, so a bad --chart cannot leave a frozen version behind.
      if (options.chart !== undefined) preflightOutput(options.chart, '--chart');
      const scores = options.scores === undefined ? null : loadScores(options.scores);
      const incidents = benchmarkItemsFromManifest(loadManifest(options.incidents, { incidents: true }));
      const prepared = prepareRotation(options.archive, options.from, incidents, {
        fraction,
        seed,
        scores,
        ...(pass !== undefined ? { pass } : {}),
        warnAbove,
        ...(models ? { models } : {}),
        history,
        nearDuplicate: { threshold },
      });
      if (options.apply && prepared.saturation?.passIsDefault && prepared.saturation.maxScore > 1) {
        // A frozen version is never overwritten: refuse to freeze a plan that is probably wrong.
        throw new InputError(`scores go up to ${prepared.saturation.maxScore}, so the default pass threshold 1 would retire nearly every item as saturated: give --pass (e.g. 90 for points; --pass 1 if 1 is meant)`, { file: options.scores as string });
      }
      // The chart does not depend on the freeze: draw it and write it to a temporary file first,
      // so once the version is frozen only a rename remains.
      let chartTemp: string | null = null;
      if (options.chart !== undefined) {
        const spec = rotationPlanSpec({ ...prepared.plan, to: version ?? 'next' });
        const bytes = chartFormat === 'svg' ? `${await renderChartSvg(spec)}\n` : await renderChartPng(spec);
        try {
          chartTemp = writeTempFile(options.chart, bytes);
        } catch (error) {
          throw new InputError(`cannot write file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: options.chart });
        }
      }
      let applied: FreezeResult | null = null;
      try {
        if (options.apply) applied = applyRotation(options.archive, prepared, incidents, { version: version as string, date: date as string, ...(options.guideline !== undefined ? { guideline: options.guideline } : {}) });
      } catch (error) {
        if (chartTemp !== null) rmSync(chartTemp, { force: true });
        throw error;
      }
      if (chartTemp !== null) {
        try {
          renameSync(chartTemp, options.chart as string);
        } catch (error) {
          rmSync(chartTemp, { force: true });
          const code = (error as NodeJS.ErrnoException).code ?? String(error);
          throw new InputError(applied ? `version ${applied.version} is frozen, but the chart could not be written: ${code}` : `cannot write file: ${code}`, { file: options.chart as string });
        }
      }
      const report: RotateReport = {
        ...prepared.plan,
        archive: options.archive,
        incidents: options.incidents,
        version,
        leakage: prepared.leakage,
        saturation: prepared.saturation,
        trend: prepared.trend,
        applied,
      };
      emit(ctx, report, () => formatRotate(report));
    });
}
