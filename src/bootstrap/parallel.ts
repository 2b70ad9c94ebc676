import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildDesign, thinGroups, type ResampleDesign } from './design.js';
import { meanBootstrapOnDesign, meanResult } from './mean.js';
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
  if (threads === 1 || settings.method === 't' || thinGroups(design).length > 0) return meanBootstrapOnDesign(design, values, options);
  const distribution = await parallelMeanDistribution(design, settings, threads, options.onProgress ?? null);
  return meanResult(design, values, settings, distribution);
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
  const jobs: Array<Promise<void>> = [];
  for (let w = 0; w < workers; w++) {
    const chunkFrom = Math.floor((w * chunks) / workers);
    const chunkTo = Math.floor(((w + 1) * chunks) / workers);
    const task: WorkerTask = { design, seed: settings.seed, nResamples: settings.nResamples, chunkFrom, chunkTo };
    jobs.push(
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(script, { workerData: task });
        let finished = false;
        worker.on('message', (message: { type: 'progress'; done: number } | { type: 'done'; values: Float64Array }) => {
          if (message.type === 'progress') {
            doneBy[w] = message.done;
            if (onProgress !== null) {
              let total = 0;
              for (const d of doneBy) total += d;
              onProgress(total / settings.nResamples);
            }
          } else {
            distribution.set(message.values, chunkFrom * CHUNK_RESAMPLES);
            finished = true;
            resolve();
          }
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (!finished) reject(new Error(`bootstrap worker ${w} exited with code ${code} before finishing`));
        });
      }),
    );
  }
  await Promise.all(jobs);
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
