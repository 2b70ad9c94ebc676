import type { Command } from '@commander-js/extra-typings';
import { formatNonInferiorityReport, nonInferiorityGate, nonInferiorityHeadline } from '../bootstrap/gate.js';
import { INTERVAL_METHODS } from '../bootstrap/types.js';
import { CheckFailed } from '../data/errors.js';
import { loadScores } from '../data/scores.js';
import { choiceFlag, contextOf, emit, numberFlag, progress, seedFlag, type Io, resamplesFlag } from './io.js';

export function register(program: Command, io: Io): void {
  program
    .command('gate')
    .description('fail a CI run when a candidate regresses beyond a margin (non-inferiority check)')
    .argument('<scores>', 'scores table (.csv or .jsonl) with both models')
    .requiredOption('--baseline <model>', 'the model to protect (e.g. main)')
    .requiredOption('--candidate <model>', 'the model that must not be worse (e.g. the pull request)')
    .requiredOption('--margin <x>', 'largest acceptable drop of candidate − baseline, in score units (0.02 = 2 points on 0/1 scores)')
    .option('--method <method>', `interval method: ${INTERVAL_METHODS.join(', ')}`, 'bca')
    .option('--confidence <level>', 'one-sided confidence level of the lower bound', '0.95')
    .option('--resamples <n>', 'bootstrap resamples (at most 10,000,000)', '9999')
    .option('--seed <seed>', 'seed of the resampling streams', '0')
    .option('--per-stratum', 'also check every stratum; all checks must pass')
    .option('--cluster', 'resample whole clusters (the cluster column, e.g. documents)')
    .option('--stratified', 'resample within strata for the overall check')
    .option('--drop-unpaired', 'leave out items one model did not score')
    .addHelpText(
      'after',
      `
Exit status: 0 when the one-sided lower bound of candidate − baseline is above −margin
(and in every stratum with --per-stratum), 1 otherwise, 2 for bad input.

Example:
  benchplan gate scores.csv --baseline main --candidate pr --margin 0.02 --cluster --per-stratum`,
    )
    .action((scores, opts, cmd) => {
      const ctx = contextOf(cmd, io);
      const margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
      const method = choiceFlag('--method', opts.method, INTERVAL_METHODS);
      const confidenceLevel = numberFlag('--confidence', opts.confidence, { above: 0, below: 1 });
      const nResamples = resamplesFlag(opts.resamples);
      const table = loadScores(scores);
      const bar = progress(io, 'gate');
      const result = nonInferiorityGate(table, {
        baseline: opts.baseline,
        candidate: opts.candidate,
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
      emit(ctx, result, () => formatNonInferiorityReport(result));
      if (!result.passed) throw new CheckFailed(`gate failed: ${nonInferiorityHeadline(result)}`, result);
    });
}
