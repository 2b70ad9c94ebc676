import { Worker } from 'node:worker_threads';
import type { SignFlipResult } from './types.js';
import { queueDone, queueItems, runWorkQueue, type WorkQueue } from './work-queue.js';

type Flips = Array<[number, SignFlipResult]>;

/** A message from a pool worker about task `id`. */
type PoolMessage = { id: number; type: 'progress' } | { id: number; type: 'done'; flips: Flips };

interface Member {
  worker: Worker;
  /** The task it runs, or null when idle. */
  busy: { id: number; onProgress: () => void; resolve: (flips: Flips) => void; reject: (error: Error) => void } | null;
}

const members: Member[] = [];
let nextId = 0;

/**
 * The process's bootstrap workers: started on first use, grown to the largest count asked for,
 * and reused by every later call (pairs, strata, checks), so a worker's start-up (~30–60 ms here:
 * a V8 isolate plus the bundled worker script) is paid once per process, not once per pair.
 * Idle workers are unref'd: they never keep the process alive.
 */
function pool(size: number, script: string): Member[] {
  while (members.length < size) {
    const member: Member = { worker: new Worker(script), busy: null };
    member.worker.unref();
    member.worker.on('message', (message: PoolMessage) => {
      const task = member.busy;
      if (task === null || task.id !== message.id) return;
      if (message.type === 'progress') task.onProgress();
      else {
        member.busy = null;
        member.worker.unref();
        task.resolve(message.flips);
      }
    });
    const fail = (error: Error) => {
      const index = members.indexOf(member);
      if (index >= 0) members.splice(index, 1);
      const task = member.busy;
      member.busy = null;
      task?.reject(error);
    };
    member.worker.on('error', fail);
    member.worker.on('exit', (code) => fail(new Error(`bootstrap worker exited with code ${code} before finishing`)));
    members.push(member);
  }
  return members.slice(0, size);
}

/**
 * Runs the work queue on `threads` threads: this one and threads − 1 pool workers. The queue is
 * posted to the workers first (its shared buffers are shared, the designs copied once per worker),
 * then this thread takes items too, so it computes while the workers start and the work is split
 * item by item as each thread frees up, whatever else runs on the machine; then it waits for the
 * workers to finish their last items. `onProgress(done, total)` reports items done.
 * @returns every sign-flip result of the queue, by test index.
 */
export async function runQueueOnPool(script: string, queue: WorkQueue, threads: number, onProgress: ((done: number, total: number) => void) | null): Promise<SignFlipResult[]> {
  const total = queueItems(queue);
  const report = onProgress === null ? null : () => onProgress(queueDone(queue), total);
  const workers = pool(Math.max(0, Math.min(threads, total) - 1), script);
  const pending = workers.map(
    (member) =>
      new Promise<Flips>((resolve, reject) => {
        const id = nextId++;
        member.busy = { id, onProgress: report ?? (() => {}), resolve, reject };
        // Referenced while it works, so the process waits for the result.
        member.worker.ref();
        member.worker.postMessage({ id, queue });
      }),
  );
  const flips: Array<SignFlipResult | undefined> = new Array<SignFlipResult | undefined>(queue.flips.length).fill(undefined);
  for (const [p, result] of runWorkQueue(queue, report)) flips[p] = result;
  if (queueDone(queue) === total && flips.every((f) => f !== undefined)) {
    // Every item is done and none of the results is a worker's: a worker still starting finds the
    // queue empty and reports nothing, so do not wait for it (nor keep the process alive for it).
    for (const member of workers) member.worker.unref();
    for (const p of pending) p.catch(() => {});
    report?.();
    return flips as SignFlipResult[];
  }
  for (const list of await Promise.all(pending)) for (const [p, result] of list) flips[p] = result;
  report?.();
  return flips as SignFlipResult[];
}

/** Stops every pool worker (tests; a CLI process need not call it: idle workers do not keep it alive). */
export async function closePool(): Promise<void> {
  const all = members.splice(0, members.length);
  await Promise.all(all.map((m) => m.worker.terminate()));
}
