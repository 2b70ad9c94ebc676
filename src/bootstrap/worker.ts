/**
 * Worker-thread entry: a long-lived member of the bootstrap pool (pool.ts). Each message is a task
 * `{ id, queue }`: take and run items of the shared work queue (work-queue.ts) until none is left,
 * posting `{ id, type: 'progress' }` after each item and `{ id, type: 'done', flips }` (the sign-flip
 * results it computed, as [test index, result] pairs) at the end, then wait for the next task.
 */
import { parentPort } from 'node:worker_threads';
import { runWorkQueue, type WorkQueue } from './work-queue.js';

/** What the main thread sends. */
export interface WorkerTask {
  id: number;
  queue: WorkQueue;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (task: WorkerTask) => {
    const flips = runWorkQueue(task.queue, () => port.postMessage({ id: task.id, type: 'progress' }));
    port.postMessage({ id: task.id, type: 'done', flips });
  });
}
