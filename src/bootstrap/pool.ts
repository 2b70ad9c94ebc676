import { Worker } from 'node:worker_threads';

/** A message from a pool worker about task `id`. */
type PoolMessage = { id: number; type: 'progress'; done: number } | { id: number; type: 'done'; values: Float64Array };

interface Member {
  worker: Worker;
  /** The task it runs, or null when idle. */
  busy: { id: number; onProgress: (done: number) => void; resolve: (values: Float64Array) => void; reject: (error: Error) => void } | null;
}

const members: Member[] = [];
let nextId = 0;

/**
 * The process's bootstrap workers: started on first use, grown to the largest count asked for,
 * and reused by every later bootstrap (pairs, strata, checks), so a worker's start-up (~30–60 ms
 * here: a V8 isolate plus the bundled worker script) is paid once per process, not once per pair.
 * Idle workers are unref'd: they never keep the process alive.
 */
function pool(size: number, script: string): Member[] {
  while (members.length < size) {
    const member: Member = { worker: new Worker(script), busy: null };
    member.worker.unref();
    member.worker.on('message', (message: PoolMessage) => {
      const task = member.busy;
      if (task === null || task.id !== message.id) return;
      if (message.type === 'progress') task.onProgress(message.done);
      else {
        member.busy = null;
        member.worker.unref();
        task.resolve(message.values);
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
 * Runs one task on each of `tasks.length` pool workers (tasks[w] goes to worker w) and resolves to
 * their results in task order. The task objects are posted (structured clone) with a fresh `id`.
 */
export function runOnPool<T extends object>(script: string, tasks: T[], onProgress: (worker: number, done: number) => void): Promise<Float64Array[]> {
  const workers = pool(tasks.length, script);
  return Promise.all(
    tasks.map(
      (task, w) =>
        new Promise<Float64Array>((resolve, reject) => {
          const member = workers[w];
          const id = nextId++;
          member.busy = { id, onProgress: (done) => onProgress(w, done), resolve, reject };
          // Referenced while it works, so the process waits for the result.
          member.worker.ref();
          member.worker.postMessage({ ...task, id });
        }),
    ),
  );
}

/** Stops every pool worker (tests; a CLI process need not call it: idle workers do not keep it alive). */
export async function closePool(): Promise<void> {
  const all = members.splice(0, members.length);
  await Promise.all(all.map((m) => m.worker.terminate()));
}
