import type { Command } from '@commander-js/extra-typings';
import { writeFileAtomic, preflightOutput } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { loadStrata } from '../data/strata-file.js';
import { buildPlan, showPlanValue, type PlanInput, type PlanRecord } from '../decision/plan.js';
import { sha256File } from '../rotation/hash.js';
import { planRecordText, writePlanRecord } from '../rotation/plan-record.js';
import { checkVersionId } from '../rotation/version-id.js';
import { choiceFlag, contextOf, emit, numberFlag, resamplesFlag, seedFlag, type Io } from './io.js';
import { confidenceFlag, confidenceOption, dateFlag, resamplesOption, seedOption, withoutDefault } from './shared-flags.js';

/** The JSON document of `benchplan plan`: the plan record, where it was stored, and its digest. */
export interface PlanReport {
  plan: PlanRecord;
  /** The archive path of the stored plan (`DIR/plans/ID.json`). */
  path: string;
  /** The copy written with `-o`, or null. */
  output: string | null;
}

/** The plan in words: every fixed setting, then what is left free. */
export function formatPlan(r: PlanReport): string {
  const p = r.plan;
  const rows: Array<[string, unknown]> = [
    ['baseline', p.baseline], ['candidate', p.candidate], ['incumbent', p.incumbent], ['models', p.models],
    ['margin', p.margin], ['mde', p.mde], ['confidenceLevel', p.confidenceLevel], ['method', p.method],
    ['nResamples', p.nResamples], ['seed', p.seed], ['cluster', p.cluster], ['stratified', p.stratified], ['perStratum', p.perStratum],
    ['strata', p.strata === null ? null : `${p.strata.source} (sha256 ${p.strata.sha256.slice(0, 12)}…; ${p.strata.names.join(', ')}${p.strata.traffic === null ? '' : '; with traffic shares'})`],
    ['stopping', p.stopping], ['budget', p.budget],
  ];
  const fixed = rows.filter(([, v]) => v !== null);
  const free = rows.filter(([, v]) => v === null).map(([k]) => k);
  return [
    `plan ${p.id} (${p.date}${p.author === null ? '' : `, ${p.author}`}) frozen at ${r.path} (write-once), record digest ${p.recordDigest}`,
    ...(r.output === null ? [] : [`copy written to ${r.output}`]),
    ...fixed.map(([k, v]) => `  ${k.padEnd(16)} ${showPlanValue(v)}`),
    `  ${'decision'.padEnd(16)} pass / fail / inconclusive; inconclusive ${p.decision.inconclusive === 'inconclusive' ? 'stays inconclusive (exit 3)' : `read as ${p.decision.inconclusive}`}`,
    `left free: ${free.length === 0 ? 'nothing' : free.join(', ')}`,
    'gate, monitor, rank, shortlist and signoff take --plan FILE (or ARCHIVE#ID) and refuse a departure unless --deviate "REASON" is given.',
  ].join('\n');
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, io: Io): void {
  program
    .command('plan')
    .description('fix the analysis plan before the data: margin, MDE, strata, method, stopping rule, decision rule, names; frozen write-once in the archive')
    .requiredOption('--archive <dir>', 'the archive folder (the plan goes to DIR/plans/ID.json; created if absent)')
    .requiredOption('--id <id>', 'the plan id, e.g. 2026Q4-plan (write-once: a second plan of an id fails)')
    .option('--date <yyyy-mm-dd>', 'the date the plan was made (default today)')
    .option('--author <name>', 'who made the plan')
    .option('--note <text>', 'what the plan is for', '')
    .option('--baseline <model>', 'the model to protect, the baseline side of candidate − baseline (gate --baseline, monitor --b)')
    .option('--candidate <model>', 'the model under test, the candidate side of candidate − baseline (gate --candidate, monitor --a)')
    .option('--incumbent <model>', 'the model in production (rank --incumbent)')
    .option('--model <model>', 'a candidate to consider (repeat; rank and shortlist --model)', collect)
    .option('--margin <x>', 'the margin, in score units (gate, rank, shortlist --margin)')
    .option('--mde <gap>', 'the smallest gap you would act on (monitor --mde; size)')
    .option(...withoutDefault(confidenceOption('the confidence level of every interval (--confidence)')))
    .option('--method <method>', 'the interval method (gate --method)')
    .option(...withoutDefault(resamplesOption('bootstrap resamples (--resamples)')))
    .option(...withoutDefault(seedOption('the seed of every resampling stream (--seed)')))
    .option('--cluster', 'resample whole clusters (--cluster)')
    .option('--no-cluster', 'items are the unit: --cluster is a departure')
    .option('--stratified', 'resample within strata (--stratified)')
    .option('--per-stratum', 'check every stratum too (--per-stratum)')
    .option('--no-per-stratum', 'overall only: --per-stratum is a departure')
    .option('--strata <file>', 'the strata file (YAML): its digest, stratum names and traffic shares are fixed (shortlist --strata)')
    .option('--stopping <rule>', 'fixed (one look at the end) or sequential (anytime-valid looks: gate --sequential, monitor)')
    .option('--items <n>', 'with --stopping fixed: the number of items; with sequential: the most items before stopping')
    .option('--sequence <method>', 'with --stopping sequential: auto, agrapa, betting or eb (--sequence)', 'auto')
    .option('--budget <n>', 'the labelling budget in items (rank --budget)')
    .option('--inconclusive <as>', 'the decision rule: an inconclusive verdict stays inconclusive (default), or is read as pass or fail (gate --inconclusive)', 'inconclusive')
    .option('-o, --output <file>', 'also write the plan here (what --plan FILE reads)')
    .addHelpText(
      'after',
      `
Every option left out stays free: the analysis may choose it. Options given are fixed: gate,
monitor, rank, shortlist and signoff run with --plan refuse a different value (exit 2) unless
--deviate "REASON" is given, and take the plan's value when the option is left out.

Example:
  benchplan plan --archive out/archive --id 2026Q4-plan --date 2026-10-01 --baseline main \\
    --candidate pr --margin 0.02 --confidence 0.95 --strata strata.yaml --stopping fixed --items 400`,
    )
    .action((opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const id = checkVersionId(opts.id, '--id');
      const date = dateFlag(opts.date);
      if (opts.output !== undefined) preflightOutput(opts.output, '--output');
      const input: PlanInput = { id, date, author: opts.author ?? null, note: opts.note };
      if (opts.baseline !== undefined) input.baseline = opts.baseline;
      if (opts.candidate !== undefined) input.candidate = opts.candidate;
      if (opts.incumbent !== undefined) input.incumbent = opts.incumbent;
      if (opts.model !== undefined) input.models = opts.model;
      if (opts.margin !== undefined) input.margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
      if (opts.mde !== undefined) input.mde = numberFlag('--mde', opts.mde, { above: 0 }) as number;
      if (opts.confidence !== undefined) input.confidenceLevel = confidenceFlag(opts.confidence);
      if (opts.method !== undefined) input.method = opts.method;
      if (opts.resamples !== undefined) input.nResamples = resamplesFlag(opts.resamples, 0) as number;
      if (opts.seed !== undefined) input.seed = seedFlag(opts.seed);
      const sourceOf = (key: string) => cmd.getOptionValueSource(key as never);
      if (sourceOf('cluster') === 'cli') input.cluster = Boolean(opts.cluster);
      if (opts.stratified) input.stratified = true;
      if (sourceOf('perStratum') === 'cli') input.perStratum = Boolean(opts.perStratum);
      if (opts.strata !== undefined) {
        const strata = loadStrata(opts.strata);
        input.strata = {
          source: opts.strata,
          sha256: sha256File(opts.strata, { regularOnly: true }).sha256,
          names: strata.strata.map((s) => s.name),
          traffic: strata.hasTraffic ? Object.fromEntries(strata.strata.map((s) => [s.name, s.traffic as number])) : null,
        };
      }
      const items = opts.items === undefined ? null : (numberFlag('--items', opts.items, { integer: true, min: 1 }) as number);
      const stopping = choiceFlag('--stopping', opts.stopping, ['fixed', 'sequential'] as const);
      if (stopping === undefined && items !== null) throw new InputError('goes with --stopping fixed or sequential', { file: '--items', value: opts.items });
      if (stopping !== 'sequential' && sourceOf('sequence') === 'cli') throw new InputError('goes with --stopping sequential', { file: '--sequence', value: opts.sequence });
      if (stopping === 'fixed') input.stopping = { rule: 'fixed', items };
      if (stopping === 'sequential') input.stopping = { rule: 'sequential', sequence: choiceFlag('--sequence', opts.sequence, ['auto', 'agrapa', 'betting', 'eb'] as const) as 'auto', maxItems: items };
      if (opts.budget !== undefined) input.budget = numberFlag('--budget', opts.budget, { integer: true, min: 1 }) as number;
      input.inconclusive = choiceFlag('--inconclusive', opts.inconclusive, ['inconclusive', 'pass', 'fail'] as const);
      const plan = buildPlan(input);
      const path = writePlanRecord(opts.archive, plan);
      if (opts.output !== undefined) writeFileAtomic(opts.output, planRecordText(plan));
      const report: PlanReport = { plan, path, output: opts.output ?? null };
      emit(ctx, report, () => formatPlan(report));
    });
}
