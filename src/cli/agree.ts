import { agreementChartSpec, CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import type { Command } from '@commander-js/extra-typings';
import { adjudicationCsv, adjudicationList } from '../agreement/adjudication.js';
import { agreementByType, type AgreementByTypeResult } from '../agreement/by-type.js';
import { loadAnnotations } from '../data/annotations.js';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { contextOf, emit, numberFlag, progress, seedFlag, type Io, warningLines, resamplesFlag } from './io.js';
import { confidenceFlag, confidenceOption, resamplesOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan agree`. */
export interface AgreeReport extends AgreementByTypeResult {
  source: string;
  /** Where the adjudication list was written and how many items it holds; null without --adjudicate. */
  adjudication: { file: string; items: number } | null;
}

const num = (x: number | null) => (x === null ? '-' : formatNumber(x));

/** The readable report: one row per clause type, then each type's statement and the warnings. */
export function formatAgree(report: AgreeReport): string {
  const r = report;
  const out: string[] = [];
  out.push(`Annotator agreement in ${r.source}: ${r.types.length} clause type${r.types.length === 1 ? '' : 's'}, annotators ${r.annotators.join(', ')}`);
  out.push(`Cohen's kappa for ${r.cohenPair.join(' / ')}; alpha is Krippendorff's (nominal) with a ${formatPercent(r.confidenceLevel, 0)} percentile bootstrap over items (${r.nResamples} resamples, seed ${r.seed}); flagged below ${r.threshold}.`);
  out.push('');
  out.push(
    formatTable(
      ['type', 'items', 'annot.', 'raw agr.', 'kappa', 'SE', 'Fleiss', 'alpha', 'alpha interval', 'flag'],
      r.types.map((t) => [
        t.type,
        String(t.items),
        String(t.annotators),
        Number.isFinite(t.rawAgreement) ? formatPercent(t.rawAgreement, 0) : 'NaN',
        num(t.cohenKappa),
        num(t.cohenKappaStandardError),
        num(t.fleissKappa),
        num(t.krippendorffAlpha),
        formatInterval(t.alphaInterval),
        t.belowThreshold ? 'BELOW' : '',
      ]),
      { align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'] },
    ),
  );
  const levels = r.types.filter((t) => t.krippendorffAlphaLevels !== null);
  if (levels.length > 0) {
    out.push('');
    out.push('Labels are numbers: alpha at the ordinal and interval levels too');
    for (const t of levels) out.push(`  ${t.type}: ordinal ${num(t.krippendorffAlphaLevels?.ordinal ?? NaN)}, interval ${num(t.krippendorffAlphaLevels?.interval ?? NaN)}`);
  }
  const spans = r.types.filter((t) => t.spans !== null);
  if (spans.length > 0) {
    out.push('');
    out.push(`Span agreement (pairs of annotators on the same item; overlap = shared characters / characters either marks, agreeing at ≥ ${r.spanOverlapThreshold})`);
    out.push(
      formatTable(
        ['type', 'pairs', 'exact match', 'overlap ≥ threshold', 'mean overlap'],
        spans.map((t) => {
          const s = t.spans as NonNullable<typeof t.spans>;
          return [t.type, String(s.pairs), formatPercent(s.exactAgreement, 0), formatPercent(s.overlapAgreement, 0), num(s.meanOverlap)];
        }),
        { align: ['left', 'right', 'right', 'right', 'right'] },
      ),
    );
  }
  out.push('');
  out.push('What each type can support');
  for (const t of r.types) out.push(`  ${t.type}${t.belowThreshold ? ' [BELOW]' : ''}: ${t.statement}.`);
  out.push('');
  if (r.adjudication) out.push(`Adjudication list: ${r.adjudication.items} item${r.adjudication.items === 1 ? '' : 's'} with disagreeing labels written to ${r.adjudication.file} for a third reader.`);
  else {
    const total = r.types.reduce((s, t) => s + t.disagreements, 0);
    out.push(`${total} item${total === 1 ? '' : 's'} with disagreeing labels; --adjudicate FILE writes them out for a third reader.`);
  }
  const warnings = [...r.warnings, ...r.types.flatMap((t) => t.warnings.map((w) => `${t.type}: ${w}`))];
  out.push(...warningLines(warnings));
  return out.join('\n');
}

/** Parses `--annotators A,B` into two distinct names. */
function pairFlag(raw: string | undefined): [string, string] | undefined {
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((name) => name.trim());
  if (names.length !== 2 || names.some((name) => name === '')) throw new InputError('must be two annotator names separated by a comma, e.g. ana,ben', { file: '--annotators', value: raw });
  if (names[0] === names[1]) throw new InputError('must name two different annotators', { file: '--annotators', value: raw });
  return [names[0], names[1]];
}

export function register(program: Command, io: Io): void {
  program
    .command('agree')
    .description('annotator agreement per clause type: kappa, alpha, what each type can support, and the items to adjudicate')
    .argument('<annotations>', 'annotations (CSV or JSONL): item, annotator, label, optional type, optional start/end spans')
    .option('--threshold <alpha>', "flag clause types whose Krippendorff's alpha is below this (Krippendorff's floor for tentative conclusions)", '0.667')
    .option('--annotators <a,b>', "the pair for Cohen's kappa (default: the first two annotators by name)")
    .option('--adjudicate <file>', 'write the items where annotators disagree, per type, as CSV for a third reader')
    .option(...seedOption('seed of the bootstrap interval for alpha'))
    .option(...resamplesOption('bootstrap resamples of items for the alpha interval (at most 10,000,000)'))
    .option(...confidenceOption("coverage of the kappa and alpha intervals"))
    .option('--span-overlap <ratio>', 'overlap ratio (shared / either) at which two spans agree', '0.5')
    .option(...CHART_OPTION)
    .action(async (file, options, command) => {
      const ctx = contextOf(command, io);
      if (options.chart !== undefined) preflightChart(options.chart);
      if (options.adjudicate !== undefined) preflightOutput(options.adjudicate, '--adjudicate');
      const threshold = numberFlag('--threshold', options.threshold, { min: -1, max: 1 }) as number;
      const nResamples = resamplesFlag(options.resamples) as number;
      const confidenceLevel = confidenceFlag(options.confidence);
      const spanOverlapThreshold = numberFlag('--span-overlap', options.spanOverlap, { above: 0, max: 1 }) as number;
      const seed = seedFlag(options.seed);
      const pair = pairFlag(options.annotators);

      const table = loadAnnotations(file);
      if (table.annotators.length < 2) {
        throw new InputError(`agreement needs labels from at least two annotators; this table has one`, { file, field: 'annotator', value: table.annotators.join(',') });
      }
      for (const name of pair ?? []) {
        if (!table.annotators.includes(name)) throw new InputError(`annotator "${name}" is not in ${file} (annotators: ${table.annotators.join(', ')})`, { file: '--annotators', value: options.annotators });
      }
      const fixed = ['type', 'item', 'adjudicated'];
      const clash = table.annotators.find((name) => fixed.includes(name));
      if (options.adjudicate !== undefined && clash !== undefined) {
        throw new InputError(`an annotator named "${clash}" would clash with a column of the adjudication CSV (type, item, adjudicated)`, { file, field: 'annotator', value: clash });
      }

      const bar = progress(io, 'agreement');
      const result = agreementByType(table, { threshold, annotators: pair, confidenceLevel, nResamples, seed, spanOverlapThreshold });
      bar.done();
      let adjudication: AgreeReport['adjudication'] = null;
      if (options.adjudicate !== undefined) {
        const list = adjudicationList(table);
        writeFileAtomic(options.adjudicate, adjudicationCsv(list));
        adjudication = { file: options.adjudicate, items: list.items.length };
      }
      const report: AgreeReport = { source: file, ...result, adjudication };
      emit(ctx, report, () => formatAgree(report));
      if (options.chart !== undefined) await writeChart(agreementChartSpec(result), options.chart);
    });
}
