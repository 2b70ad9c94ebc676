import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDesign, thinGroups, type ResampleDesign } from './design.js';
import { meanBootstrapOnDesign, meanResult } from './mean.js';
import { runQueueOnPool } from './pool.js';
import { finiteValues, pairedDifferences, resolveSettings, type BootstrapSettings } from './settings.js';
import type { BootstrapResult, ParallelBootstrapOptions, SignFlipResult } from './types.js';
import { makeWorkQueue, type QueueFlip } from './work-queue.js';

/**
 * `bootstrapMean` with the resampling split over threads (this one and threads − 1 workers):
 * byte-identical to it for any `threads`, because chunk k of 256 resamples always draws from the
 * stream `${seed}:chunk:${k}` and writes to its own place in the distribution; threads only decide
 * who computes which chunks. With threads = 1 (the default), or below PARALLEL_MIN_WORK, it runs in
 * this thread.
 *
 * Workers run the built JavaScript (dist/bootstrap/worker.js under the package root), also when
 * this module runs from TypeScript source (tests); `npm run build` makes it.
 * @param options BootstrapOptions plus `threads` (whole number ≥ 1).
 * @returns a promise of the same BootstrapResult as bootstrapMean.
 * @throws {RangeError} as bootstrapMean, or for a bad thread count; {Error} when the built worker is missing.
 * @example await bootstrapMeanParallel(x, { threads: 4 }) // same bytes as bootstrapMean(x)
 */
export async function bootstrapMeanParallel(x: ArrayLike<number>, options: ParallelBootstrapOptions = {}): Promise<BootstrapResult> {
  return meanBootstrapParallel(finiteValues('x', x), options);
}

/**
 * `bootstrapMeanDifference` over worker threads; byte-identical to it for any `threads`.
 * @example await bootstrapMeanDifferenceParallel(a, b, { threads: 2 }) // same bytes as bootstrapMeanDifference(a, b)
 */
export async function bootstrapMeanDifferenceParallel(a: ArrayLike<number>, b: ArrayLike<number>, options: ParallelBootstrapOptions = {}): Promise<BootstrapResult> {
  return meanBootstrapParallel(pairedDifferences(a, b), options);
}

/** Checks a thread count: a whole number ≥ 1. */
export function checkThreads(threads: number | undefined): number {
  const value = threads ?? 1;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`threads must be a whole number ≥ 1 (got ${String(threads)})`);
  return value;
}

/**
 * The threaded mean bootstrap on checked values (and, optionally, the design already built from
 * them and these options).
 */
export async function meanBootstrapParallel(values: Float64Array, options: ParallelBootstrapOptions, built: ResampleDesign | null = null): Promise<BootstrapResult> {
  const threads = checkThreads(options.threads);
  const settings = resolveSettings(options);
  const design = built ?? buildDesign(values.length, options, values);
  const use = settings.method === 't' || thinGroups(design).length > 0 ? 1 : threadsThatPay(threads, resamplingWork(design, settings.nResamples), options.minParallelWork);
  if (use === 1) return meanBootstrapOnDesign(design, values, options);
  const distribution = await parallelMeanDistribution(design, settings, use, options.onProgress ?? null);
  return meanResult(design, values, settings, distribution);
}

/**
 * Below this much work (resamplingWork plus signFlipWork, in index draws) a threaded call runs in
 * this thread alone. The main thread takes items from the start, so a worker still starting costs it
 * nothing but posting the designs (≈ 40 n bytes per pair, copied once per worker); the worker joins
 * when it is up, which took 35–50 ms of CPU here (bench/threshold.mjs: CPU with 2 threads minus CPU
 * with 1, a cold pool per process). With the worker up after b ms, W ms of work take about
 * b + (W − b) / 2 ms on two threads, less than W from W > b on: break-even near 2 · 10⁷ draws (about
 * 40 ms of one core at 2 ns a draw). The threshold is twice that, so a call that uses the pool gains
 * about a quarter or more even when the worker is slow to start; measured on a shared machine, where
 * wall-clock gains are uncertain (bench/scale.mjs prints --threads 2 against 1; bench/threads-crossover.mjs
 * times whole compare jobs on either side of it, with threadsThatPay deciding).
 */
export const PARALLEL_MIN_WORK = 4e7;

