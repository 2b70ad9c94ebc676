import type { TopLevelSpec } from 'vega-lite';
import { renderChartSvg } from '../charts/render.js';
import { formatNumber } from './table.js';

/**
 * Escapes text for HTML element content and attribute values (`&`, `<`, `>`, `"`, `'`), so a
 * model name or item id from an input file can never open a tag or end an attribute.
 * @example escapeHtml('<b>"x"</b>') // => "&lt;b&gt;&quot;x&quot;&lt;/b&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The style sheet of reports and notebook pages: inline, no web fonts, no network. */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5b5b63; --line: #e3e3e8; --accent: #1f6fb2; --warn-bg: #fff6e5; --warn: #8a4b00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", Verdana, system-ui, sans-serif; color: var(--ink); background: #fafafa; }
main { max-width: 1400px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 20px; margin: 0 0 8px; padding-top: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
p { margin: 6px 0 10px; max-width: 80ch; }
.muted { color: var(--muted); }
section { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px; margin: 18px 0; }
.pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr); gap: 22px; align-items: start; }
.numbers { overflow-x: auto; min-width: 0; }
@media (max-width: 960px) { .pair { grid-template-columns: minmax(0, 1fr); } }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
table { border-collapse: collapse; font-size: 13px; margin: 4px 0 12px; width: 100%; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #f3f4f7; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.date { white-space: nowrap; }
code, .hash { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.hash { word-break: break-all; min-width: 22ch; }
pre { background: #f5f6f8; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow-x: auto; font: 12.5px/1.45 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre.output { background: #fbfbf3; }
.warnings { background: var(--warn-bg); color: var(--warn); border-radius: 6px; padding: 8px 12px; margin: 8px 0; font-size: 13px; }
.warnings ul { margin: 0; padding-left: 18px; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; font-size: 13px; margin: 6px 0; }
dl.settings dt { color: var(--muted); }
dl.settings dd { margin: 0; }
nav ul { padding-left: 18px; margin: 4px 0; }
blockquote { margin: 8px 0; padding: 2px 14px; border-left: 3px solid var(--line); }
main > figure { margin: 12px 0 16px; }
footer { color: var(--muted); font-size: 12px; margin-top: 30px; }
`.trim();

/** A table of numbers beside a chart. Numbers are formatted with formatNumber; text is escaped. */
export interface ReportTable {
  caption?: string;
  header: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
}

/** A chart in a report: its vega-lite spec (drawn to inline SVG) and a caption. */
export interface ReportFigure {
  spec: TopLevelSpec;
  caption?: string;
}

/** One section of a report: prose, a chart, the numbers beside it, its settings and warnings. */
export interface ReportSection {
  /** Anchor id: letters, digits and dashes. */
  id: string;
  title: string;
  /** Plain-text paragraphs (escaped, never interpreted as HTML). */
  paragraphs: readonly string[];
  figure?: ReportFigure;
  tables: readonly ReportTable[];
  /** The settings that produced the section's numbers, e.g. [['seed', '0'], ['resamples', '9999']]. */
  settings: ReadonlyArray<readonly [string, string]>;
  warnings: readonly string[];
}

/** An input file and its fingerprint. */
export interface ReportInput {
  /** What the file is for: `scores`, `pilot`, `strata`, … */
  role: string;
  path: string;
  /** sha256 of the file's bytes, hex (for a folder, of its content listing). */
  sha256: string;
  bytes: number;
}

/** A whole report: what it is about, where its numbers came from, and its sections. */
export interface ReportDocument {
  title: string;
  /** The benchplan version that made it. */
  version: string;
  inputs: readonly ReportInput[];
  /** Settings shared by every section (seed, confidence level, …). */
  settings: ReadonlyArray<readonly [string, string]>;
  sections: readonly ReportSection[];
  /** Inputs given but not used, and other notes for the reader. */
  notes: readonly string[];
}

function isNumeric(cell: string | number): boolean {
  return typeof cell === 'number' || /^([-+−]?(\d[\d,]*\.?\d*|\.\d+)(e[-+]?\d+)?%?|NaN|-?inf|∞)( \[.*\])?$|^\[.*\]$/.test(cell);
}

function cellClass(cell: string | number): string {
  if (typeof cell === 'string' && /^[0-9a-f]{64}$/.test(cell)) return ' class="hash"';
  if (typeof cell === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(cell)) return ' class="date"';
  return isNumeric(cell) ? ' class="num"' : '';
}

/** A table as HTML: header cells, numbers right-aligned, sha256 fingerprints in monospace, everything escaped. */
export function tableHtml(table: ReportTable): string {
  const head = `<tr>${table.header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = table.rows
    .map((row) => `<tr>${row.map((cell) => `<td${cellClass(cell)}>${escapeHtml(typeof cell === 'number' ? formatNumber(cell) : cell)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table>${table.caption ? `<caption>${escapeHtml(table.caption)}</caption>` : ''}\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody></table>`;
}

/** Settings as a definition list. */
export function settingsHtml(settings: ReadonlyArray<readonly [string, string]>): string {
  if (settings.length === 0) return '';
  return `<dl class="settings">${settings.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

/** Warnings as a highlighted list (nothing when there are none). */
export function warningsHtml(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  return `<div class="warnings" role="note"><strong>Warnings</strong><ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></div>`;
}

/**
 * A chart as an inline SVG figure. The SVG's ids are scoped by `idPrefix` so several charts
 * can share one page. vega escapes every text and attribute it writes.
 */
export async function figureHtml(figure: ReportFigure, idPrefix: string): Promise<string> {
  const svg = await renderChartSvg(figure.spec, { idPrefix });
  return `<figure class="chart">${svg}${figure.caption ? `<figcaption>${escapeHtml(figure.caption)}</figcaption>` : ''}</figure>`;
}

/**
 * A complete HTML page around a body: UTF-8, the inline style sheet, and a content security
 * policy that allows no script, no network request and no external resource, so the page is
 * self-contained and a string from an input file could not run even if it slipped through.
 */
export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="benchplan">
<title>${escapeHtml(title)}</title>
<style>
${REPORT_CSS}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** One section as HTML: prose, then the chart beside its numbers, then settings and warnings. */
export async function sectionHtml(section: ReportSection, index: number): Promise<string> {
  if (!/^[a-z][a-z0-9-]*$/.test(section.id)) throw new RangeError(`sectionHtml: id must be lowercase letters, digits and dashes (got "${section.id}")`);
  const prose = section.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const tables = section.tables.map(tableHtml).join('\n');
  const figure = section.figure ? await figureHtml(section.figure, `s${index + 1}`) : '';
  const pair = figure ? `<div class="pair">\n${figure}\n<div class="numbers">\n${tables}\n</div>\n</div>` : tables;
  return `<section id="${section.id}">
<h2>${escapeHtml(section.title)}</h2>
${prose}
${warningsHtml(section.warnings)}
${pair}
${settingsHtml(section.settings)}
</section>`;
}

/**
 * Renders a report to one self-contained HTML file: inline CSS, every chart as inline SVG, no
 * script and no network (a content security policy forbids both). Every string is escaped.
 * The same document gives the same bytes (no date or clock is read).
 * @returns the HTML text.
 * @example (await reportHtml(doc)).startsWith('<!DOCTYPE html>') // => true
 */
export async function reportHtml(doc: ReportDocument): Promise<string> {
  const inputs = tableHtml({
    header: ['input', 'file', 'bytes', 'sha256'],
    rows: doc.inputs.map((input) => [input.role, input.path, String(input.bytes), input.sha256]),
  });
  const sections: string[] = [];
  for (const [k, section] of doc.sections.entries()) sections.push(await sectionHtml(section, k));
  const contents = doc.sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join('');
  const body = `<header>
<h1>${escapeHtml(doc.title)}</h1>
<p class="muted">Made by benchplan ${escapeHtml(doc.version)}. Same inputs and settings give the same file, byte for byte.</p>
</header>
<section id="provenance">
<h2>Inputs and settings</h2>
${inputs}
${settingsHtml(doc.settings)}
${doc.notes.length ? `<ul class="muted">${doc.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''}
${doc.sections.length ? `<nav><strong>Sections</strong><ul>${contents}</ul></nav>` : '<p>No section: give more inputs (see benchplan report --help).</p>'}
</section>
${sections.join('\n')}
<footer>benchplan ${escapeHtml(doc.version)} · ${doc.sections.length} section${doc.sections.length === 1 ? '' : 's'} · inputs fingerprinted with sha256</footer>`;
  return htmlPage(doc.title, body);
}
