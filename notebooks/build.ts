/**
 * Builds every notebook into one folder, with an index page.
 * Usage: npm run notebooks [-- OUTDIR]   (default out/notebooks)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeHtml, htmlPage, writeFileAtomic } from '../src/index.js';
import { run as cancellation } from './01-cancellation.js';
import { run as sizing } from './02-sizing.js';
import { run as sweep } from './03-cost-sweep.js';
import { run as rotation } from './04-rotation-year.js';
import { run as fewerLabels } from './05-fewer-labels.js';
import { run as decision } from './06-decision.js';

/** Every notebook, in reading order: its runner and what it shows. */
export const NOTEBOOKS = [
  { run: cancellation, file: '01-cancellation.html', title: 'The cancellation argument: uniform against enriched allocation' },
  { run: sizing, file: '02-sizing.html', title: 'Sizing from a pilot: 264, 1,648 and the quadratic cost of small gaps' },
  { run: sweep, file: '03-cost-sweep.html', title: 'The cost-ratio sweep: does the data decide, or the assumption?' },
  { run: rotation, file: '04-rotation-year.html', title: 'A year of quarterly rotations, and whose fault a score drop is' },
  { run: fewerLabels, file: '05-fewer-labels.html', title: 'Fewer labels: annotate where candidates disagree, and let a judge carry the rest' },
  { run: decision, file: '06-decision.html', title: 'A quarter of decisions: shortlist, review, sign-off, and the weekly history' },
] as const;

/** Runs every notebook into outDir and writes index.html; returns the pages written. */
export async function buildNotebooks(outDir: string): Promise<string[]> {
  const pages: string[] = [];
  for (const notebook of NOTEBOOKS) pages.push(await notebook.run(outDir));
  const list = NOTEBOOKS.map((n) => `<li><a href="${escapeHtml(n.file)}">${escapeHtml(n.title)}</a></li>`).join('\n');
  const index = resolve(outDir, 'index.html');
  writeFileAtomic(index, htmlPage('benchplan notebooks', `<h1>benchplan notebooks</h1>\n<p>Literate walk-throughs of the method on the bundled SYNTHETIC data. Each page shows its code, the outputs and the charts it made.</p>\n<ol>\n${list}\n</ol>`));
  return [...pages, index];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = resolve(process.argv[2] ?? 'out/notebooks');
  for (const page of await buildNotebooks(outDir)) console.log(`wrote ${page}`);
}
