import type { CompareModelsResult, PairComparison } from '../paired/compare-models.js';
import { markdownDocument, markdownLevel, markdownPValue, markdownTable, markdownText, markdownWarnings } from './markdown.js';
import { formatInterval, formatNumber } from './table.js';

/** Where the compared scores came from, for the closing line. */
export interface CompareMarkdownOptions {
  /** The scores file (or any name of the data), echoed in the closing line. */
  source?: string;
  /** Unpaired items left out before the comparison (--drop-unpaired). */
  dropped?: number;
}

const signFlips = (r: CompareModelsResult, p: PairComparison) => ('exact' in p.test && !p.test.exact ? r.nPermutations : 0);

/**
 * What a person does with one comparison, in one Markdown line: who scores higher and by at
 * least how much, or that the two cannot be told apart (and how large a gap is still possible).
 * @example compareVerdictMarkdown(result, result.pairs[0]) // => "**alpha scores higher than beta** by 0.152; at 95% confidence the gap is at least 0.11."
 */
export function compareVerdictMarkdown(result: CompareModelsResult, pair: PairComparison): string {
  const level = markdownLevel(result.confidenceLevel);
  const [low, high] = pair.confidenceInterval;
  const a = markdownText(pair.a);
  const b = markdownText(pair.b);
  if (pair.auto?.noInterval) return `⚠️ **No verdict** on ${a} − ${b}: ${markdownText(pair.auto.noInterval)}.`;
  if (Number.isNaN(low) || Number.isNaN(high)) return `⚠️ **No verdict** on ${a} − ${b}: the interval is undefined (see the warnings).`;
  if (pair.excludesZero) {
    const better = pair.estimate > 0 ? a : b;
    const worse = pair.estimate > 0 ? b : a;
    const bound = pair.estimate > 0 ? low : -high;
    return `**${better} scores higher than ${worse}** by ${formatNumber(Math.abs(pair.estimate))}; at ${level} confidence the gap is at least ${formatNumber(bound)}.`;
  }
  const reach = Math.max(Math.abs(Number.isFinite(low) ? low : 0), Math.abs(Number.isFinite(high) ? high : 0));
  return `**Cannot tell ${a} and ${b} apart** at ${level}: the interval includes 0, and a gap of up to ${formatNumber(reach)} either way is still consistent with the data.`;
}

function intervalTitle(r: CompareModelsResult): string {
  const side = r.alternative === 'two-sided' ? '' : r.alternative === 'greater' ? ' one-sided (A > B)' : ' one-sided (A < B)';
  return `${markdownLevel(r.confidenceLevel)} ${r.method}${side} interval`;
}

function closing(r: CompareModelsResult, options: CompareMarkdownOptions): string {
  const first = r.pairs[0].bootstrap;
  const units = `${first.nClusters !== undefined ? `${first.nClusters} clusters` : 'items'}${first.nStrata !== undefined ? ` within ${first.nStrata} strata` : ''}`;
  const dropped = options.dropped ?? 0;
  const of = options.source === undefined ? '' : ` of ${markdownText(options.source)}`;
  const left = dropped > 0 ? ` (${dropped} unpaired left out)` : '';
  const how = r.method === 't' ? `paired t over ${units}, no resampling` : `resampling ${units}; ${r.nResamples} resamples, seed ${markdownText(r.seed)}`;
  return `<sub>${r.n} paired items${of}${left}; ${how}. benchplan compare.</sub>`;
}

/**
 * A comparison in GitHub-flavoured Markdown, for a job summary or a PR comment. One pair: the
 * verdict line, then one row (means, A − B, interval, p-value, n). Several models: which pairs
 * are distinguishable after Holm, the means, and one row per pair. A pure function of the result.
 * @param result what compareModels returned.
 * @param options the data's name and how many unpaired items were left out, for the closing line.
 * @returns the document, ending in a newline.
 * @example compareMarkdown(compareModels(alignModels(table, ['alpha', 'beta'])), { source: 'scores.csv' })
 */
export function compareMarkdown(result: CompareModelsResult, options: CompareMarkdownOptions = {}): string {
  const r = result;
  const lines: string[] = [];
  if (r.pairs.length === 1) {
    const p = r.pairs[0];
    const test = 'exact' in p.test ? 'sign-flip' : 't';
    lines.push(compareVerdictMarkdown(r, p), '');
    lines.push(
      markdownTable(
        ['A − B', 'mean A', 'mean B', 'estimate', intervalTitle(r), `p (${test})`, 'n'],
        [[`${markdownText(p.a)} − ${markdownText(p.b)}`, formatNumber(r.means[0]), formatNumber(r.means[1]), formatNumber(p.estimate), formatInterval(p.confidenceInterval), markdownPValue(p.pValue, signFlips(r, p)), String(p.n)]],
        ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  } else {
    const level = markdownLevel(r.confidenceLevel);
    const apart = r.pairs.filter((p) => p.distinguishable);
    const tied = r.pairs.filter((p) => !p.distinguishable);
    const order = (p: PairComparison) => (p.estimate >= 0 ? `${markdownText(p.a)} > ${markdownText(p.b)}` : `${markdownText(p.b)} > ${markdownText(p.a)}`);
    const verdict: string[] = [];
    if (apart.length > 0) verdict.push(`**Distinguishable at ${level} after Holm**: ${apart.map(order).join(', ')}.`);
    if (tied.length > 0) verdict.push(`${apart.length > 0 ? 'Ties' : `**No pair is distinguishable** at ${level} after Holm`} (${tied.length} of ${r.pairs.length} pairs): ${tied.map((p) => `${markdownText(p.a)} vs ${markdownText(p.b)}`).join(', ')}.`);
    lines.push(verdict.join(' '), '');
    lines.push(markdownTable(['model', 'mean'], r.models.map((m, k) => [markdownText(m), formatNumber(r.means[k])]), ['left', 'right']));
    lines.push('');
    lines.push(
      markdownTable(
        ['A − B', 'estimate', intervalTitle(r), 'p', 'Holm p', `distinguishable at ${level}`],
        r.pairs.map((p) => [`${markdownText(p.a)} − ${markdownText(p.b)}`, formatNumber(p.estimate), formatInterval(p.confidenceInterval), markdownPValue(p.pValue, signFlips(r, p)), markdownPValue(p.adjustedPValue), p.distinguishable ? 'yes' : 'no']),
        ['left', 'right', 'right', 'right', 'right', 'left'],
      ),
    );
  }
  lines.push('', closing(r, options));
  lines.push(...markdownWarnings(r.warnings));
  return markdownDocument(lines);
}
