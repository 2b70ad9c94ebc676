import { csvLine } from '../data/csv-text.js';
import { escapeHtml, htmlPage, settingsHtml, tableHtml, warningsHtml } from '../report/html.js';
import { formatNumber } from '../report/table.js';
import type { ReviewSample } from './review.js';

/** Where the sample came from, shown on the page. */
export interface ReviewPageSources {
  scores?: string;
  strata?: string;
  manifest?: string;
}

/**
 * The review sample as one self-contained HTML page (the report's style sheet inline, a content
 * security policy that allows no script and no request): per stratum, a table with each sampled
 * item's id, text and gold label beside every finalist's outcome and score, then the settings and
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
  for (const s of sample.strata) {
    const rows = sample.items.filter((x) => x.stratum === s.stratum);
    const header = ['item', 'text', 'gold', ...sample.finalists];
    const body = rows.map((x) => [x.item, x.text ?? '—', x.gold ?? '—', ...x.outputs.map((o) => (o.outcome === null ? `score ${formatNumber(o.score)}` : `${o.outcome} (${formatNumber(o.score)})`))]);
    parts.push(`<section>\n<h2>${escapeHtml(s.stratum)}</h2>\n<p class="muted">${s.drawn} of ${s.available} items, drawn at random (seed ${escapeHtml(sample.seed)}).</p>\n${tableHtml({ header, rows: body })}\n</section>`);
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

/**
 * The review sample as CSV (RFC 4180, csvLine): one row per sampled item, columns `sample_digest`,
 * `stratum`, `item`, `gold`, `text`, then `<finalist>_outcome` and `<finalist>_score` per finalist.
 * @example reviewCsv(sample).split('\n')[0] // => "sample_digest,stratum,item,gold,text,alpha_outcome,alpha_score,…"
 */
export function reviewCsv(sample: ReviewSample): string {
  const header = ['sample_digest', 'stratum', 'item', 'gold', 'text', ...sample.finalists.flatMap((m) => [`${m}_outcome`, `${m}_score`])];
  const lines = [csvLine(header)];
  for (const x of sample.items) lines.push(csvLine([sample.digest, x.stratum, x.item, x.gold, x.text, ...x.outputs.flatMap((o) => [o.outcome, o.score])]));
  return `${lines.join('\n')}\n`;
}
