import { csvLine } from '../data/csv-text.js';
import { escapeHtml, htmlPage, settingsHtml, tableHtml, warningsHtml } from '../report/html.js';
import { formatNumber } from '../report/table.js';
import type { ReviewItem, ReviewOutput, ReviewSample } from './review.js';

/** Where the sample came from, shown on the page. */
export interface ReviewPageSources {
  scores?: string;
  strata?: string;
  manifest?: string;
}

/**
 * The review sample as one self-contained HTML page (the report's style sheet inline, a content
 * security policy that allows no script and no request): per stratum, a table with each sampled
 * item's id, text and gold label beside every finalist's outcome and score (and, when the sample
 * has outputs, each finalist's answer, whole, in a scrolling cell), then the settings and
 * the sample's digest. Every string from an input file is escaped (escapeHtml).
 * @returns the page's HTML.
 * @example reviewPageHtml(reviewSample(table, { finalists: ['alpha', 'beta'], strata: ['rare_clause'] })).startsWith('<!DOCTYPE html>') // => true
 */
export function reviewPageHtml(sample: ReviewSample, sources: ReviewPageSources = {}): string {
  const parts: string[] = [];
  parts.push(`<h1>Review sample: ${escapeHtml(sample.finalists.join(', '))}</h1>`);
  parts.push(
    `<p>${sample.reviewer === null ? 'For the reviewer who signs the choice off' : `For ${escapeHtml(sample.reviewer)}`}: read each finalist's output on these items, beside the gold label, before signing off (<code>benchplan signoff</code>). Sample digest <span class="hash">${sample.digest}</span>.</p>`,
  );
  const withOutputs = hasOutputs(sample);
  for (const s of sample.strata) {
    const rows = sample.items.filter((x) => x.stratum === s.stratum);
    const header = ['item', 'text', 'gold', ...sample.finalists];
    const body = rows.map((x) => [x.item, x.text ?? '—', x.gold ?? '—', ...x.outputs.map(scoreText)]);
    const table = withOutputs ? outputsTableHtml(header, rows) : tableHtml({ header, rows: body });
    parts.push(`<section>\n<h2>${escapeHtml(s.stratum)}</h2>\n<p class="muted">${s.drawn} of ${s.available} items, drawn at random (seed ${escapeHtml(sample.seed)}).</p>\n${table}\n</section>`);
  }
  const settings: Array<[string, string]> = [
    ['finalists', sample.finalists.join(', ')],
    ['strata', sample.strata.map((s) => s.stratum).join(', ')],
    ['items per stratum', String(sample.perStratum)],
    ['seed', sample.seed],
    ['sample digest', sample.digest],
  ];
  if (sources.scores !== undefined) settings.push(['scores', sources.scores]);
  if (sources.strata !== undefined) settings.push(['strata file', sources.strata]);
  if (sources.manifest !== undefined) settings.push(['manifest', sources.manifest]);
  parts.push(`<section>\n<h2>Settings</h2>\n${settingsHtml(settings)}\n${warningsHtml(sample.warnings)}\n</section>`);
  return htmlPage(`Review sample: ${sample.finalists.join(', ')}`, parts.join('\n'));
}

function scoreText(o: ReviewOutput): string {
  return o.outcome === null ? `score ${formatNumber(o.score)}` : `${o.outcome} (${formatNumber(o.score)})`;
}

/** True when the sample was drawn with outputs (each finalist's cell then shows its answer). */
function hasOutputs(sample: ReviewSample): boolean {
  return sample.items.some((x) => x.outputs.some((o) => o.output !== undefined));
}

/**
 * The items of a stratum with each finalist's answer side by side: the item's text and gold label,
 * then per finalist its outcome and score over its output, whole, in a cell that scrolls when long
 * (a fixed height and overflow, no script). Every text is escaped.
 */
function outputsTableHtml(header: readonly string[], rows: readonly ReviewItem[]): string {
  const head = `<tr>${header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
  const cell = (text: string | null) => (text === null ? '<span class="muted">—</span>' : `<div style="${TEXT_STYLE}">${escapeHtml(text)}</div>`);
  const body = rows
    .map((x) => {
      const outputs = x.outputs.map((o) => `<td class="output"><div class="muted">${escapeHtml(scoreText(o))}</div>${o.output == null ? '<div class="muted">no output</div>' : `<div style="${OUTPUT_STYLE}">${escapeHtml(o.output)}</div>`}</td>`);
      return `<tr><td>${escapeHtml(x.item)}</td><td>${cell(x.text)}</td><td>${escapeHtml(x.gold ?? '—')}</td>${outputs.join('')}</tr>`;
    })
    .join('\n');
  return `<table class="review-outputs">\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody></table>`;
}

/** An output is shown whole, wrapped, in a cell of at most 14 lines that scrolls (the page's CSP allows inline styles, no script). */
const OUTPUT_STYLE = 'max-height: 14em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font: 12.5px/1.45 "DejaVu Sans Mono", Menlo, Consolas, monospace; background: #f5f6f8; border: 1px solid #e3e3e8; border-radius: 4px; padding: 4px 6px; margin-top: 2px; min-width: 16ch;';
const TEXT_STYLE = 'max-height: 14em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;';

/**
 * The review sample as CSV (RFC 4180, csvLine): one row per sampled item, columns `sample_digest`,
 * `stratum`, `item`, `gold`, `text`, then `<finalist>_outcome` and `<finalist>_score` per finalist
 * (and `<finalist>_output` when the sample was drawn with outputs). Text cells a spreadsheet would
 * run as a formula (`=HYPERLINK(…)`) are neutralised (csvField → neutraliseCell).
 * @example reviewCsv(sample).split('\n')[0] // => "sample_digest,stratum,item,gold,text,alpha_outcome,alpha_score,…"
 */
export function reviewCsv(sample: ReviewSample): string {
  const withOutputs = hasOutputs(sample);
  const header = ['sample_digest', 'stratum', 'item', 'gold', 'text', ...sample.finalists.flatMap((m) => (withOutputs ? [`${m}_outcome`, `${m}_score`, `${m}_output`] : [`${m}_outcome`, `${m}_score`]))];
  const lines = [csvLine(header)];
  for (const x of sample.items) lines.push(csvLine([sample.digest, x.stratum, x.item, x.gold, x.text, ...x.outputs.flatMap((o) => (withOutputs ? [o.outcome, o.score, o.output ?? null] : [o.outcome, o.score]))]));
  return `${lines.join('\n')}\n`;
}
