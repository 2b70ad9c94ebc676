import { stratumScoresSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';
import { alignModels } from '../data/pairing.js';
import { loadStrata } from '../data/strata-file.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { stratifiedHeadlines, type HeadlineDifference } from '../strata/headlines.js';
import { HEADLINE_INTERVAL_METHODS, STRATUM_INTERVAL_METHODS, type HeadlineIntervalMethod, type StratumIntervalMethod } from '../strata/proportion-interval.js';
import type { StratumWeight } from '../strata/headline.js';
import { StratumRangeError } from '../strata/errors.js';
import { strataInputError } from './strata-input-error.js';
import { choiceFlag, contextOf, emit, progress, seedFlag, type Io, warningLines, resamplesFlag } from './io.js';
import { FORMAT_OPTION } from './output-format.js';
import { headlineMarkdown } from '../report/markdown-headline.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { headlineWithDesign } from './headline-design.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

const DIFFERENCE_METHODS = ['auto', 'bca', 'percentile', 'basic'] as const;

/** The JSON document of `benchplan headline`. */
export interface HeadlineReport {
  models: Array<{
    model: string;
    strata: Array<{ stratum: string; n: number; mean: number; standardError: number; interval: [number, number]; method: 'wald' | 'wilson' }>;
    headline: { estimate: number; standardError: number; interval: [number, number]; method: 'wald' | 'logit' | 'beta' | 'beta-smoothed'; methodReason: string; weights: StratumWeight[] };
    rawMean: number;
  }>;
  differences: HeadlineDifference[];
  rawMeanNote: string;
  scores: string;
  strata: string;
  items: number;
  dropped: number;
  confidenceLevel: number;
  stratumInterval: StratumIntervalMethod;
  headlineInterval: HeadlineIntervalMethod;
  method: (typeof DIFFERENCE_METHODS)[number];
  resamples: number;
  seed: string;
  warnings: string[];
}

const RAW_MEAN_NOTE = 'rawMean is the plain mean over the enriched set: a ranking aid, not an accuracy (its mix of strata is no population anyone sends)';

/** The readable report: per-stratum scores first, then the headline with its weights, then the differences. */
export function formatHeadline(r: HeadlineReport): string {
  const out: string[] = [];
  const level = formatPercent(r.confidenceLevel, 0);
  out.push(`Per-stratum scores (the primary output), ${level} intervals: ${r.scores}, ${r.items} items${r.dropped > 0 ? ` (${r.dropped} unpaired left out)` : ''}`);
  const weights = r.models[0].headline.weights;
  const cell = (mean: number, interval: [number, number]) => `${formatNumber(mean)} ${formatInterval(interval)}`;
  const header = ['stratum', 'traffic', 'n', ...r.models.map((m) => m.model)];
  const align = header.map((_, k) => (k === 0 || k >= 3 ? 'left' : 'right') as 'left' | 'right');
  const rows: string[][] = r.models[0].strata.map((s, h) => [
    s.stratum,
    formatPercent(weights.find((w) => w.stratum === s.stratum)?.weight ?? 0),
    String(s.n),
    ...r.models.map((m) => cell(m.strata[h].mean, m.strata[h].interval)),
  ]);
  rows.push(['headline', formatPercent(weights.reduce((a, w) => a + w.weight, 0)), '', ...r.models.map((m) => cell(m.headline.estimate, m.headline.interval))]);
  rows.push(['plain mean*', '', String(r.items), ...r.models.map((m) => formatNumber(m.rawMean))]);
  out.push(formatTable(header, rows, { align }));
  out.push(`headline = Σ traffic × stratum mean, weights: ${weights.map((w) => `${w.stratum} ${formatNumber(w.weight)}`).join(', ')} (${r.strata}); its SE is √(Σ traffic² × s² / n).`);
  out.push(`intervals: per stratum ${methodList(r.models.flatMap((m) => m.strata.map((s) => s.method)))}, headline ${methodList(r.models.map((m) => m.headline.method))} (--stratum-interval ${r.stratumInterval}, --headline-interval ${r.headlineInterval}).`);
  out.push('* plain mean over the enriched set: a ranking aid, not an accuracy.');
  if (r.differences.length > 0) {
    out.push('');
    if (r.method === 'auto') {
      const reasons = [...new Set(r.differences.map((d) => d.methodReason))];
      const used = [...new Set(r.differences.map((d) => d.methodUsed))];
      out.push(`Differences of reweighted headlines (A − B on the same items; ${level} interval by --method auto: ${reasons.join('; ')}${used.includes('bca') ? `; ${r.resamples} resamples, seed ${r.seed}` : ''})`);
    } else out.push(`Differences of reweighted headlines (A − B on the same items; ${level} stratified-bootstrap ${r.method} interval, ${r.resamples} resamples, seed ${r.seed})`);
    out.push(
      formatTable(
        ['A', 'B', 'estimate', 'SE', 'interval', 'excludes 0'],
        r.differences.map((d) => [d.a, d.b, formatNumber(d.estimate), formatNumber(d.standardError), formatInterval(d.interval), d.excludesZero ? 'yes' : 'no']),
        { align: ['left', 'left', 'right', 'right', 'right', 'left'] },
      ),
    );
  }
  const warnings = [...r.warnings, ...r.differences.flatMap((d) => d.warnings.map((w) => `${d.a} − ${d.b}: ${w}`))];
  out.push(...warningLines(warnings));
  return out.join('\n');
}

const METHOD_NAMES: Record<string, string> = { wilson: 'Wilson', wald: 'Wald (normal)', beta: 'Korn–Graubard beta', 'beta-smoothed': 'Korn–Graubard beta (smoothed strata)', logit: 'logit' };

function methodList(methods: readonly string[]): string {
  return [...new Set(methods)].map((m) => METHOD_NAMES[m] ?? m).join(' / ');
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('headline')
    .description('per-stratum scores and a traffic-reweighted headline')
    .argument('<inputs...>', 'scores table(s) with a stratum column, or results files of promptfoo, Inspect, lm-eval (with --stratum-key)')
    .requiredOption('--strata <file>', 'strata file (YAML) with the traffic share of every stratum')
    .option('--model <model>', 'a model to report (repeat for several; default: every model)', (value: string, previous: string[] = []) => [...previous, value])
    .option(...confidenceOption('coverage of the intervals'))
    .option('--method <method>', `interval of the differences: ${DIFFERENCE_METHODS.join(', ')} (auto: Satterthwaite t with a pooled-variance floor when a weighted stratum has < 10 items, else stratified t below 100 items, stratified BCa from 100)`, 'auto')
    .option('--stratum-interval <method>', `per-stratum intervals: ${STRATUM_INTERVAL_METHODS.join(', ')} (auto: Wilson for 0/1 scores, else Wald)`, 'auto')
    .option('--headline-interval <method>', `headline intervals: ${HEADLINE_INTERVAL_METHODS.join(', ')} (auto: beta-smoothed for 0/1 scores, else Wald)`, 'auto')
    .option(...resamplesOption('stratified-bootstrap resamples for the differences (at most 10,000,000)'))
    .option(...seedOption('seed of the bootstrap'))
    .option(...dropUnpairedOption('leave out items not every model scored (and say how many)'))
    .option('--design <file>', 'the scores are the list benchplan select wrote, labelled: headlines over the whole pool with its inclusion probabilities')
    .option(...CHART_OPTION)
    .option(...FORMAT_OPTION);
  withSourceOptions(command)
    .action(async (inputs, options, command) => {
      const scoresPath = inputs.join(' + ');
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      const confidenceLevel = confidenceFlag(options.confidence);
      const method = choiceFlag('--method', options.method, DIFFERENCE_METHODS) ?? 'auto';
      const stratumInterval = choiceFlag('--stratum-interval', options.stratumInterval, STRATUM_INTERVAL_METHODS) ?? 'auto';
      const headlineInterval = choiceFlag('--headline-interval', options.headlineInterval, HEADLINE_INTERVAL_METHODS) ?? 'auto';
      const resamples = resamplesFlag(options.resamples) as number;
      const seed = seedFlag(options.seed);
      const strata = loadStrata(options.strata);
      if (!strata.hasTraffic) throw new InputError('the headline needs a traffic share for every stratum', { file: strata.source, line: strata.strata[0].line || undefined });
      if (options.design !== undefined) return headlineWithDesign(ctx, inputs, strata, confidenceLevel, command);
      const table = loadInputs(inputs, options as Record<string, unknown>, io).table;
      if (!table.hasStratum) throw new InputError('the headline needs a stratum column in the scores', { file: scoresPath });
      const models = options.model ?? table.models;
      const aligned = alignModels(table, models, { dropUnpaired: Boolean(options.dropUnpaired) });

      // Strata in the scores but not in the strata file: their items have no traffic share.
      const names = new Set(strata.strata.map((s) => s.name));
      const counts = new Map<string, number>();
      for (const s of aligned.stratum!) counts.set(aligned.strata[s], (counts.get(aligned.strata[s]) ?? 0) + 1);
      const unknown = [...counts].filter(([name]) => !names.has(name));
      if (unknown.length > 0) {
        throw new InputError(
          `${unknown.length === 1 ? 'stratum' : 'strata'} ${unknown.map(([name, n]) => `"${name}" (${n} item${n === 1 ? '' : 's'})`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} in the scores but not in ${strata.source}: add ${unknown.length === 1 ? 'it' : 'them'} with a traffic share (or fix the name)`,
          { file: scoresPath, value: unknown[0][0] },
        );
      }
      const weights = strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic! }));
      const bar = progress(io, 'bootstrap');
      let result: ReturnType<typeof stratifiedHeadlines>;
      try {
        result = stratifiedHeadlines(aligned, weights, { confidenceLevel, method, nResamples: resamples, seed, stratumInterval, headlineInterval, onProgress: bar.update });
      } catch (error) {
        // Only what the strata file decides is blamed on it (a stratum's weight, weights that do
        // not sum to 1); the flags were checked above, so any other RangeError is a bug.
        if (error instanceof RangeError && !(error instanceof StratumRangeError) && !/weights/.test(error.message)) throw error;
        strataInputError(error, strata);
      } finally {
        bar.done();
      }
      const warnings = [...result.warnings];
      // Normal intervals (survey's confint) can pass the ends of a bounded score; say so once.
      let lowest = Infinity;
      let highest = -Infinity;
      for (let r = 0; r < table.rowCount; r++) {
        lowest = Math.min(lowest, table.score[r]);
        highest = Math.max(highest, table.score[r]);
      }
      const ends = result.models.flatMap((m) => [...m.strata.map((s) => s.interval), m.headline.interval]).flat();
      if (ends.some((x) => x < lowest || x > highest)) {
        warnings.push(`some intervals pass the range of the scores [${formatNumber(lowest)}, ${formatNumber(highest)}]: they are normal (Wald) intervals, as R survey's confint; near the ends, read them as "close to the end"`);
      }
      if (aligned.dropped > 0) warnings.push(`${aligned.dropped} item${aligned.dropped === 1 ? '' : 's'} not scored by every model left out (--drop-unpaired)`);
      const report: HeadlineReport = {
        models: result.models.map((m) => ({
          model: m.model,
          strata: m.strata.map(({ stratum, n, mean, standardError, interval, method }) => ({ stratum, n, mean, standardError, interval, method })),
          headline: {
            estimate: m.headline.estimate,
            standardError: m.headline.standardError,
            interval: m.headline.interval,
            method: m.headline.method,
            methodReason: m.headline.methodReason,
            weights: m.headline.weights,
          },
          rawMean: m.rawMean,
        })),
        differences: result.differences,
        rawMeanNote: RAW_MEAN_NOTE,
        scores: scoresPath,
        strata: strata.source,
        items: aligned.items.length,
        dropped: aligned.dropped,
        confidenceLevel,
        stratumInterval,
        headlineInterval,
        method,
        resamples,
        seed,
        warnings,
      };
      emit(ctx, report, () => formatHeadline(report), () => headlineMarkdown(result, { source: scoresPath, strataSource: strata.source, dropped: aligned.dropped, warnings: [...warnings, ...result.differences.flatMap((d) => d.warnings.map((w) => `${d.a} − ${d.b}: ${w}`))] }));
      if (options.chart !== undefined) await writeChart(stratumScoresSpec(report), options.chart);
    });
}
