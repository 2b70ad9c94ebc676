// docs/peers.md: the prose is written by hand; the tables between the markers come from a run
// (bench/peers/run.mjs --write-docs, or bench/peers/render.mjs --write-docs on a run's peers.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const START = '<!-- peers:tables:start (written by npm run peers -- --write-docs) -->';
export const END = '<!-- peers:tables:end -->';

/**
 * Replaces the tables between the markers of docs/peers.md with `md`; returns the page's path. With a
 * `section` (a re-run of some cells, run.mjs --cells), the markers are
 * `<!-- peers:SECTION:start -->` … `<!-- peers:SECTION:end -->`, so the main run's tables stay as they were.
 */
export function writeDocs(md, section = null) {
  const page = join(root, 'docs', 'peers.md');
  const text = readFileSync(page, 'utf8');
  const start = section === null ? START : `<!-- peers:${section}:start -->`;
  const end = section === null ? END : `<!-- peers:${section}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${page}: the markers ${start} … ${end} are missing`);
  writeFileSync(page, `${text.slice(0, i + start.length)}\n\n${md}\n${text.slice(j)}`);
  return page;
}
