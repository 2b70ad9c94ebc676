import { rankCandidates, type RankResult } from '../../decision/rank.js';
import { InputError } from '../../data/errors.js';
import { alignModels } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import { formatInterval, formatNumber, formatPercent } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

/**
 * The ranking section, for three or more models: the numbers `benchplan rank` prints on the same
 * scores, seed, resamples and confidence level (with `--cluster` when the scores have a cluster
 * column, as the comparison section resamples documents then): each model's P(best), its rank
 * interval, its simultaneous (max-T) interval from the leader, and, with an incumbent, the
 * selection-adjusted lower bound of "leader − incumbent" that stays valid although the leader was
 * picked as the best of k (bench/rank-selection.results.txt).
 * @param table the scores.
 * @param settings seed, confidence level, resamples and the unpaired-items rule.
 * @param incumbent the model in production, or null.
 * @throws {InputError} when the incumbent is not one of the models.
 */
export function rankingSection(table: ScoresTable, settings: ReportSettings, incumbent: string | null): { section: ReportSection; result: RankResult } {
  if (incumbent !== null && !table.models.includes(incumbent)) throw new InputError(`is not one of the models (${table.models.join(', ')})`, { file: '--incumbent', value: incumbent });
  const aligned = alignModels(table, table.models, { dropUnpaired: settings.dropUnpaired ?? false });
  const clustered = table.hasCluster && aligned.cluster !== null;
  const result = rankCandidates(aligned.scores, {
    models: aligned.models,
    incumbent,
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.nResamples,
    seed: settings.seed,
    cluster: clustered ? aligned.cluster : null,
  });
  const level = `${Math.round(result.confidenceLevel * 100)}%`;
  const leader = result.candidates.find((c) => c.model === result.leader);
  const paragraphs = [
    `Picking the best of ${result.candidates.length} models on the same items flatters the winner: its lead is partly luck. The ranking says how sure the choice is: P(best) is the share of bootstrap resamples in which each model leads, the rank interval is where its rank falls in ${level} of them, and the intervals from the leader hold for every model at once (max-T).`,
    `Leader: ${result.leader}${leader === undefined ? '' : ` (P(best) ${formatPercent(leader.pBest)})`}.`,
  ];
  if (result.selection !== null) {
    const s = result.selection;
    paragraphs.push(`${s.chosen} − ${incumbent} = ${formatNumber(s.estimate)}: selection-adjusted ${level} lower bound ${formatNumber(s.adjustedLowerBound)} (the naive ${formatNumber(s.naiveLowerBound)} ignores that ${s.chosen} was picked as the best).`);
  }
  const section: ReportSection = {
    id: 'ranking',
    title: 'How sure is the choice of the best',
    paragraphs,
    tables: [
      {
        caption: `Ranking (as benchplan rank${clustered ? ' --cluster' : ''})`,
        header: ['model', 'mean', 'P(best)', 'rank', 'rank interval', `− leader (${level} simultaneous)`, ...(incumbent === null ? [] : [`− ${incumbent} (${level} simultaneous)`])],
        rows: result.candidates.map((c) => [
          c.model,
          formatNumber(c.mean),
          formatPercent(c.pBest),
          formatNumber(c.rank),
          formatInterval(c.rankInterval),
          c.model === result.leader ? 'leader' : `${formatNumber(c.fromBest.estimate)} ${formatInterval(c.fromBest.confidenceInterval)}`,
          ...(incumbent === null ? [] : [c.fromIncumbent === null ? 'incumbent' : `${formatNumber(c.fromIncumbent.estimate)} ${formatInterval(c.fromIncumbent.confidenceInterval)}`]),
        ]),
      },
    ],
    settings: [
      ['method', `${result.methodUsed}; ${result.nResamples} resamples${clustered ? ' of clusters' : ''}`],
      ['confidence level', String(result.confidenceLevel)],
      ['seed', String(result.seed)],
      ['incumbent', incumbent ?? 'none (--incumbent)'],
    ],
    warnings: [...result.warnings],
  };
  return { section, result };
}
