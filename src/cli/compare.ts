import { forestPlotSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { ALTERNATIVE_HYPOTHESES, COMPARE_METHODS, type Alternative, type CompareMethod } from '../bootstrap/index.js';
import { compareModels, compareModelsParallel, type CompareModelsResult } from '../paired/index.js';
import { InputError } from '../data/errors.js';
import { alignedBestFirst, alignModels, checkClustersWithinStrata } from '../data/pairing.js';
import { compareAllReport, comparePairReport, formatCompareAll, formatComparePair } from '../report/compare.js';
import { loadInputs, loaderSettingsOf, withSourceOptions } from './sources.js';
import { choiceFlag, contextOf, emit, progress, seedFlag, type Io, resamplesFlag } from './io.js';
import { FORMAT_OPTION } from './output-format.js';
import { compareMarkdown } from '../report/markdown-compare.js';
import { scoreRangeFlag } from './sequential-flags.js';
import { checkTableScoresInRange } from '../sequential/score-range.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption, threadsFlag, threadsOption } from './shared-flags.js';

interface CompareFlags {
  a?: string;
  b?: string;
  judge?: string;
  design?: string;
  strata?: string;
  assumeRandom?: boolean;
  method: string;
  resamples: string;
  confidence: string;
  seed: string;
  alternative: string;
  cluster?: boolean;
  stratified?: boolean;
  dropUnpaired?: boolean;
  midP?: boolean;
  scoreRange?: string;
  threads: string;
  chart?: string;
  [flag: string]: unknown;
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('compare')
    .description('decide whether model A beats model B on the same items (paired bootstrap)')
    .argument('<inputs...>', 'scores table(s) (CSV or JSONL: item, model, score [, cluster, stratum, repeat]) or results files and directories of promptfoo, Inspect, lm-eval')
    .option('--a <model>', 'model A, the candidate side of A − B (with --b: one pair, estimate = mean of A − B; without both: every pair, better-scoring first)')
    .option('--b <model>', 'model B, the baseline side of A − B')
    .option('--method <method>', `interval: ${COMPARE_METHODS.join(', ')} (auto: chosen from the data, see docs/method-auto.md)`, 'auto')
    .option(...resamplesOption('bootstrap resamples (and sign-flip permutations) (at most 10,000,000)'))
    .option(...confidenceOption('confidence level of the interval, in (0, 1)'))
    .option(...seedOption('seed of the resampling (same seed, same bytes)'))
    .option('--alternative <side>', `${ALTERNATIVE_HYPOTHESES.join(', ')}: two-sided interval, or one-sided (less: A < B, greater: A > B)`, 'two-sided')
    .option('--cluster', 'resample whole clusters (the cluster column, e.g. the document), and report the clustered SE')
    .option('--stratified', 'resample within strata (the stratum column), each stratum keeping its count')
    .option('--judge <column-or-file>', 'PPI++: judge scores for every item (a column of the scores, or a scores file); human scores on a random subset')
    .option('--design <file>', 'the scores are the list benchplan select wrote, labelled: estimate the whole pool with its inclusion probabilities')
    .option('--strata <file>', 'with --judge: a strata file whose traffic shares reweight the per-stratum PPI++ estimates (stratified PPI on production traffic)')
    .option('--assume-random', 'with --judge: the labelled items were drawn at random (skip the check)')
    .option(...dropUnpairedOption('leave out items not every compared model scored (and say how many)'))
    .option('--mid-p', "with --method auto on 0/1 scores: McNemar mid-p instead of the score test's p-value")
    .option('--score-range <low,high>', 'with --method auto: the range the scores can take (checked); a skewed pair of scores on it gets the betting interval, valid at every n (default: bounded only when every score is in [0, 1])')
    .option(...threadsOption())
    .option(...CHART_OPTION)
    .option(...FORMAT_OPTION);
  withSourceOptions(command)
    .action(async (inputs: string[], flags: CompareFlags, command) => {
      const scoresPath = inputs.join(' + ');
      const ctx = contextOf(command, io);
      // --judge and --design load their estimators (and the zod schemas of a design file) only when asked for.
      if (flags.scoreRange !== undefined && (flags.judge !== undefined || flags.design !== undefined)) {
        throw new InputError('goes with the plain paired comparison (--method auto), not with --judge or --design', { file: '--score-range', value: flags.scoreRange });
      }
      if (flags.judge !== undefined || flags.design !== undefined) return (await import('./compare-fewer-labels.js')).fewerLabels(ctx, scoresPath, flags);
      if (flags.strata !== undefined) throw new InputError('--strata reweights the judge-assisted estimate: it goes with --judge (the plain paired comparison is over the items as they are; headline reweights scores)', { file: '--strata', value: flags.strata });
      if (flags.chart !== undefined) preflightChart(flags.chart);
      const method = choiceFlag('--method', flags.method, COMPARE_METHODS) as CompareMethod;
      const nResamples = resamplesFlag(flags.resamples) as number;
      const confidenceLevel = confidenceFlag(flags.confidence);
      const alternative = choiceFlag('--alternative', flags.alternative, ALTERNATIVE_HYPOTHESES) as Alternative;
      const threads = threadsFlag(flags.threads);
      const seed = seedFlag(flags.seed);
      const scoreRange = scoreRangeFlag(flags.scoreRange);
      if (scoreRange !== undefined && method !== 'auto') throw new InputError('is used by --method auto only: a named method ignores the scores\' range', { file: '--score-range', value: flags.scoreRange });
      if ((flags.a === undefined) !== (flags.b === undefined)) {
        throw new InputError('give both --a and --b (one pair), or neither (every pair)', { file: flags.a === undefined ? '--b' : '--a', value: flags.a ?? flags.b });
      }
      if (flags.a !== undefined && flags.a === flags.b) throw new InputError('--a and --b must name two different models', { file: '--b', value: flags.b });
      if (alternative !== 'two-sided' && flags.a === undefined) {
        // Without --a/--b the pairs are ordered best first by the observed means, so a one-sided test
        // would pick its direction after seeing the data and halve every p-value.
        throw new InputError('a one-sided test needs --a and --b (its direction must be chosen before the data is seen)', { file: '--alternative', value: alternative });
      }
      const table = loadInputs(inputs, flags, io).table;
      if (flags.cluster && !table.hasCluster) throw new InputError('--cluster needs a "cluster" column in the scores (e.g. the document of each item)', { file: scoresPath });
      if (flags.stratified && !table.hasStratum) throw new InputError('--stratified needs a "stratum" column in the scores', { file: scoresPath });
      const pair = flags.a !== undefined && flags.b !== undefined;
      let models = pair ? [flags.a as string, flags.b as string] : table.models;
      if (models.length < 2) throw new InputError(`compare needs at least two models (got ${models.length}: ${models.join(', ')})`, { file: scoresPath });
      let aligned = alignModels(table, models, { dropUnpaired: Boolean(flags.dropUnpaired) });
      // Every pair best first, so every estimate reads "the better-scoring model minus the other".
      if (!pair) aligned = alignedBestFirst(aligned);
      models = aligned.models;
      if (flags.cluster && flags.stratified) checkClustersWithinStrata(aligned);
      if (scoreRange !== undefined) checkTableScoresInRange(table, models, scoreRange);
      const bar = progress(io, 'compare');
      const options = {
        method,
        nResamples,
        nPermutations: nResamples,
        confidenceLevel,
        alternative,
        seed,
        cluster: flags.cluster ? aligned.cluster : null,
        strata: flags.stratified ? aligned.stratum : null,
        threads,
        onProgress: bar.update,
        ...(flags.midP ? { midP: true } : {}),
        ...(scoreRange !== undefined ? { scoreRange } : {}),
      };
      let result: CompareModelsResult;
      try {
        result = threads > 1 ? await compareModelsParallel(aligned, options) : compareModels(aligned, options);
      } finally {
        bar.done();
      }
      const dropped = aligned.dropped;
      // A declared --score-range is a setting that produced the numbers: echoed (only when given, so other output is unchanged).
      const settings = { scores: scoresPath, threads, loader: loaderSettingsOf(flags), ...(scoreRange !== undefined ? { scoreRange } : {}) };
      const markdown = () => compareMarkdown(result, { source: scoresPath, dropped });
      if (pair) {
        const report = comparePairReport(result, aligned, settings);
        emit(ctx, report, () => formatComparePair(report), markdown);
      } else {
        const report = compareAllReport(result, dropped, settings);
        emit(ctx, report, () => formatCompareAll(report), markdown);
      }
      if (flags.chart !== undefined) await writeChart(forestPlotSpec(result), flags.chart);
    });
}
