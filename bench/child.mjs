// One measurement in a fresh process, so its peak memory (maxRSS) is its own.
// Usage: node bench/child.mjs MODE N [THREADS] [CSV]
//   lib   time bootstrapMeanDifference(a, b, { method: 'bca', nResamples: 9999 }) (best of 3 after a warm-up)
//   draw  time drawing the same 9999 × N random indices only (no statistic), the floor of the mean path
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
  const options = { method: 'bca', nResamples: B, seed: 0 };
  const runOnce = () => timed(() => (threads > 1 ? lib.bootstrapMeanDifferenceParallel(a, b, { ...options, threads }) : lib.bootstrapMeanDifference(a, b, options)));
  await runOnce(); // warm-up: JIT and, with threads, the worker start-up path
  const runs = [];
  for (let k = 0; k < 3; k++) runs.push(await runOnce());
  ms = Math.min(...runs.map((r) => r.t));
  cpuMs = Math.min(...runs.map((r) => r.cpu));
  const result = runs[0].value;
  extra = { times: runs.map((r) => r.t), interval: result.confidenceInterval, estimate: result.estimate };
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
