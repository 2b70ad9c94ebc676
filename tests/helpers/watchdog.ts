import { Worker } from 'node:worker_threads';

/**
 * A watchdog for in-process runs that could block the event loop: a worker thread that kills
 * this test process (SIGKILL; vitest then reports the file as failed) when no `beat()` arrives
 * for `limitMs`. A timer cannot do it, since a run stuck in synchronous code (a read that never
 * returns, an endless loop) never lets the timer fire; the worker thread keeps running. It
 * writes a line to stderr first, straight to the file descriptor.
 * @example const dog = watchdog(10_000); for (const c of cases) { dog.beat(); run(c); } dog.stop();
 */
export function watchdog(limitMs: number, what = 'a case'): { beat: () => void; stop: () => void } {
  // [0] beats so far, [1] 1 once stopped
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const state = new Int32Array(workerData.buffer);
    let last = Atomics.load(state, 0);
    for (;;) {
      const woke = Atomics.wait(state, 0, last, workerData.limit);
      if (Atomics.load(state, 1) === 1) break;
      const now = Atomics.load(state, 0);
      if (woke === 'timed-out' && now === last) {
        fs.writeSync(2, 'watchdog: ' + workerData.what + ' ran past ' + workerData.limit + ' ms (a hang?); killing the test process\\n');
        process.kill(process.pid, 'SIGKILL');
      }
      last = now;
    }`,
    { eval: true, workerData: { buffer: shared.buffer, limit: limitMs, what } },
  );
  worker.unref();
  const bump = () => {
    Atomics.add(shared, 0, 1);
    Atomics.notify(shared, 0);
  };
  return {
    beat: bump,
    stop: () => {
      Atomics.store(shared, 1, 1);
      bump();
    },
  };
}
