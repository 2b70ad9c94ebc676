import { agreementByType, type AgreementByTypeResult } from '../../agreement/index.js';
import { agreementChartSpec } from '../../charts/agreement.js';
import type { AnnotationsTable } from '../../data/annotations.js';
import { formatInterval, formatNumber, formatPercent } from '../table.js';
import type { ReportSection } from '../html.js';
import type { ReportSettings } from './settings.js';

/**
 * The agreement section: Krippendorff's alpha per clause type with its bootstrap interval and
 * the threshold, raw agreement and Cohen's / Fleiss' kappa beside it, and what each type's
 * labels can support.
 */
export function agreementSection(table: AnnotationsTable, settings: ReportSettings): { section: ReportSection; result: AgreementByTypeResult } {
  const result = agreementByType(table, { confidenceLevel: settings.confidenceLevel, nResamples: settings.nResamples, seed: settings.seed });
  const flagged = result.types.filter((t) => t.belowThreshold);
  const section: ReportSection = {
    id: 'agreement',
    title: 'Annotator agreement by clause type',
    paragraphs: [
      'Agreement between independent annotators is a ceiling on what any model score can mean: a model is scored against one reader’s labels, and where readers disagree the label is partly a coin toss.',
      flagged.length === 0
        ? `Every clause type reaches Krippendorff’s alpha ${formatNumber(result.threshold)}.`
        : `${flagged.length} of ${result.types.length} clause types fall below alpha ${formatNumber(result.threshold)} (${flagged.map((t) => t.type).join(', ')}): sharpen the guideline for them and re-annotate rather than averaging the disagreement away.`,
      ...result.types.map((t) => `${t.type}: ${t.statement}`),
    ],
    figure: { spec: agreementChartSpec(result), caption: `Krippendorff’s alpha (nominal) per type; lines: ${formatPercent(result.confidenceLevel, 0)} percentile bootstrap interval over items.` },
    tables: [
      {
        caption: 'Agreement per type',
        header: ['type', 'items', 'raw agreement', `Cohen κ (${result.cohenPair.join(', ')})`, 'Fleiss κ', 'alpha', 'alpha interval', 'below threshold'],
        rows: result.types.map((t) => [
          t.type,
          String(t.items),
          formatPercent(t.rawAgreement),
          formatNumber(t.cohenKappa),
          t.fleissKappa === null ? '-' : formatNumber(t.fleissKappa),
          formatNumber(t.krippendorffAlpha),
          formatInterval(t.alphaInterval),
          t.belowThreshold ? 'yes' : 'no',
        ]),
      },
    ],
    settings: [
      ['annotators', result.annotators.join(', ')],
      ['threshold', formatNumber(result.threshold)],
      ['confidence level', String(result.confidenceLevel)],
      ['bootstrap resamples', String(result.nResamples)],
      ['seed', result.seed],
    ],
    warnings: [...result.warnings, ...result.types.flatMap((t) => t.warnings.map((w) => `${t.type}: ${w}`))],
  };
  return { section, result };
}
