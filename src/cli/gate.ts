import { runSequentialGate } from './gate-sequential.js';
import { gateWithDesign } from './gate-design.js';
import { SCORE_RANGE_OPTION, SEQUENCE_OPTION, scoreRangeFlag } from './sequential-flags.js';
import type { Command } from '@commander-js/extra-typings';
import { GATE_METHODS, nonInferiorityGate } from '../gate/gate.js';
import { formatNonInferiorityReport, nonInferiorityHeadline } from '../report/gate.js';
import { InputError } from '../data/errors.js';
import { INCONCLUSIVE_OPTION, finishGate, inconclusiveEcho, inconclusiveFlag } from './gate-verdict.js';
import { choiceFlag, contextOf, emit, numberFlag, progress, seedFlag, type Io, resamplesFlag } from './io.js';
import { FORMAT_OPTION } from './output-format.js';
import { gateMarkdown } from '../report/markdown-gate.js';
import { loadInputs, loaderSettingsOf, pairFromInputs, withSourceOptions } from './sources.js';
import { bindPlan, GATE_STOPPING_BINDING, INCONCLUSIVE_BINDING, numberBinding, planEcho, switchBinding, textBinding } from './bind-plan.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

export function register(program: Command, io: Io): void {
  const command = program
    .command('gate')
    .description('fail a CI run when a candidate regresses beyond a margin (non-inferiority check)')
    .argument('<inputs...>', 'a scores table with both models, or two results files (baseline first): promptfoo, Inspect, lm-eval, or tables')
    .option('--baseline <model>', 'the model to protect, the baseline side of candidate − baseline (e.g. main); default with two inputs: the first input\'s model')
    .option('--candidate <model>', 'the model that must not be worse, the candidate side of candidate − baseline (e.g. the pull request); default: the second input\'s model')
    .option('--margin <x>', 'largest acceptable drop of candidate − baseline, in score units (0.02 = 2 points on 0/1 scores); required unless --plan fixes it')
    .option('--method <method>', `interval method: ${GATE_METHODS.join(', ')} (auto: chosen from the data, see docs/method-auto.md)`, 'auto')
    .option(...confidenceOption('one-sided confidence level of the lower bound'))
    .option(...resamplesOption('bootstrap resamples (at most 10,000,000)'))
    .option(...seedOption('seed of the resampling streams; with --sequential, of the random order the units are read in'))
    .option('--sequential', 'a sequential gate for runs on every commit: α spent across looks, kept in --state (see docs/monitor.md)')
    .option('--state <file>', 'with --sequential: the state file of all looks so far (created if absent)')
    .option('--label <name>', 'with --sequential: a name for this look, e.g. the commit id')
    .option(SEQUENCE_OPTION[0], `with --sequential: ${SEQUENCE_OPTION[1]}`, SEQUENCE_OPTION[2])
    .option(...SCORE_RANGE_OPTION)
    .option('--per-stratum', 'also check every stratum; all checks must pass')
    .option('--cluster', 'resample whole clusters (the cluster column, e.g. documents)')
    .option('--stratified', 'resample within strata for the overall check')
    .option(...dropUnpairedOption('leave out items one model did not score'))
    .option('--design <file>', 'the scores are the list benchplan select wrote, labelled: gate on the whole pool with its inclusion probabilities')
    .option(...INCONCLUSIVE_OPTION)
    .option(...FORMAT_OPTION)
    .addHelpText(
      'after',
      `
Exit status (docs/verdicts.md): 0 pass — the one-sided lower bound of candidate − baseline is
above −margin (and in every stratum with --per-stratum); 1 fail — the one-sided upper bound is
below −margin (a drop larger than the margin is shown, overall or in a stratum); 3 inconclusive —
neither, or the method's condition does not hold (too few items or clusters, no spread, the skew
refusal), with the items that would decide it; 2 bad input. --inconclusive pass|fail maps 3 to 0 or 1.

Examples:
  benchplan gate scores.csv --baseline main --candidate pr --margin 0.02 --cluster --per-stratum
  benchplan gate baseline.json candidate.json --margin 0.02`,
    );
  bindPlan(
    command,
    io,
    [
      textBinding('baseline', 'baseline', '--baseline'),
      textBinding('candidate', 'candidate', '--candidate'),
      numberBinding('margin', 'margin', '--margin'),
      textBinding('method', 'method', '--method'),
      numberBinding('confidenceLevel', 'confidence', '--confidence'),
      numberBinding('nResamples', 'resamples', '--resamples'),
      textBinding('seed', 'seed', '--seed'),
      switchBinding('cluster', 'cluster', '--cluster'),
      switchBinding('stratified', 'stratified', '--stratified'),
      switchBinding('perStratum', 'perStratum', '--per-stratum'),
      GATE_STOPPING_BINDING,
      INCONCLUSIVE_BINDING,
    ],
    [['margin', '--margin <x>']],
  );
  withSourceOptions(command)
    .action((inputs, opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const inconclusiveAs = inconclusiveFlag(opts.inconclusive);
      if (opts.design !== undefined) return gateWithDesign(ctx, inputs, opts as Record<string, unknown>, planEcho(cmd));
      const margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
      const method = choiceFlag('--method', opts.method, GATE_METHODS);
      const confidenceLevel = confidenceFlag(opts.confidence);
      const nResamples = resamplesFlag(opts.resamples);
      const loaded = loadInputs(inputs, opts as Record<string, unknown>, io);
      const table = loaded.table;
      const [baseline, candidate] = pairFromInputs(loaded, opts.baseline, opts.candidate, ['--baseline', '--candidate']);
      const loader = loaderSettingsOf(opts as Record<string, unknown>);
      if (opts.sequential) return runSequentialGate(table, inputs.join(' + '), { ...opts, margin: opts.margin as string, baseline, candidate }, ctx, { ...loader, ...planEcho(cmd) });
      const scoreRange = scoreRangeFlag(opts.scoreRange);
      if (scoreRange !== undefined && method !== 'auto') throw new InputError('is used by --method auto (and --sequential) only: a named method ignores the scores\' range', { file: '--score-range', value: opts.scoreRange });
      const bar = progress(io, 'gate');
      const result = nonInferiorityGate(table, {
        scoreRange: scoreRange ?? null,
        baseline,
        candidate,
        margin,
        method,
        confidenceLevel,
        nResamples,
        seed: seedFlag(opts.seed),
        perStratum: Boolean(opts.perStratum),
        cluster: Boolean(opts.cluster),
        stratified: Boolean(opts.stratified),
        dropUnpaired: Boolean(opts.dropUnpaired),
        onProgress: bar.update,
      });
      bar.done();
      // The loader's settings, when given, after the gate's own (the library result does not know how the inputs were read).
      const report = { ...result, ...loader, ...(scoreRange !== undefined ? { scoreRange } : {}), ...inconclusiveEcho(inconclusiveAs), ...planEcho(cmd) };
      emit(ctx, report, () => formatNonInferiorityReport(result), () => gateMarkdown(result));
      finishGate(ctx, result.verdict, inconclusiveAs, nonInferiorityHeadline(result), report);
    });
}
