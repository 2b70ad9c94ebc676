// One measurement in a fresh process, so its peak memory (maxRSS) is its own.
// Usage: node bench/child.mjs MODE N [THREADS] [CSV]
//   lib   time bootstrapMeanDifference(a, b, { method: 'bca', nResamples: 9999 }) (best of 3 after a warm-up)
//   draw  time drawing the same 9999 × N random indices only (no statistic), the floor of the mean path
//   base  only load the library and make the data: the baseline memory of a node process doing nothing
//   cli   run `benchplan compare CSV --a A --b B --json` in-process (once; whole command, file loading included)
// Prints one JSON line: { mode, n, ms, maxRssKb, ... }.
import { performance } from 'node:perf_hooks';
import { benchData } from './data.mjs';

const [mode, nText, threadsText, csv] = process.argv.slice(2);
const n = Number(nText);
const threads = Number(threadsText ?? 1);
const B = 9999;
const lib = await import('../dist/bootstrap/index.js');
const { a, b } = await benchData(n);
let ms = NaN;
let extra = {};

if (mode === 'lib') {
  const options = { method: 'bca', nResamples: B, seed: 0 };
  const runOnce = async () => {
    const t0 = performance.now();
    const r = threads > 1 ? await lib.bootstrapMeanDifferenceParallel(a, b, { ...options, threads }) : lib.bootstrapMeanDifference(a, b, options);
    return { t: performance.now() - t0, r };
  };
  await runOnce(); // warm-up: JIT and, with threads, the worker start-up path
  const times = [];
  let result;
  for (let k = 0; k < 3; k++) {
    const { t, r } = await runOnce();
    times.push(t);
    result = r;
  }
  ms = Math.min(...times);
  extra = { times, interval: result.confidenceInterval, estimate: result.estimate };
} else if (mode === 'draw') {
  const { drawIndicesOnlyChunk, chunkCount } = await import('../dist/bootstrap/resample.js');
  const runOnce = () => {
    const t0 = performance.now();
    let check = 0;
    for (let k = 0; k < chunkCount(B); k++) check ^= drawIndicesOnlyChunk(n, '0', k, B);
    return { t: performance.now() - t0, check };
  };
  runOnce();
  const times = [];
  for (let k = 0; k < 3; k++) times.push(runOnce().t);
  ms = Math.min(...times);
  extra = { times };
} else if (mode === 'cli') {
  const { run } = await import('../dist/cli/program.js');
  let out = '';
  const t0 = performance.now();
  const code = await run(['node', 'benchplan', 'compare', csv, '--a', 'A', '--b', 'B', '--json', '--threads', String(threads)], {
    stdout: (t) => (out += t),
    stderr: () => {},
    stderrIsTTY: false,
  });
  ms = performance.now() - t0;
  if (code !== 0) throw new Error(`benchplan compare exited ${code}`);
  extra = { interval: JSON.parse(out).interval };
} else if (mode !== 'base') {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(`${JSON.stringify({ mode, n, threads, ms, maxRssKb: process.resourceUsage().maxRSS, ...extra })}\n`);
