#!/usr/bin/env node
// Where threads start to repay the pool (PARALLEL_MIN_WORK in src/bootstrap/parallel.ts): for bootstraps
// of growing work (n continuous items × 9,999 resamples), each in a fresh process so the pool starts
// cold, as a `compare` process meets it, the wall and CPU time of bootstrapMeanParallel with 2 threads
// (minParallelWork 0: always the pool) against 1. Medians of --runs runs (default 3), interleaved.
// Usage (after `npm run build`): node bench/threshold.mjs [--runs 3] [--sizes 200,1000,2000,5000,20000]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};

if (args[0] === '--child') {
  const [, nText, threadsText] = args;
  const n = Number(nText);
  const threads = Number(threadsText);
  const { bootstrapMeanParallel } = await import('../dist/bootstrap/index.js');
  const { createRng } = await import('../dist/random/index.js');
  const rng = createRng('threshold', n);
  const x = Float64Array.from({ length: n }, () => rng.nextNormal());
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await bootstrapMeanParallel(x, { nResamples: 9999, threads, minParallelWork: 0 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  process.stdout.write(`${JSON.stringify({ n, threads, wallMs, cpuMs: (c.user + c.system) / 1000 })}\n`);
  process.exit(0);
}

const runs = Number(flag('--runs', '3'));
const sizes = flag('--sizes', '200,1000,2000,5000,20000').split(',').map(Number);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const child = (n, threads) => JSON.parse(spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(n), String(threads)], { encoding: 'utf8' }).stdout.trim());
const before = loadavg();
console.log(`bootstrapMeanParallel, 9,999 resamples, a cold pool in each process (median of ${runs}; load ${before.map((v) => v.toFixed(1)).join(' ')})`);
for (const n of sizes) {
  const one = [];
  const two = [];
  for (let r = 0; r < runs; r++) {
    one.push(child(n, 1));
    two.push(child(n, 2));
  }
  const w1 = median(one.map((o) => o.wallMs));
  const w2 = median(two.map((o) => o.wallMs));
  const c1 = median(one.map((o) => o.cpuMs));
  const c2 = median(two.map((o) => o.cpuMs));
  console.log(`  work ${(n * 9999).toExponential(1)} draws (n = ${n}): 1 thread ${w1.toFixed(1)} ms wall (${c1.toFixed(1)} ms CPU); 2 threads ${w2.toFixed(1)} ms wall (${c2.toFixed(1)} ms CPU): ${(w1 / w2).toFixed(2)}× faster, CPU +${(c2 - c1).toFixed(1)} ms`);
}
console.log(`load after: ${loadavg().map((v) => v.toFixed(1)).join(' ')}`);
