// One measurement in a fresh process, so its peak memory (maxRSS) is its own.
// Usage: node bench/child.mjs MODE N [THREADS] [CSV]
//   lib   time bootstrapMeanDifference(a, b, { method: 'bca', nResamples: 9999 }), and interleaved with it the
//         same index draws alone (best of 5 each after a warm-up)
//   draw  time drawing the same 9999 × N random indices only (no statistic), on its own (best of 3)
//   base  only load the library and make the data: the baseline memory of a node process doing nothing
//   cli   run `benchplan compare CSV --a A --b B --json` in-process (once; whole command, file loading included)
// Prints one JSON line: { mode, n, ms (wall, best run), cpuMs (process CPU time of the best-CPU run:
// on a shared machine it is steadier than wall time; with threads it sums all threads), maxRssKb, ... }.
import { performance } from 'node:perf_hooks';
import { benchData } from './data.mjs';

const [mode, nText, threadsText, csv] = process.argv.slice(2);
const n = Number(nText);
const threads = Number(threadsText ?? 1);
const B = 9999;
const lib = await import('../dist/bootstrap/index.js');
const { a, b } = await benchData(n);
let ms = NaN;
let cpuMs = NaN;
let extra = {};
/** Runs f, returning wall and process CPU milliseconds (user + system, all threads). */
async function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const t = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { t, cpu: (c.user + c.system) / 1000, value };
}

if (mode === 'lib') {
  // Interleaved with the index-only floor (same draws, no statistic), 5 runs each after a warm-up,
  // so both see the same share of a busy machine; the best of each is kept.
  const { drawIndicesOnlyChunk, chunkCount } = await import('../dist/bootstrap/resample.js');
  const options = { method: 'bca', nResamples: B, seed: 0 };
  const runLib = () => timed(() => (threads > 1 ? lib.bootstrapMeanDifferenceParallel(a, b, { ...options, threads }) : lib.bootstrapMeanDifference(a, b, options)));
  const runDraw = () =>
    timed(() => {
      let check = 0;
      for (let k = 0; k < chunkCount(B); k++) check ^= drawIndicesOnlyChunk(n, '0', k, B);
      return check;
    });
  await runLib(); // warm-up: JIT and, with threads, the worker start-up path
  await runDraw();
  const runs = [];
  const draws = [];
  for (let k = 0; k < 5; k++) {
    runs.push(await runLib());
    draws.push(await runDraw());
  }
  ms = Math.min(...runs.map((r) => r.t));
  cpuMs = Math.min(...runs.map((r) => r.cpu));
  const result = runs[0].value;
  extra = {
    times: runs.map((r) => r.t),
    interval: result.confidenceInterval,
    estimate: result.estimate,
    drawMs: Math.min(...draws.map((r) => r.t)),
    drawCpuMs: Math.min(...draws.map((r) => r.cpu)),
  };
} else if (mode === 'draw') {
  const { drawIndicesOnlyChunk, chunkCount } = await import('../dist/bootstrap/resample.js');
  const runOnce = () =>
    timed(() => {
      let check = 0;
      for (let k = 0; k < chunkCount(B); k++) check ^= drawIndicesOnlyChunk(n, '0', k, B);
      return check;
    });
  await runOnce();
  const runs = [];
  for (let k = 0; k < 3; k++) runs.push(await runOnce());
  ms = Math.min(...runs.map((r) => r.t));
  cpuMs = Math.min(...runs.map((r) => r.cpu));
  extra = { times: runs.map((r) => r.t) };
} else if (mode === 'cli') {
  const { run } = await import('../dist/cli/program.js');
  let out = '';
  const r = await timed(() =>
    run(['node', 'benchplan', 'compare', csv, '--a', 'A', '--b', 'B', '--json', '--threads', String(threads)], {
      stdout: (t) => (out += t),
      stderr: () => {},
      stderrIsTTY: false,
    }),
  );
  if (r.value !== 0) throw new Error(`benchplan compare exited ${r.value}`);
  ms = r.t;
  cpuMs = r.cpu;
  extra = { interval: JSON.parse(out).interval };
} else if (mode !== 'base') {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(`${JSON.stringify({ mode, n, threads, ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS, ...extra })}\n`);
