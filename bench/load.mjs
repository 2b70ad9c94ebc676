#!/usr/bin/env node
// Loader bench: how long a large scores table takes to load, and how much memory it holds.
// Writes a SYNTHETIC CSV of ROWS rows (default 1,000,000: 500,000 items × 2 models, with stratum and
// cluster columns) to a temporary folder, loads it with loadScores in a fresh child process, and
// prints the load time, the retained memory per row (heap + typed arrays after a full GC, the ids
// included), the peak RSS, and whether the load still completes with the JavaScript heap capped at
// 100 bytes a row (--max-old-space-size): the memory the table needs, not what the collector was
// allowed to leave lying around. Run after `npm run build`:
//   node bench/load.mjs [ROWS] [--runs 3] [--json] [--root DIR (another built checkout, to compare)]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

if (process.argv[2] === '--child') {
  // --root DIR: load with another built checkout (a baseline), same file and measurement.
  const { loadScores } = await import(join(process.argv[4] ?? root, 'dist/data/index.js'));
  globalThis.gc?.();
  const before = process.memoryUsage();
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const table = loadScores(process.argv[3]);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  globalThis.gc?.();
  const after = process.memoryUsage();
  console.log(JSON.stringify({ rows: table.rowCount, items: table.items.length, ms, cpuMs: (cpu.user + cpu.system) / 1000, heapBytes: after.heapUsed - before.heapUsed, arrayBufferBytes: after.arrayBuffers - before.arrayBuffers, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
} else {
  const args = process.argv.slice(2);
  const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const rows = Number(args.find((a, k) => /^\d+$/.test(a) && args[k - 1] !== '--runs') ?? 1_000_000);
  const runs = Number(flag('--runs', '3'));
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
  const load = loadavg();
  const child = (extra = []) => {
    const result = spawnSync(process.execPath, ['--expose-gc', ...extra, fileURLToPath(import.meta.url), '--child', file, resolve(flag('--root', root))], { encoding: 'utf8' });
    return result.status === 0 ? JSON.parse(result.stdout.trim()) : { failed: result.stderr.split('\n').find((l) => /heap|memory/i.test(l)) ?? `exit ${result.status}` };
  };
  const measured = Array.from({ length: runs }, () => child());
  const failed = measured.find((r) => r.failed);
  if (failed) throw new Error(failed.failed);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // The heap cap: 100 bytes a row of old space (at least 16 MB, V8's own floor for a useful heap).
  const capMb = Math.max(16, Math.ceil((100 * rows) / 2 ** 20));
  const capped = child([`--max-old-space-size=${capMb}`]);
  rmSync(dir, { recursive: true, force: true });
  const r = measured[0];
  const result = {
    rows: r.rows,
    items: r.items,
    csvMB: size / 1e6,
    seconds: median(measured.map((m) => m.ms)) / 1000,
    cpuSeconds: median(measured.map((m) => m.cpuMs)) / 1000,
    secondsRuns: measured.map((m) => m.ms / 1000),
    retainedBytesPerRow: median(measured.map((m) => (m.heapBytes + m.arrayBufferBytes) / m.rows)),
    peakRssMB: median(measured.map((m) => m.maxRssMB)),
    heapCapMB: capMb,
    completesUnderCap: !capped.failed,
    cappedSeconds: capped.failed ? null : capped.ms / 1000,
    cappedPeakRssMB: capped.failed ? null : capped.maxRssMB,
    loadAverage: load,
  };
  if (args.includes('--json')) console.log(JSON.stringify(result));
  else {
    console.log(
      `loadScores: ${result.rows.toLocaleString('en')} rows (${result.items.toLocaleString('en')} items, ${result.csvMB.toFixed(1)} MB of CSV) in ${result.seconds.toFixed(2)} s (median of ${runs}; ${result.cpuSeconds.toFixed(2)} s CPU; load ${load.map((x) => x.toFixed(1)).join(' ')}); ` +
        `retained ${result.retainedBytesPerRow.toFixed(0)} bytes a row (heap + typed arrays, ids included); peak RSS ${result.peakRssMB.toFixed(0)} MB; ` +
        `with the heap capped at ${capMb} MB (100 bytes a row): ${result.completesUnderCap ? `completes, ${result.cappedSeconds.toFixed(2)} s, peak RSS ${result.cappedPeakRssMB.toFixed(0)} MB` : 'runs out of memory'}`,
    );
  }
}
