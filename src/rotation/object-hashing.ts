import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { createHash, hash as oneShotHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/**
 * Hashing an archive's objects on two threads for verify (issues 32 and 33: verify within 2× of
 * `sha256sum` at 10⁵ items). The objects to hash are cut into chunks of OBJECT_CHUNK; this thread
 * and one worker thread take chunks from a shared counter, so whoever is free hashes the next.
 * Each object's outcome is a function of the file alone (its bytes, its size, its type), written
 * to the object's own place, so the result is the same whichever thread hashed it.
 *
 * The fast path only says "intact" (SHA-256 equals the name, size as expected) with the bytes
 * read; anything else (another hash, another size, not a regular file, an error) is marked for a
 * re-check, which verify does in this thread with the one-thread code (sha256File), so every
 * problem, message and code is the one-thread one.
 */

/** Objects per chunk taken from the shared counter (about 4 ms of work for small files). */
export const OBJECT_CHUNK = 256;

/**
 * Checks whose version records hold at least this many bytes (about 5,500 items at 190 bytes an
 * item) may use a worker thread; below, its start-up (about 40 ms of CPU) costs more than it can
 * save. Decided from the records' sizes, known before the objects are listed, so that the worker
 * can list them. See bench/verify-scale.mjs.
 */
export const PARALLEL_MIN_RECORD_BYTES = 1 << 20;

/**
 * Whether a second thread is likely to get a core now: the load average of the last minute is
 * below the cores + 1. Measured on 2 cores (bench/verify-scale.results.txt), threads 2 against 1
 * at 10^5 items: at load 2.0-3.4 the worker cut verify's wall time to 0.66-0.76 in 6 of 9
 * measurements and lost in 3 (1.09-1.11); at load 3.5-13 it did not pay (0.98-1.25). It costs
 * 8-15% more CPU. The result is the same either way; only the time differs.
 * @example typeof coreToSpare() // => "boolean"
 */
export function coreToSpare(): boolean {
  return loadavg()[0] < availableParallelism() + 1;
}

/** `expected` value: no size is recorded for the object (read it whatever its size up to maxBytes). */
export const ANY_SIZE = -1;
/** `expected` value: the records disagree on its size; leave it to the one-thread re-check unread. */
export const NO_FAST_PATH = -2;

/** `status` values. */
export const PENDING = 0;
export const INTACT = 1;
export const RECHECK = 2;

/** One batch of objects to hash, in shared memory so both threads see it. */
export interface ObjectHashJob {
  /** The objects folder with a trailing separator: `prefix + name` is the file. */
  prefix: string;
  names: readonly string[];
  /** Per object: the size every record gives it, ANY_SIZE or NO_FAST_PATH. */
  expected: Float64Array;
  maxBytes: number;
  /** open(2) flags: read only, no link followed, never blocking. */
  flags: number;
  chunk: number;
  /** [0]: the next chunk to take (Atomics.add). */
  control: Int32Array;
  /** Per chunk: 1 once the worker has written its outcomes (Atomics.store, then notify). */
  done: Int32Array;
  /** Per object: PENDING, INTACT or RECHECK. */
  status: Uint8Array;
  /** Per object: the bytes read (INTACT only). */
  bytes: Float64Array;
}

/** The file and hash functions hashChunks calls (given, not imported, so the worker runs the same text). */
export interface HashOps {
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): { isFile(): boolean; size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
  closeSync(fd: number): void;
  /** The SHA-256 of some bytes as hex. */
  sha256(bytes: Uint8Array): string;
  createHash(algorithm: 'sha256'): { update(bytes: Uint8Array): unknown; digest(encoding: 'hex'): string };
}

/**
 * Takes chunks from `job.control` until none is left and hashes their objects; marks each chunk
 * taken in `mine` (this thread) or, with `mine` null (the worker), sets `job.done[k]` and
 * notifies. Self-contained (it refers to nothing outside its parameters and globals): the worker
 * runs its source text. Per object: open (no link followed, not blocking), fstat, reads into one
 * reused buffer, one hash call, close; INTACT when the file is regular, no larger than maxBytes,
 * of the expected size, and its SHA-256 is its name; RECHECK otherwise.
 * Reference: FIPS 180-4 (SHA-256); the digest `sha256sum` prints. Cost: O(bytes hashed).
 * @example hashChunks(job, ops, null) // => undefined (the outcomes are in job.status and job.bytes)
 */
export function hashChunks(job: ObjectHashJob, ops: HashOps, mine: Uint8Array | null): void {
  const { prefix, names, expected, maxBytes, flags, chunk, control, done, status, bytes } = job;
  const n = names.length;
  const buffer = new Uint8Array(1 << 20);
  const one = (i: number): number => {
    const name = names[i] as string;
    const want = expected[i] as number;
    if (want === -2) return 2;
    let fd: number;
    try {
      fd = ops.openSync(prefix + name, flags);
    } catch {
      return 2;
    }
    try {
      const stat = ops.fstatSync(fd);
      const size = stat.size;
      if (!stat.isFile() || size > maxBytes || (want >= 0 && size !== want)) return 2;
      const first = ops.readSync(fd, buffer, 0, buffer.length, null);
      if (first > maxBytes) return 2;
      let read = first;
      let digest: string;
      // As sha256File: a regular file that gave its whole size in one read is hashed in one call.
      if (first >= size && first < buffer.length) digest = ops.sha256(buffer.subarray(0, first));
      else {
        const h = ops.createHash('sha256');
        read = 0;
        for (let r = first; r > 0; r = ops.readSync(fd, buffer, 0, buffer.length, null)) {
          read += r;
          if (read > maxBytes) return 2;
          h.update(buffer.subarray(0, r));
          if (read >= size && r < buffer.length) break;
        }
        digest = h.digest('hex');
      }
      if (digest !== name) return 2;
      bytes[i] = read;
      return 1;
    } catch {
      return 2;
    } finally {
      try {
        ops.closeSync(fd);
      } catch {
        // a close error changes nothing read
      }
    }
  };
  for (;;) {
    const k = Atomics.add(control, 0, 1);
    const from = k * chunk;
    if (from >= n) return;
    const to = Math.min(n, from + chunk);
    for (let i = from; i < to; i++) status[i] = one(i);
    if (mine) mine[k] = 1;
    else {
      Atomics.store(done, k, 1);
      Atomics.notify(done, k);
    }
  }
}

/** The worker's program: hashChunks's own text, run on the job posted to it. CommonJS (an eval worker). */
const WORKER_SOURCE = `'use strict';
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const crypto = require('node:crypto');
const hashChunks = (${hashChunks.toString()});
const sha256 = typeof crypto.hash === 'function' ? (b) => crypto.hash('sha256', b, 'hex') : (b) => crypto.createHash('sha256').update(b).digest('hex');
const ops = { openSync: fs.openSync, fstatSync: fs.fstatSync, readSync: fs.readSync, closeSync: fs.closeSync, sha256, createHash: crypto.createHash };
parentPort.on('message', (message) => {
  if (message.list !== undefined) {
    // The objects folder, listed here while the other thread reads the records: names sorted (UTF-16
    // code units, as verify orders them) and joined by NUL (no file name holds one), and the names
    // of entries that are not regular files by their folder entry.
    let reply;
    try {
      const entries = fs.readdirSync(message.list, { withFileTypes: true });
      const names = [];
      const others = [];
      for (const entry of entries) {
        names.push(entry.name);
        if (!entry.isFile()) others.push(entry.name);
      }
      reply = { names: names.sort().join('\\0'), count: names.length, others };
    } catch (error) {
      reply = { error: String(error && error.code) };
    }
    message.port.postMessage(reply);
    Atomics.store(message.flag, 0, 1);
    Atomics.notify(message.flag, 0);
    return;
  }
  hashChunks({ ...message, names: message.names.split('\\0') }, ops, null);
  parentPort.close();
});
`;

/** This thread's file and hash functions for hashChunks. */
const LOCAL_OPS: HashOps = {
  openSync,
  fstatSync,
  readSync,
  closeSync,
  sha256: (b) => oneShotHash('sha256', b, 'hex'),
  createHash: (algorithm) => createHash(algorithm),
};

/** How long this thread waits for a chunk the worker took before hashing it itself (a worker that stalled or died). */
const TAKE_OVER_MS = 30_000;

/** The outcome of hashing a batch: per object PENDING (not asked), INTACT (with its bytes) or RECHECK. */
export interface ObjectHashOutcome {
  status: Uint8Array;
  bytes: Float64Array;
}

/**
 * Hashes a batch of archive objects, on this thread and (when asked) one worker thread.
 * Construct it early (the worker starts while this thread does other work), `start` the batch,
 * do other work, then `finish`: this thread hashes the chunks left, waits for the worker's, and
 * returns every object's outcome. Outcomes depend only on the files, never on which thread or
 * in which order they were hashed.
 * @example new ObjectHasher(false).start('objs/', [], new Float64Array(0), 1).finish().status.length // => 0
 */
export class ObjectHasher {
  private worker: Worker | null = null;
  /** The batch in shared memory (after `start`); tests read and move its counter. */
  job: ObjectHashJob | null = null;

  /** @param useWorker start one worker thread (falls back to this thread alone if it cannot start). */
  constructor(useWorker: boolean) {
    if (!useWorker) return;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
      // A worker that fails only loses its share: chunks it never took are hashed here, taken ones after TAKE_OVER_MS.
      worker.on('error', () => undefined);
      this.worker = worker;
    } catch {
      this.worker = null;
    }
  }

  /** True when a worker thread was started. */
  get parallel(): boolean {
    return this.worker !== null;
  }

  private listing: { port: MessagePort; flag: Int32Array } | null = null;

  /**
   * Asks the worker to list a folder (`readdir` with file types) while this thread does other
   * work; `takeListing` returns it. Nothing happens without a worker.
   */
  listEarly(folder: string): void {
    if (this.worker === null) return;
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    this.worker.postMessage({ list: folder, port: port2, flag }, [port2]);
    this.listing = { port: port1, flag };
  }

  /**
   * The listing `listEarly` asked for: every name, sorted by UTF-16 code units, and the names that
   * are not regular files by their folder entry; null when there is none (no worker, it failed or
   * it did not answer within `waitMs`): the caller lists the folder itself.
   */
  takeListing(waitMs = TAKE_OVER_MS): { names: string[]; others: string[] } | null {
    const listing = this.listing;
    this.listing = null;
    if (listing === null) return null;
    Atomics.wait(listing.flag, 0, 0, waitMs);
    const message = Atomics.load(listing.flag, 0) === 1 ? (receiveMessageOnPort(listing.port)?.message as { names?: string; count?: number; others?: string[] } | undefined) : undefined;
    listing.port.close();
    if (message?.names === undefined || message.others === undefined) return null;
    const names = message.count === 0 ? [] : message.names.split('\0');
    return names.length === message.count ? { names, others: message.others } : null;
  }

  /**
   * Hands out the batch: `names[i]` under `prefix`, `expected[i]` its size (ANY_SIZE, NO_FAST_PATH).
   * @param chunk objects per chunk (OBJECT_CHUNK; tests use 1 to spread a few objects over both threads).
   * @returns this, to chain `finish`.
   */
  start(prefix: string, names: readonly string[], expected: Float64Array, maxBytes: number, chunk = OBJECT_CHUNK): this {
    const n = names.length;
    const chunks = Math.ceil(n / chunk);
    const shared = (bytes: number) => new SharedArrayBuffer(Math.max(8, bytes));
    const job: ObjectHashJob = {
      prefix,
      names,
      expected: new Float64Array(shared(8 * n), 0, n),
      maxBytes,
      flags: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      chunk,
      control: new Int32Array(shared(4)),
      done: new Int32Array(shared(4 * chunks), 0, chunks),
      status: new Uint8Array(shared(n), 0, n),
      bytes: new Float64Array(shared(8 * n), 0, n),
    };
    job.expected.set(expected.subarray(0, n));
    this.job = job;
    if (this.worker && n > 0) {
      this.worker.postMessage({ ...job, names: names.join('\0') });
    }
    return this;
  }

  /**
   * Hashes what is left here, waits for the worker's chunks, stops the worker; every object's outcome.
   * @param options.help false: this thread hashes nothing until TAKE_OVER_MS (tests: the worker's own outcomes).
   * @param options.takeOverMs how long to wait for a chunk the worker took before hashing it here (default 30 s).
   */
  finish(options: { help?: boolean; takeOverMs?: number } = {}): ObjectHashOutcome {
    const job = this.job;
    if (job === null) throw new Error('ObjectHasher.finish before start');
    const chunks = job.done.length;
    const mine = new Uint8Array(chunks);
    if (options.help !== false || this.worker === null) hashChunks(job, LOCAL_OPS, mine);
    const taken: Array<{ from: number; outcome: ObjectHashOutcome }> = [];
    for (let k = 0; k < chunks; k++) {
      if (mine[k] === 1 || Atomics.load(job.done, k) === 1) continue;
      if (Atomics.wait(job.done, k, 0, options.takeOverMs ?? TAKE_OVER_MS) !== 'timed-out' || Atomics.load(job.done, k) === 1) continue;
      // The worker took this chunk and stalled or died: hash it here, into arrays of its own that the worker cannot write.
      const from = k * job.chunk;
      const to = Math.min(job.names.length, from + job.chunk);
      const outcome = { status: new Uint8Array(to - from), bytes: new Float64Array(to - from) };
      const one: ObjectHashJob = { ...job, names: job.names.slice(from, to), expected: job.expected.slice(from, to), control: new Int32Array(1), done: new Int32Array(1), ...outcome };
      hashChunks(one, LOCAL_OPS, new Uint8Array(1));
      taken.push({ from, outcome });
    }
    // Copies, so that a stalled worker writing later changes nothing returned.
    const status = Uint8Array.from(job.status);
    const bytes = Float64Array.from(job.bytes);
    for (const { from, outcome } of taken) {
      status.set(outcome.status, from);
      bytes.set(outcome.bytes, from);
    }
    this.stop();
    return { status, bytes };
  }

  /** Stops the worker (if any); safe to call twice. */
  stop(): void {
    if (this.worker) void this.worker.terminate().catch(() => undefined);
    this.worker = null;
  }
}
