#!/usr/bin/env node
// Loader bench: how long a large scores table takes to load, and how much memory it holds.
// Writes a SYNTHETIC CSV of ROWS rows (default 1,000,000: 500,000 items × 2 models, with stratum and
// cluster columns) to a temporary folder, loads it with loadScores in a fresh child process, and
// prints the load time, the peak RSS, and the retained heap per row. Run after `npm run build`:
//   node bench/load.mjs [ROWS]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

if (process.argv[2] === '--child') {
  const { loadScores } = await import(join(root, 'dist/data/index.js'));
  const baseline = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  const table = loadScores(process.argv[3]);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - baseline;
  const external = process.memoryUsage().arrayBuffers;
  console.log(JSON.stringify({ rows: table.rowCount, items: table.items.length, ms, heapBytes: heap, arrayBufferBytes: external, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} else {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'benchplan-load-'));
  const file = join(dir, 'scores.csv');
  const fd = openSync(file, 'w');
  writeSync(fd, 'item,model,stratum,cluster,score\n');
  let buffer = [];
  for (let i = 0; i < rows / 2; i++) {
    for (const model of ['a', 'b']) buffer.push(`item-${i},${model},s${i % 4},doc${i >> 2},${((i * 7 + model.length) % 10) / 10}`);
    if (buffer.length >= 20_000) {
      writeSync(fd, `${buffer.join('\n')}\n`);
      buffer = [];
    }
  }
  if (buffer.length) writeSync(fd, `${buffer.join('\n')}\n`);
  closeSync(fd);
  const size = statSync(file).size;
  const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', file], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(result.stderr);
  const r = JSON.parse(result.stdout.trim());
  const perRow = (r.heapBytes + r.arrayBufferBytes) / r.rows;
  console.log(
    `loadScores: ${r.rows.toLocaleString('en')} rows (${r.items.toLocaleString('en')} items, ${(size / 1e6).toFixed(1)} MB of CSV) in ${(r.ms / 1000).toFixed(2)} s; ` +
      `retained ${(perRow).toFixed(0)} bytes a row (heap + typed arrays, ids included); peak RSS ${r.maxRssMB.toFixed(0)} MB`,
  );
}
