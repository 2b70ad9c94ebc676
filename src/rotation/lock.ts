import { closeSync, constants, fstatSync, linkSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** What a lock file holds: who took it and when. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO 8601 time the lock was taken (shown to whoever finds it held; never enters a record). */
  since: string;
}

/** A lock file as found: its owner (null when the file does not read as one) and whether it is stale. */
export interface LockState {
  owner: LockOwner | null;
  /** True when the owner ran on this host and is no longer running. */
  stale: boolean;
}

/** A lock this process holds; `release` removes it. */
export interface HeldLock {
  path: string;
  owner: LockOwner;
  release(): void;
}

/** Lock files are tiny; anything larger is not one of ours. */
const MAX_LOCK_BYTES = 4096;

let lockCounter = 0;

/**
 * True when process `pid` runs on this machine: `kill(pid, 0)` succeeds, or fails with EPERM
 * (it exists but belongs to another user). ESRCH means it is gone.
 * @example processIsAlive(process.pid) // => true
 */
export function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This machine's name as lock files record it (`os.hostname()`). @example lockHost() // => "vm" */
export function lockHost(): string {
  return hostname();
}

/**
 * Reads a lock file without following a link and without blocking (O_NONBLOCK, then fstat: a
 * FIFO or device is not read). Null when absent; an owner of null when it is not a lock file.
 * @example readLock('out/archive/locks/2026Q4.lock') // => { owner: { pid: 4242, host: 'ci-7', since: '2026-10-01T09:00:00.000Z' }, stale: false } (while a freeze runs)
 */
export function readLock(path: string): LockState | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { owner: null, stale: false };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_LOCK_BYTES) return { owner: null, stale: false };
    const buffer = Buffer.alloc(stat.size);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const data = JSON.parse(buffer.subarray(0, n).toString('utf8')) as Partial<LockOwner>;
    if (!Number.isSafeInteger(data.pid) || typeof data.host !== 'string' || typeof data.since !== 'string') return { owner: null, stale: false };
    const owner: LockOwner = { pid: data.pid as number, host: data.host, since: data.since };
    return { owner, stale: owner.host === lockHost() && !processIsAlive(owner.pid) };
  } catch {
    return { owner: null, stale: false };
  } finally {
    closeSync(fd);
  }
}

/** The owner in words, for messages. @example describeLockOwner({ pid: 123, host: 'ci-7', since: '2026-10-01T09:00:00.000Z' }) // => "PID 123 on ci-7 since 2026-10-01T09:00:00.000Z" */
export function describeLockOwner(owner: LockOwner | null): string {
  return owner ? `PID ${owner.pid} on ${owner.host} since ${owner.since}` : 'a writer whose lock file does not read (remove it if no freeze is running)';
}

/**
 * Creates a lock file that must not exist: its content is written to a temporary file and
 * hard-linked into place, which fails with EEXIST when the lock is held, as O_EXCL does, and
 * means a lock file is never seen half-written.
 * @returns true when this call created it.
 */
function createLockFile(path: string, owner: LockOwner): boolean {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${(lockCounter += 1)}.tmp`);
  const fd = openSync(temp, 'wx', 0o444);
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    // No hard links here: O_EXCL directly (a crash between create and write leaves an empty lock, reported as unreadable).
    let direct: number;
    try {
      direct = openSync(path, 'wx', 0o444);
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inner;
    }
    try {
      writeSync(direct, `${JSON.stringify(owner)}\n`);
    } finally {
      closeSync(direct);
    }
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Removes a stale lock so that only one process removes it and none removes a live lock taken
 * meanwhile: the remover first takes `PATH.break` (O_EXCL as above), reads the lock again under
 * it and removes it only if it is still the same stale lock. A `.break` file whose owner died
 * (on this host) is itself removed first.
 * @returns true when the stale lock is gone (removed by us or by someone else).
 */
function breakStaleLock(path: string, seen: LockOwner): boolean {
  const breaker = `${path}.break`;
  const me = currentOwner();
  if (!createLockFile(breaker, me)) {
    const state = readLock(breaker);
    if (state?.stale) rmSync(breaker, { force: true });
    return false;
  }
  try {
    const now = readLock(path);
    if (!now) return true;
    if (!now.stale || !now.owner || now.owner.pid !== seen.pid || now.owner.since !== seen.since || now.owner.host !== seen.host) return false;
    rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(breaker, { force: true });
  }
}

/**
 * Removes the lock file `path` when it is stale (its owner ran on this host and is gone), the
 * same atomic way `tryLock` does (breakStaleLock): a live lock, or one taken meanwhile, is never
 * removed. For cleaning up after a writer that died, without taking the lock.
 * @example removeStaleLock('out/archive/locks/.head.lock') // => true after a freeze was killed during its commit
 * @returns true when a stale lock was there and is gone now (removed by this call or a concurrent one).
 */
export function removeStaleLock(path: string): boolean {
  const state = readLock(path);
  if (!state?.stale || !state.owner) return false;
  return breakStaleLock(path, state.owner);
}

function currentOwner(): LockOwner {
  // The lock is the one place the archive reads the clock: `since` tells whoever finds the lock held how old it is.
  return { pid: process.pid, host: lockHost(), since: new Date().toISOString() };
}

/** The outcome of one attempt to take a lock. */
export type LockAttempt = { held: HeldLock } | { busy: LockState };

/**
 * One attempt to take the lock file `path`: created if absent; a stale lock (its owner ran on
 * this host and is gone, e.g. after kill -9) is removed atomically (`breakStaleLock`) and taken.
 * Never waits. Not covered: two processes that both die within microseconds while breaking
 * the same stale lock (a stale `.break` file is removed on the next attempt).
 * @example const attempt = tryLock('out/archive/locks/2026Q4.lock'); if ('held' in attempt) attempt.held.release();
 * @returns the held lock, or the state of the lock that another live writer holds.
 * @throws the file system's error when the lock's folder cannot be written.
 */
export function tryLock(path: string): LockAttempt {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const owner = currentOwner();
    if (createLockFile(path, owner)) {
      return {
        held: {
          path,
          owner,
          release: () => {
            // Only the owner removes a live lock, and stale-breaking never touches a live one, so the file is ours.
            rmSync(path, { force: true });
          },
        },
      };
    }
    const state = readLock(path);
    if (!state) continue; // released meanwhile
    if (!state.stale || !state.owner) return { busy: state };
    breakStaleLock(path, state.owner);
  }
  return { busy: readLock(path) ?? { owner: null, stale: false } };
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps the thread for `ms` milliseconds (synchronous code cannot await). */
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/**
 * Takes the lock file `path`, waiting up to `waitMs` while a live writer holds it (polling every
 * few milliseconds, spread by PID so that waiters do not move in step). For locks held only for
 * the milliseconds of a commit. Reads the clock for the deadline only.
 * @example lockWithin('out/archive/locks/.head.lock', 20_000) // => { held: … } once the other commit is done
 * @returns the held lock, or the state of the lock still held when the wait ran out.
 */
export function lockWithin(path: string, waitMs: number): LockAttempt {
  const deadline = Date.now() + waitMs;
  let pause = 2 + (process.pid % 5);
  for (;;) {
    const attempt = tryLock(path);
    if ('held' in attempt || Date.now() >= deadline) return attempt;
    sleepSync(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(50, pause * 2);
  }
}
