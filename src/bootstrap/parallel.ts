import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDesign, thinGroups, type ResampleDesign } from './design.js';
import { meanBootstrapOnDesign, meanResult } from './mean.js';
import { runOnPool } from './pool.js';
import { CHUNK_RESAMPLES, chunkCount } from './resample.js';
import { finiteValues, pairedDifferences, resolveSettings, type BootstrapSettings } from './settings.js';
import type { BootstrapResult, ParallelBootstrapOptions } from './types.js';
import type { WorkerTask } from './worker.js';

/**
 * `bootstrapMean` with the resampling split over worker threads: byte-identical to it for any
 * `threads`, because chunk k of 256 resamples always draws from the stream `${seed}:chunk:${k}`
 * and writes to its own place in the distribution; threads only decide who computes which chunks.
 * With threads = 1 (the default) it runs in this thread.
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
  if (threads === 1 || settings.method === 't' || thinGroups(design).length > 0 || resamplingWork(design, settings.nResamples) < (options.minParallelWork ?? PARALLEL_MIN_WORK)) return meanBootstrapOnDesign(design, values, options);
  const distribution = await parallelMeanDistribution(design, settings, threads, options.onProgress ?? null);
  return meanResult(design, values, settings, distribution);
}

/**
 * Below this much resampling work (resamplingWork: index draws, a binomial counted as 30) the
 * threaded bootstrap runs in this thread: posting the design and collecting the chunks costs a few
 * milliseconds per bootstrap even with the pool warm, and starting the pool ~30–60 ms once, which
 * 2·10^7 draws (≈ 40 ms of one core here) about repay. An estimate from those costs, not yet
 * confirmed on an idle machine: bench/scale.mjs times --threads 2 against 1 on whole commands.
 */
export const PARALLEL_MIN_WORK = 2e7;

/** Resampling work of B resamples of the design, in index draws: Σ_g m_g per index group, 30 (K_g − 1) per counts group. */
export function resamplingWork(design: ResampleDesign, nResamples: number): number {
  let perResample = 0;
  for (let g = 0; g + 1 < design.groupStart.length; g++) {
    perResample += design.groupCounts[g] !== 0 ? 30 * Math.max(0, design.classStart[g + 1] - design.classStart[g] - 1) : design.groupStart[g + 1] - design.groupStart[g];
  }
  return perResample * nResamples;
}

/**
 * The bootstrap distribution of the design's statistic, chunks split over `threads` workers in
 * contiguous runs. Resolves to the same array whatever `threads` is.
 */
export async function parallelMeanDistribution(design: ResampleDesign, settings: BootstrapSettings, threads: number, onProgress: ((fraction: number) => void) | null): Promise<Float64Array> {
  const chunks = chunkCount(settings.nResamples);
  const workers = Math.min(threads, chunks);
  const script = workerScript();
  const distribution = new Float64Array(settings.nResamples);
  const doneBy = new Float64Array(workers);
  const tasks: Array<Omit<WorkerTask, 'id'>> = [];
  for (let w = 0; w < workers; w++) {
    const chunkFrom = Math.floor((w * chunks) / workers);
    const chunkTo = Math.floor(((w + 1) * chunks) / workers);
    tasks.push({ design, seed: settings.seed, nResamples: settings.nResamples, chunkFrom, chunkTo });
  }
  const results = await runOnPool(script, tasks, (w, done) => {
    doneBy[w] = done;
    if (onProgress !== null) {
      let total = 0;
      for (const d of doneBy) total += d;
      onProgress(total / settings.nResamples);
    }
  });
  results.forEach((values, w) => distribution.set(values, tasks[w].chunkFrom * CHUNK_RESAMPLES));
  return distribution;
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
