import { compareModels, type CompareModelsResult } from '../../paired/index.js';
import { forestPlotSpec } from '../../charts/forest.js';
import { InputError } from '../../data/errors.js';
import { alignModels } from '../../data/pairing.js';
import type { ScoresTable } from '../../data/scores.js';
import { formatInterval, formatNumber } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

/**
 * The comparison section: every pair of models on the items all of them scored, the interval of
 * the mean difference chosen by `--method auto` (chooseIntervalMethod: Tango's score interval
 * and its score test for 0/1 scores, CR2 when the scores have a cluster column, t or BCa for
 * continuous scores), each pair's p-value Holm-adjusted, and the forest plot.
 * @throws {InputError} when the scores have fewer than two models.
 */
export function compareSection(table: ScoresTable, settings: ReportSettings): { section: ReportSection; result: CompareModelsResult } {
  if (table.models.length < 2) throw new InputError('comparing models needs at least two models in the scores', { file: table.source, value: table.models.join(', ') });
  const aligned = alignModels(table, table.models, { dropUnpaired: settings.dropUnpaired ?? false });
  const clustered = table.hasCluster && aligned.cluster !== null;
  const result = compareModels(aligned, {
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.nResamples,
    nPermutations: settings.nResamples,
    seed: settings.seed,
    method: 'auto',
    cluster: clustered ? aligned.cluster : null,
  });
  const used = [...new Set(result.pairs.map((p) => p.methodUsed))];
  const reasons = [...new Set(result.pairs.map((p) => p.methodReason))];
  const distinguishable = result.pairs.filter((p) => p.distinguishable);
  const first = result.pairs[0]?.bootstrap;
  const paragraphs = [
    `Each candidate is scored on the same ${result.n} items, so the question “is A better than B” is read off the paired differences A − B: items on which both give the same verdict cancel, and the interval shows how far the rest can move the mean.`,
    distinguishable.length === 0
      ? `No pair of models is distinguishable at the ${Math.round(result.confidenceLevel * 100)}% level after Holm’s adjustment.`
      : `Distinguishable after Holm’s adjustment: ${distinguishable.map((p) => `${p.a} − ${p.b} = ${formatNumber(p.estimate)} ${formatInterval(p.confidenceInterval)}`).join('; ')}.`,
  ];
  if (aligned.dropped > 0) paragraphs.push(`${aligned.dropped} item${aligned.dropped === 1 ? '' : 's'} not scored by every model ${aligned.dropped === 1 ? 'was' : 'were'} left out (--drop-unpaired).`);
  if (clustered && first?.designEffect !== undefined) {
    paragraphs.push(
      `Items share documents (the cluster column), so the interval treats documents as the independent units (${first.nClusters} clusters). For ${result.pairs[0].a} − ${result.pairs[0].b} the clustered standard error is ${formatNumber(first.clusteredStandardError ?? NaN)} against ${formatNumber(first.naiveStandardError)} if items were independent: a design effect of ${formatNumber(first.designEffect)}.`,
    );
  }
  const section: ReportSection = {
    id: 'compare',
    title: 'Which models differ',
    paragraphs,
    figure: { spec: forestPlotSpec(result), caption: `Mean paired difference A − B with its ${Math.round(result.confidenceLevel * 100)}% ${used.join(' / ')} interval (--method auto); coloured when distinguishable after Holm.` },
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
      ['interval', `auto: ${reasons.join('; ')}${result.nResamples > 0 ? `; ${result.nResamples} resamples${clustered ? ' of clusters' : ''}` : ''}`],
      ['p-values', `${used.includes('bca') ? `paired sign-flip permutation (${result.nPermutations} permutations) for BCa pairs; ` : ''}${used.includes('tango') ? "Tango's score test (McNemar's Z) for 0/1 pairs; " : ''}${used.includes('newcombe') ? 'exact McNemar for 0/1 pairs; ' : ''}${used.includes('cr2') ? 'CR2 t test for clustered pairs; ' : ''}${used.includes('t') ? 't test; ' : ''}Holm-adjusted`],
      ['confidence level', String(result.confidenceLevel)],
      ['seed', result.seed],
      ['items', `${result.n}${aligned.dropped > 0 ? ` (${aligned.dropped} not scored by every model left out)` : ''}`],
    ],
    warnings: [...result.warnings, ...result.pairs.flatMap((p) => p.warnings.map((w) => `${p.a} − ${p.b}: ${w}`))].filter((w, k, all) => all.indexOf(w) === k),
  };
  return { section, result };
}
