/**
 * Worker-thread entry: resamples chunks [chunkFrom, chunkTo) of a mean bootstrap and posts the
 * statistics back. Loaded from dist/bootstrap/worker.js by parallel.ts. Posts
 * `{ type: 'progress', done }` after each chunk and `{ type: 'done', values }` at the end.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ResampleDesign } from './design.js';
import { CHUNK_RESAMPLES, resampleMeanChunk } from './resample.js';

/** What the main thread sends. */
export interface WorkerTask {
  design: ResampleDesign;
  seed: string;
  nResamples: number;
  chunkFrom: number;
  chunkTo: number;
}

const task = workerData as WorkerTask;
if (parentPort !== null && task !== undefined) {
  const first = task.chunkFrom * CHUNK_RESAMPLES;
  const last = Math.min(task.nResamples, task.chunkTo * CHUNK_RESAMPLES);
  const values = new Float64Array(Math.max(0, last - first));
  let done = 0;
  for (let k = task.chunkFrom; k < task.chunkTo; k++) {
    done += resampleMeanChunk(task.design, task.seed, k, task.nResamples, values, k * CHUNK_RESAMPLES - first);
    parentPort.postMessage({ type: 'progress', done });
  }
  parentPort.postMessage({ type: 'done', values }, [values.buffer]);
}
