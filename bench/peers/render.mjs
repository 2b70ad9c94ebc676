#!/usr/bin/env node
// Re-renders the Markdown tables of a finished `npm run peers` run from its peers.json (the run's own
// numbers: nothing is re-measured), so a change to how the tables are laid out, or the criteria table,
// never needs the study re-run and the docs can never drift from the run's output.
// With bench/peers/speed.mjs's speed.json (beside peers.json, or in bench/peers/out/) its table is appended.
// Usage: node bench/peers/render.mjs [bench/peers/out/peers.json] [--write-docs]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { speedTable, tables } from './summary.mjs';
import { writeDocs } from './docs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const file = resolve(args.find((a) => !a.startsWith('--')) ?? join(here, 'out', 'peers.json'));
const { summary, ...meta } = JSON.parse(readFileSync(file, 'utf8'));
// bench/peers/speed.mjs's table (analytic paths at n up to 10,000), when it has run: beside peers.json or in bench/peers/out/
const speedFile = [join(dirname(file), 'speed.json'), join(here, 'out', 'speed.json')].find(existsSync);
const md = `${tables(meta, summary)}${speedFile ? `\n### Analytic speed at larger n\n\n${speedTable(JSON.parse(readFileSync(speedFile, 'utf8')))}` : ''}`;
writeFileSync(join(dirname(file), 'peers.md'), md);
if (args.includes('--write-docs')) process.stderr.write(`peers: wrote the tables into ${writeDocs(md)}\n`);
process.stdout.write(md);
