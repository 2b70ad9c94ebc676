import type { StratifiedHeadlinesResult } from '../strata/headlines.js';
import { markdownDocument, markdownLevel, markdownTable, markdownText, markdownWarnings } from './markdown.js';
import { formatInterval, formatNumber, formatPercent } from './table.js';

/** Names of the inputs and the warnings to print, for the Markdown of a headline. */
export interface HeadlineMarkdownOptions {
  /** The scores file, echoed in the closing line. */
  source?: string;
  /** The strata file that gave the traffic shares. */
  strataSource?: string;
  /** Unpaired items left out (--drop-unpaired). */
  dropped?: number;
  /** The warnings to print (default: the result's own). */
  warnings?: readonly string[];
}

const cell = (mean: number, interval: readonly [number, number]) => `${formatNumber(mean)} ${formatInterval(interval)}`;

/**
 * The traffic-reweighted headline in one Markdown line: each model's headline with its interval,
 * then each difference of headlines and whether its interval excludes 0.
 * @example headlineVerdictMarkdown(result) // => "Traffic-reweighted headline, 95% intervals: **a 0.82 [0.76, 0.88]**, b 0.74 [0.68, 0.8]. a − b: 0.08 [0.02, 0.14], excludes 0."
 */
export function headlineVerdictMarkdown(result: StratifiedHeadlinesResult): string {
  const level = markdownLevel(result.confidenceLevel);
  const best = result.models.reduce((k, m, j) => (m.headline.estimate > result.models[k].headline.estimate ? j : k), 0);
  const models = result.models.map((m, k) => {
    const text = `${markdownText(m.model)} ${cell(m.headline.estimate, m.headline.interval)}`;
    return k === best && result.models.length > 1 ? `**${text}**` : text;
  });
  const differences = result.differences.map((d) => `${markdownText(d.a)} − ${markdownText(d.b)}: ${cell(d.estimate, d.interval)}, ${d.excludesZero ? 'excludes 0' : 'includes 0 (cannot tell apart)'}.`);
  return [`Traffic-reweighted headline, ${level} intervals: ${models.join(', ')}.`, ...differences].join(' ');
}

/**
 * Per-stratum scores and the reweighted headline in GitHub-flavoured Markdown: the headline
 * line, a table of strata (traffic share, n, each model's mean and interval) with the headline
 * and the plain mean, the differences of headlines, the settings and warnings. A pure function
 * of the result.
 * @param result what stratifiedHeadlines returned.
 * @param options the inputs' names, items left out, and the warnings to print.
 * @returns the document, ending in a newline.
 * @example headlineMarkdown(stratifiedHeadlines(aligned, weights), { source: 'scores.csv', strataSource: 'strata.yaml' })
 */
export function headlineMarkdown(result: StratifiedHeadlinesResult, options: HeadlineMarkdownOptions = {}): string {
  const r = result;
  const level = markdownLevel(r.confidenceLevel);
  const weights = r.models[0].headline.weights;
  const lines = [headlineVerdictMarkdown(r), ''];
  const rows: string[][] = r.models[0].strata.map((s, h) => [
    markdownText(s.stratum),
    formatPercent(weights.find((w) => w.stratum === s.stratum)?.weight ?? 0),
    String(s.n),
    ...r.models.map((m) => cell(m.strata[h].mean, m.strata[h].interval)),
  ]);
  const items = r.models[0].strata.reduce((total, s) => total + s.n, 0);
  rows.push(['**headline**', formatPercent(weights.reduce((a, w) => a + w.weight, 0)), '', ...r.models.map((m) => `**${cell(m.headline.estimate, m.headline.interval)}**`)]);
  rows.push(['plain mean (a ranking aid, not an accuracy)', '', String(items), ...r.models.map((m) => formatNumber(m.rawMean))]);
  const header = ['stratum', 'traffic', 'n', ...r.models.map((m) => markdownText(m.model))];
  lines.push(markdownTable(header, rows, header.map((_, k) => (k === 1 || k === 2 ? 'right' : 'left'))));
  if (r.differences.length > 0) {
    lines.push('');
    lines.push(
      markdownTable(
        ['A − B', 'estimate', `${level} ${r.method} interval`, 'SE', 'excludes 0'],
        r.differences.map((d) => [`${markdownText(d.a)} − ${markdownText(d.b)}`, formatNumber(d.estimate), formatInterval(d.interval), formatNumber(d.standardError), d.excludesZero ? 'yes' : 'no']),
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
  }
  const of = options.source === undefined ? '' : ` of ${markdownText(options.source)}`;
  const strata = options.strataSource === undefined ? '' : ` from ${markdownText(options.strataSource)}`;
  const dropped = (options.dropped ?? 0) > 0 ? ` (${options.dropped} unpaired left out)` : '';
  const differences = r.differences.length > 0 ? `; differences by stratified bootstrap, ${r.nResamples} resamples, seed ${markdownText(r.seed)}` : '';
  lines.push('', `<sub>${items} items${of}${dropped}; headline = Σ traffic × stratum mean, traffic shares${strata}; stratum intervals are normal (as R survey's confint)${differences}. benchplan headline.</sub>`);
  const warnings = options.warnings ?? [...r.warnings, ...r.differences.flatMap((d) => d.warnings.map((w) => `${d.a} − ${d.b}: ${w}`))];
  lines.push(...markdownWarnings(warnings));
  return markdownDocument(lines);
}
