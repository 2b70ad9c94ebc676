// docs/peers.md: the prose is written by hand; the tables between the markers come from a run
// (bench/peers/run.mjs --write-docs, or bench/peers/render.mjs --write-docs on a run's peers.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const START = '<!-- peers:tables:start (written by npm run peers -- --write-docs) -->';
export const END = '<!-- peers:tables:end -->';

/** Replaces the tables between the markers of docs/peers.md with `md`; returns the page's path. */
export function writeDocs(md) {
  const page = join(root, 'docs', 'peers.md');
  const text = readFileSync(page, 'utf8');
  const i = text.indexOf(START);
  const j = text.indexOf(END);
  if (i < 0 || j < i) throw new Error(`${page}: the markers ${START} … ${END} are missing`);
  writeFileSync(page, `${text.slice(0, i + START.length)}\n\n${md}\n${text.slice(j)}`);
  return page;
}