/**
 * How many threads pay for a job of `work` index draws (resamplingWork plus signFlipWork) when
 * `threads` were asked for: 1 below `minWork` (default PARALLEL_MIN_WORK: a worker's start-up would
 * cost more than the work it takes over; the crossover is measured by bench/threads-crossover.mjs),
 * else at most the cores this process may use (os.availableParallelism()): a thread without a core of
 * its own adds start-up and switching and takes nothing off the others. Under the default rule it also
 * counts the cores other processes keep busy: at most max(1, ⌊cores + 1 − load⌋) threads, load the
 * 1-minute load average (os.loadavg()[0]; 0 where the system has none, as on Windows), so a machine
 * loaded to its core count or more runs one thread (bench/threads-crossover.txt: at a load of 13 on 2
 * cores the pool was slower than one thread at every size, 2 × 5,000 items 1.26× in wall time). A
 * caller-given `minWork` (tests, the bench's forced mode) decides alone, the load ignored. So
 * `--threads K` is never asked to run slower than one thread by design; the result is the same bytes
 * whatever this returns (a chunk or a test depends only on its own stream).
 * Formula: threads < 2 or work < minWork → 1; else min(threads, cores, max(1, ⌊cores + 1 − load⌋)),
 * the last term only when minWork was not given.
 * @param threads the thread count asked for (whole number ≥ 1).
 * @param work the job's work in index draws.
 * @param minWork the crossover; default PARALLEL_MIN_WORK (and the load counted).
 * @param cores cores available; default os.availableParallelism().
 * @param load the load average counted against the cores; default os.loadavg()[0] (ignored when minWork is given).
 * @returns the thread count to run with.
 * @example threadsThatPay(8, 1e9, undefined, 2, 0) // => 2
 * @example threadsThatPay(2, 1e9, undefined, 2, 2.5) // => 1 (no idle core)
 * @example threadsThatPay(2, 1e6) // => 1 (below the crossover)
 */
export function threadsThatPay(threads: number, work: number, minWork?: number, cores: number = availableParallelism(), load?: number): number {
  if (threads < 2 || work < (minWork ?? PARALLEL_MIN_WORK)) return 1;
  const usable = minWork !== undefined ? cores : Math.min(cores, Math.floor(cores + 1 - (load ?? loadavg()[0])));
  return Math.max(1, Math.min(threads, usable));
}

/** Resampling work of B resamples of the design, in index draws: Σ_g m_g per index group, 30 (K_g − 1) per counts group. */
export function resamplingWork(design: ResampleDesign, nResamples: number): number {
  let perResample = 0;
  for (let g = 0; g + 1 < design.groupStart.length; g++) {
    perResample += design.groupCounts[g] !== 0 ? 30 * Math.max(0, design.classStart[g + 1] - design.classStart[g] - 1) : design.groupStart[g + 1] - design.groupStart[g];
  }
  return perResample * nResamples;
}

/**
 * Work of a random sign-flip test of m units with B permutations, in index draws: the bit-sliced
 * path costs about one draw per 8 units (a 32-bit word and 8 lookups per 32 units), the counts path
 * 30 per distinct |u| (its binomials); exact tests (m ≤ 16) are negligible.
 */
export function signFlipWork(units: number, nPermutations: number): number {
  return units <= 16 ? 0 : (units / 8) * nPermutations;
}

/**
 * The bootstrap distributions of `boots` and the results of the sign-flip tests `flips`, on
 * `threads` threads (this one and threads − 1 pool workers) through one shared work queue
 * (work-queue.ts): the same arrays and results whatever `threads` is.
 */
export async function runParallel(boots: Array<{ design: ResampleDesign; seed: string; nResamples: number }>, flips: QueueFlip[], threads: number, onProgress: ((fraction: number) => void) | null): Promise<{ distributions: Float64Array[]; flips: SignFlipResult[] }> {
  const queue = makeWorkQueue(boots, flips);
  const results = await runQueueOnPool(workerScript(), queue, threads, onProgress === null ? null : (done, total) => onProgress(done / total));
  const shared = new Float64Array(queue.distributions);
  // Copied out of the shared buffer, so a result holds ordinary arrays.
  const distributions = queue.boots.map((b) => shared.slice(b.offset, b.offset + b.nResamples));
  return { distributions, flips: results };
}

/**
 * The bootstrap distribution of the design's statistic on `threads` threads. Resolves to the same
 * array whatever `threads` is.
 */
export async function parallelMeanDistribution(design: ResampleDesign, settings: BootstrapSettings, threads: number, onProgress: ((fraction: number) => void) | null): Promise<Float64Array> {
  return (await runParallel([{ design, seed: settings.seed, nResamples: settings.nResamples }], [], threads, onProgress)).distributions[0];
}

let cachedScript: string | null = null;

/**
 * The built worker file: dist/cli/bundle/worker.js (else dist/bootstrap/worker.js) under the package root (the first folder above
 * this module holding benchplan's package.json), so it is found from dist/ and from src/ alike.
 * @throws {Error} when it does not exist, saying to run `npm run build`.
 */
export function workerScript(): string {
  if (cachedScript !== null) return cachedScript;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'benchplan') break;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the benchplan package root (package.json) above the bootstrap module');
    dir = parent;
  }
  // The bundled worker (one file, scripts/bundle.mjs) starts several times faster than the ~40
  // modules of dist/bootstrap/worker.js; both run the same code.
  const bundled = join(dir, 'dist', 'cli', 'bundle', 'worker.js');
  const script = existsSync(bundled) ? bundled : join(dir, 'dist', 'bootstrap', 'worker.js');
  if (!existsSync(script)) throw new Error(`the bootstrap worker ${script} is missing: run \`npm run build\` first (worker threads run the built JavaScript)`);
  cachedScript = script;
  return script;
}
