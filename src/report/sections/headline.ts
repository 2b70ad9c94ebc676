import { stratumScoresSpec } from '../../charts/stratum-scores.js';
import { InputError } from '../../data/errors.js';
import { alignModels } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import type { Strata } from '../../data/strata-file.js';
import { stratifiedHeadlines, type StratifiedHeadlinesResult } from '../../strata/index.js';
import { formatInterval, formatNumber } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

const INTERVAL_NAMES: Record<string, string> = { wilson: 'Wilson', wald: 'normal (Wald)', beta: 'Korn–Graubard beta', 'beta-smoothed': 'Korn–Graubard beta (smoothed strata)', logit: 'logit' };

/** The distinct interval methods used, named for a caption. */
function intervalNames(methods: readonly string[]): string {
  return [...new Set(methods)].map((m) => INTERVAL_NAMES[m] ?? m).join(' / ');
}

/**
 * The per-stratum section: each model's score per stratum with its interval (the primary
 * output of an enriched set), the traffic-reweighted headline with its weights, the plain mean
 * labelled as a ranking aid, and the stratified-bootstrap differences between headlines.
 * @throws {InputError} when the scores have no stratum column, the strata no traffic shares, or a
 *   stratum of the scores is missing from the strata file.
 */
export function headlineSection(table: ScoresTable, strata: Strata, settings: ReportSettings): { section: ReportSection; result: StratifiedHeadlinesResult } {
  if (!table.hasStratum) throw new InputError('the per-stratum section needs a stratum column in the scores', { file: table.source });
  if (!strata.hasTraffic) throw new InputError('the headline needs a traffic share for every stratum', { file: strata.source });
  const aligned = alignModels(table, table.models, { dropUnpaired: settings.dropUnpaired ?? false });
  const names = new Set(strata.strata.map((s) => s.name));
  const unknown = [...new Set(Array.from(aligned.stratum ?? [], (s) => aligned.strata[s]))].filter((name) => !names.has(name));
  if (unknown.length > 0) {
    throw new InputError(`stratum "${unknown[0]}" is in the scores but not in ${strata.source}: add it with a traffic share (or fix the name)`, { file: table.source, value: unknown[0] });
  }
  const weights = strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic as number }));
  const result = stratifiedHeadlines(aligned, weights, { confidenceLevel: settings.confidenceLevel, nResamples: settings.nResamples, seed: settings.seed });
  const models = result.models;
  const cell = (mean: number, interval: readonly [number, number]) => `${formatNumber(mean)} ${formatInterval(interval)}`;
  const section: ReportSection = {
    id: 'strata',
    title: 'Scores by stratum, and the traffic-reweighted headline',
    paragraphs: [
      'An enriched selection set over-represents the hard strata by design, so its plain average is no estimate of production accuracy. The per-stratum scores are the primary output; the headline puts the production traffic shares back in as weights, and the weights are printed beside it.',
      `Headlines: ${models.map((m) => `${m.model} ${formatNumber(m.headline.estimate)} ${formatInterval(m.headline.interval)}`).join('; ')} (weights ${weights.map((w) => `${w.stratum} ${formatNumber(w.weight)}`).join(', ')}).`,
    ],
    figure: { spec: stratumScoresSpec(result), caption: `Per-stratum means with ${Math.round(result.confidenceLevel * 100)}% ${intervalNames(models.flatMap((m) => m.strata.map((s) => s.method)))} intervals (headline: ${intervalNames(models.map((m) => m.headline.method))}); diamonds: the reweighted headline; triangles: the plain mean of the set (a ranking aid, not an accuracy).` },
    tables: [
      {
        caption: 'Mean [interval] by stratum',
        header: ['stratum', 'items', ...models.map((m) => m.model)],
        rows: [
          ...result.strata.map((stratum) => {
            const rows = models.map((m) => m.strata.find((s) => s.stratum === stratum));
            return [stratum, String(rows[0]?.n ?? 0), ...rows.map((s) => (s ? cell(s.mean, s.interval) : '-'))];
          }),
          ['headline (traffic-weighted)', '', ...models.map((m) => cell(m.headline.estimate, m.headline.interval))],
          ['plain mean (ranking aid)', '', ...models.map((m) => formatNumber(m.rawMean))],
        ],
      },
      ...(result.differences.length > 0
        ? [
            {
              caption: 'Differences of headlines (stratified bootstrap)',
              header: ['A − B', 'estimate', 'interval', 'excludes 0'],
              rows: result.differences.map((d) => [`${d.a} − ${d.b}`, formatNumber(d.estimate), formatInterval(d.interval), d.excludesZero ? 'yes' : 'no']),
            },
          ]
        : []),
    ],
    settings: [
      ['weights', weights.map((w) => `${w.stratum} ${formatNumber(w.weight)}`).join(', ')],
      ['confidence level', String(result.confidenceLevel)],
      ['per-stratum / headline intervals', `${result.stratumInterval} (${intervalNames(models.flatMap((m) => m.strata.map((s) => s.method)))}) / ${result.headlineInterval} (${intervalNames(models.map((m) => m.headline.method))})`],
      ['difference intervals', `${result.method}, ${result.nResamples} stratified resamples`],
      ['seed', result.seed],
    ],
    warnings: [...result.warnings, ...(aligned.dropped > 0 ? [`${aligned.dropped} items not scored by every model left out`] : [])],
  };
  return { section, result };
}
