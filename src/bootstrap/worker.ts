/**
 * Worker-thread entry: a long-lived member of the bootstrap pool (pool.ts). Each message is a task:
 * resample chunks [chunkFrom, chunkTo) of a mean bootstrap and post the statistics back. Posts
 * `{ id, type: 'progress', done }` after each chunk and `{ id, type: 'done', values }` at the end,
 * then waits for the next task.
 */
import { parentPort } from 'node:worker_threads';
import type { ResampleDesign } from './design.js';
import { CHUNK_RESAMPLES, resampleMeanChunk } from './resample.js';

/** What the main thread sends. */
export interface WorkerTask {
  id: number;
  design: ResampleDesign;
  seed: string;
  nResamples: number;
  chunkFrom: number;
  chunkTo: number;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (task: WorkerTask) => {
    const first = task.chunkFrom * CHUNK_RESAMPLES;
    const last = Math.min(task.nResamples, task.chunkTo * CHUNK_RESAMPLES);
    const values = new Float64Array(Math.max(0, last - first));
    let done = 0;
    for (let k = task.chunkFrom; k < task.chunkTo; k++) {
      done += resampleMeanChunk(task.design, task.seed, k, task.nResamples, values, k * CHUNK_RESAMPLES - first);
      port.postMessage({ id: task.id, type: 'progress', done });
    }
    port.postMessage({ id: task.id, type: 'done', values }, [values.buffer]);
  });
}
