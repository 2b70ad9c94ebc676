// One measurement in a fresh process, so its peak memory (maxRSS) is its own.
// Usage: node bench/child.mjs MODE KIND N [THREADS] [CSV]     (KIND: binary | normal, see data.mjs)
//   lib   time bootstrapMeanDifference(a, b, { method: 'bca', nResamples: 9999 }) (the path it picks for
//         the data), interleaved with the same number of index draws alone (the index path's floor) and,
//         when it picks the counts path, with the index path forced on the same data; best of 5 each
//         after a warm-up
//   base  only load the library and make the data: the baseline memory of a node process doing nothing
//   cli   run `benchplan compare CSV --a A --b B --json` in-process (once; whole command, file loading included)
// Prints one JSON line: { mode, kind, n, path, ms (wall, best run), cpuMs (process CPU time of the best-CPU
// run: on a shared machine it is steadier than wall time; with threads it sums all threads), maxRssKb, ... }.
import { performance } from 'node:perf_hooks';
import { benchData } from './data.mjs';

const [mode, kind, nText, threadsText, csv] = process.argv.slice(2);
const n = Number(nText);
const threads = Number(threadsText ?? 1);
const B = 9999;
const lib = await import('../dist/bootstrap/index.js');
const { buildDesign } = await import('../dist/bootstrap/design.js');
const { drawIndicesOnlyChunk, chunkCount, usesCounts } = await import('../dist/bootstrap/resample.js');
const { a, b } = await benchData(n, kind);
const path = usesCounts(buildDesign(n, {}, Float64Array.from(a, (v, i) => v - b[i]))) ? 'counts' : 'indices';
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
const best = (runs) => ({ ms: Math.min(...runs.map((r) => r.t)), cpuMs: Math.min(...runs.map((r) => r.cpu)) });

if (mode === 'lib') {
  // Interleaved, 5 runs each after a warm-up, so all see the same share of a busy machine; the best of each is kept.
  const options = { method: 'bca', nResamples: B, seed: 0 };
  const runLib = () => timed(() => (threads > 1 ? lib.bootstrapMeanDifferenceParallel(a, b, { ...options, threads }) : lib.bootstrapMeanDifference(a, b, options)));
  const runIndices = () => timed(() => lib.bootstrapMeanDifference(a, b, { ...options, resamplePath: 'indices' }));
  // With threads: one thread timed next to each threaded run, in the same process, so each pair sees the same machine.
  const runOne = () => timed(() => lib.bootstrapMeanDifference(a, b, options));
  const runDraw = () =>
    timed(() => {
      let check = 0;
      for (let k = 0; k < chunkCount(B); k++) check ^= drawIndicesOnlyChunk(n, '0', k, B);
      return check;
    });
  const withIndices = path === 'counts' && threads === 1;
  await runLib(); // warm-up: JIT and, with threads, the worker start-up path
  await runDraw();
  if (withIndices) await runIndices();
  const runs = [];
  const draws = [];
  const indexRuns = [];
  const oneRuns = [];
  if (threads > 1) await runOne();
  for (let k = 0; k < 5; k++) {
    if (threads > 1 && k % 2 === 1) oneRuns.push(await runOne());
    runs.push(await runLib());
    if (threads > 1 && k % 2 === 0) oneRuns.push(await runOne());
    draws.push(await runDraw());
    if (withIndices) indexRuns.push(await runIndices());
  }
  ({ ms, cpuMs } = best(runs));
  const result = runs[0].value;
  const draw = best(draws);
  extra = {
    times: runs.map((r) => r.t),
    interval: result.confidenceInterval,
    estimate: result.estimate,
    drawMs: draw.ms,
    drawCpuMs: draw.cpuMs,
    indexPath: withIndices ? { ...best(indexRuns), interval: indexRuns[0].value.confidenceInterval } : null,
    // threads: the median over the 5 pairs of (threaded wall ÷ the one-thread wall next to it), and their range
    pairedOverOne: threads > 1 ? (() => {
      const ratios = runs.map((r, k) => r.t / oneRuns[k].t).sort((x, y) => x - y);
      return { median: ratios[2], low: ratios[0], high: ratios[4] };
    })() : null,
  };
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
process.stdout.write(`${JSON.stringify({ mode, kind, n, path, threads, ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS, ...extra })}\n`);
