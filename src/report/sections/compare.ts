import { compareModels, type CompareModelsResult } from '../../bootstrap/index.js';
import { forestPlotSpec } from '../../charts/forest.js';
import { InputError } from '../../data/errors.js';
import { alignModels } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import { formatInterval, formatNumber } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

/**
 * The comparison section: every pair of models on the items all of them scored, a paired
 * bootstrap interval of the mean difference (whole clusters resampled when the scores have a
 * cluster column), sign-flip p-values Holm-adjusted, and the forest plot.
 * @throws {InputError} when the scores have fewer than two models.
 */
export function compareSection(table: ScoresTable, settings: ReportSettings): { section: ReportSection; result: CompareModelsResult } {
  if (table.models.length < 2) throw new InputError('comparing models needs at least two models in the scores', { file: table.source, value: table.models.join(', ') });
  const aligned = alignModels(table, table.models, { dropUnpaired: true });
  const clustered = table.hasCluster && aligned.cluster !== null;
  const result = compareModels(aligned, {
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.nResamples,
    nPermutations: settings.nResamples,
    seed: settings.seed,
    method: 'bca',
    cluster: clustered ? aligned.cluster : null,
  });
  const distinguishable = result.pairs.filter((p) => p.distinguishable);
  const first = result.pairs[0]?.bootstrap;
  const paragraphs = [
    `Each candidate is scored on the same ${result.n} items, so the question “is A better than B” is read off the paired differences A − B: items on which both give the same verdict cancel, and the interval shows how far the rest can move the mean.`,
    distinguishable.length === 0
      ? `No pair of models is distinguishable at the ${Math.round(result.confidenceLevel * 100)}% level after Holm’s adjustment.`
      : `Distinguishable after Holm’s adjustment: ${distinguishable.map((p) => `${p.a} − ${p.b} = ${formatNumber(p.estimate)} ${formatInterval(p.confidenceInterval)}`).join('; ')}.`,
  ];
  if (clustered && first?.designEffect !== undefined) {
    paragraphs.push(
      `Items share documents (the cluster column), so whole documents are resampled (${first.nClusters} clusters). For ${result.pairs[0].a} − ${result.pairs[0].b} the clustered standard error is ${formatNumber(first.clusteredStandardError ?? NaN)} against ${formatNumber(first.naiveStandardError)} if items were independent: a design effect of ${formatNumber(first.designEffect)}.`,
    );
  }
  const section: ReportSection = {
    id: 'compare',
    title: 'Which models differ',
    paragraphs,
    figure: { spec: forestPlotSpec(result), caption: `Mean paired difference A − B with its ${Math.round(result.confidenceLevel * 100)}% ${result.method} interval; coloured when distinguishable after Holm.` },
    tables: [
      {
        caption: 'Every pair',
        header: ['A − B', 'n', 'estimate', 'interval', 'SE', 'p (Holm)', 'distinguishable'],
        rows: result.pairs.map((p) => [`${p.a} − ${p.b}`, String(p.n), formatNumber(p.estimate), formatInterval(p.confidenceInterval), formatNumber(p.standardError), formatNumber(p.adjustedPValue), p.distinguishable ? 'yes' : 'no']),
      },
      {
        caption: 'Mean score per model',
        header: ['model', 'mean'],
        rows: result.models.map((m, k) => [m, formatNumber(result.means[k])]),
      },
    ],
    settings: [
      ['interval', `${result.method}, ${result.nResamples} resamples${clustered ? ' of clusters' : ''}`],
      ['p-values', `paired sign-flip permutation, ${result.nPermutations} permutations, Holm-adjusted`],
      ['confidence level', String(result.confidenceLevel)],
      ['seed', result.seed],
      ['items', `${result.n}${aligned.dropped > 0 ? ` (${aligned.dropped} not scored by every model left out)` : ''}`],
    ],
    warnings: [...result.warnings, ...result.pairs.flatMap((p) => p.warnings.map((w) => `${p.a} − ${p.b}: ${w}`))].filter((w, k, all) => all.indexOf(w) === k),
  };
  return { section, result };
}
