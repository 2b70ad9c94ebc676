#!/usr/bin/env node
// Writes outputs.json: each corpus case (corpus.mjs) through a build of the library, as JSON text.
// Made from the build of commit e12c588 (main before the 0/1 speed-up of issue 29 was merged, with the
// one-sided rule R4), so that tests/bootstrap/speed-identical.test.ts compares the faster code against
// what the code gave before. (The first version came from 120067d, before R4; the two differ only in the
// four one-sided cases on bounded continuous scores that R4 changed: auto-141, auto-145, auto-149, gate-202.)
//   git worktree add /tmp/old e12c588 && (cd /tmp/old && npm ci && npm run build)
//   node tests/reference/speed-corpus/make.mjs /tmp/old/dist
// The continuous gate's cases (the last block of corpus.mjs, from gate-210 on) came later, from the build of
// 6e69123 (main before the one-walk summary of the differences), with --add: cases already in
// outputs.json keep the reference they have, and only the new ones run through DIST:
//   git worktree add /tmp/old 6e69123 && (cd /tmp/old && npm ci && npm run build)
//   node tests/reference/speed-corpus/make.mjs /tmp/old/dist --add
// Usage: node tests/reference/speed-corpus/make.mjs [DIST] [--add] (default: this checkout's dist/)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpus, runCase } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const add = args.includes('--add');
const distArg = args.find((a) => a !== '--add');
const dist = resolve(distArg ?? join(here, '..', '..', '..', 'dist'));
const { autoPairedInterval } = await import(join(dist, 'paired', 'auto-interval.js'));
const { compareModels } = await import(join(dist, 'paired', 'compare-models.js'));
const { nonInferiorityFromScores } = await import(join(dist, 'gate', 'gate.js'));
const lib = { autoPairedInterval, compareModels, nonInferiorityFromScores };
const file = join(here, 'outputs.json');
const kept = add && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const outputs = {};
for (const c of corpus()) outputs[c.id] = c.id in kept ? kept[c.id] : runCase(c, lib);
writeFileSync(file, `${JSON.stringify(outputs, null, 0).replace(/","/g, '",\n"')}\n`);
console.log(`${Object.keys(outputs).length} cases${add ? ` (${Object.keys(outputs).length - Object.keys(kept).length} new)` : ''}`);
