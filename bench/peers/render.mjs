#!/usr/bin/env node
// Re-renders the Markdown tables of a finished `npm run peers` run from its peers.json (the run's own
// numbers: nothing is re-measured), so a change to how the tables are laid out, or the criteria table,
// never needs the study re-run and the docs can never drift from the run's output.
// With bench/peers/speed.mjs's speed.json (--speed FILE, or beside the first peers.json, or in
// bench/peers/out/) its table is appended. Several peers.json (re-runs of some cells, run.mjs --cells)
// are rendered one after the other, each under its own "Run:" line.
// Usage: node bench/peers/render.mjs [bench/peers/out/peers.json …] [--speed FILE | --no-speed] [--write-docs [SECTION]]
//   --write-docs SECTION: between the markers <!-- peers:SECTION:start --> … <!-- peers:SECTION:end -->
//   of docs/peers.md instead of the main tables' markers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { speedTable, tables } from './summary.mjs';
import { writeDocs } from './docs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const valueOf = (name) => {
  const k = args.indexOf(name);
  return k >= 0 && args[k + 1] !== undefined && !args[k + 1].startsWith('--') ? args[k + 1] : null;
};
const speedArg = valueOf('--speed');
const section = valueOf('--write-docs');
const taken = new Set([speedArg, section].filter((x) => x !== null));
const files = args.filter((a) => !a.startsWith('--') && !taken.has(a)).map((a) => resolve(a));
if (files.length === 0) files.push(join(here, 'out', 'peers.json'));
const parts = files.map((file) => {
  const { summary, ...meta } = JSON.parse(readFileSync(file, 'utf8'));
  return tables(meta, summary);
});
// bench/peers/speed.mjs's table (analytic paths at n up to 10,000), when it has run
// (--no-speed: none, e.g. a re-run of some cells whose section of docs/peers.md has no speed table)
const speedFile = args.includes('--no-speed') ? null : speedArg ? resolve(speedArg) : [join(dirname(files[0]), 'speed.json'), join(here, 'out', 'speed.json')].find(existsSync);
const md = `${parts.join('\n')}${speedFile ? `\n### Analytic speed at larger n\n\n${speedTable(JSON.parse(readFileSync(speedFile, 'utf8')))}` : ''}`;
writeFileSync(join(dirname(files[0]), 'peers.md'), md);
if (args.includes('--write-docs')) process.stderr.write(`peers: wrote the tables into ${writeDocs(md, section)}\n`);
process.stdout.write(md);
