import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckFailed } from '../../src/data/errors.js';
import { freezeVersion, readArchiveObject, readArchiveVersion } from '../../src/rotation/archive.js';
import { sha256Hex } from '../../src/rotation/hash.js';
import { temporaryFileWriter } from '../../src/rotation/leftovers.js';
import { processIsAlive, readLock, tryLock } from '../../src/rotation/lock.js';
import { assertVersionSound } from '../../src/rotation/record-links.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
import { prepareRotation } from '../../src/rotation/rotate.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { runCli } from '../helpers/cli.js';
import { item, smallBenchmark, tempDir } from './helpers.js';

const DATE = '2026-07-01';
/** Above Linux's largest pid_max (2^22): no process has it. */
const DEAD_PID = 99_999_999;

function writeLock(path: string, owner: { pid: number; host: string; since: string }): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(owner));
}

function rewrite(path: string, content: string): void {
  chmodSync(path, 0o644);
  writeFileSync(path, content);
}

function editRecord(dir: string, version: string, edit: (record: Record<string, any>) => void): void {
  const path = join(dir, 'versions', `${version}.json`);
  const record = JSON.parse(readFileSync(path, 'utf8'));
  edit(record);
  rewrite(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** v1, v2 rotated from v1 (shares all but one content), v3 frozen after v2 with only contents v1 holds. */
function threeVersions() {
  const dir = tempDir();
  const items = smallBenchmark();
  const v1 = freezeVersion(dir, items, { version: 'v1', date: DATE });
  freezeVersion(dir, [...items.slice(1), item('new', 'routine', 'A new incident.')], { version: 'v2', date: '2026-10-01', parent: { version: 'v1', fingerprint: v1.fingerprint } });
  freezeVersion(dir, items.slice(2), { version: 'v3', date: '2027-01-01' });
  return { dir, items };
}

describe('locks', () => {
  it('a lock is taken once; its owner is this process on this host; release frees it', () => {
    const dir = tempDir();
    const path = join(dir, 'a.lock');
    const first = tryLock(path);
    expect('held' in first).toBe(true);
    const second = tryLock(path);
    expect(second).toEqual({ busy: { owner: { pid: process.pid, host: hostname(), since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }, stale: false } });
    if ('held' in first) first.held.release();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]); // no temporary file left by the link-into-place
  });

  it('a lock whose owner on this host is gone is stale and taken over; one of another host never is', () => {
    const dir = tempDir();
    const path = join(dir, 'b.lock');
    writeLock(path, { pid: DEAD_PID, host: hostname(), since: '2026-01-01T00:00:00.000Z' });
    expect(readLock(path)).toMatchObject({ stale: true });
    const taken = tryLock(path);
    expect('held' in taken && taken.held.owner.pid).toBe(process.pid);
    writeLock(join(dir, 'c.lock'), { pid: DEAD_PID, host: 'another-host', since: '2026-01-01T00:00:00.000Z' });
    expect(tryLock(join(dir, 'c.lock'))).toEqual({ busy: { owner: { pid: DEAD_PID, host: 'another-host', since: '2026-01-01T00:00:00.000Z' }, stale: false } });
    expect(processIsAlive(process.pid)).toBe(true);
    expect(processIsAlive(DEAD_PID)).toBe(false);
  });

  it('temporary file names carry the writer PID', () => {
    expect(temporaryFileWriter('.9f86d08188.4242.3.tmp')).toBe(4242);
    expect(temporaryFileWriter('.v1.json.17.1.tmp')).toBe(17);
    expect(temporaryFileWriter('9f86d08188')).toBeNull();
    expect(temporaryFileWriter('.notes.tmp')).toBeNull();
  });
});

describe('freezeVersion with other writers', () => {
  it('refuses a version locked by a live writer: "locked by PID … on HOST since T", writing nothing', async () => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE });
    const sleeper = spawn('sleep', ['30']);
    try {
      writeLock(join(dir, 'locks', 'v2.lock'), { pid: sleeper.pid as number, host: hostname(), since: '2026-07-01T10:00:00.000Z' });
      const items = smallBenchmark(['past_failure'], 2);
      expect(() => freezeVersion(dir, items, { version: 'v2', date: DATE })).toThrow(CheckFailed);
      expect(() => freezeVersion(dir, items, { version: 'v2', date: DATE })).toThrow(`version "v2" is locked by PID ${sleeper.pid} on ${hostname()} since 2026-07-01T10:00:00.000Z (locks/v2.lock)`);
      expect(existsSync(join(dir, 'objects', sha256Hex(items[0].content)))).toBe(false);
      const cli = await runCli(['freeze', 'examples/manifest.yaml', '--archive', dir, '--version', 'v2']);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/locked by PID \d+ on \S+ since 2026-07-01T10:00:00\.000Z/);
      // verify sees a writer at work, not a problem.
      expect(verifyArchive(dir)).toMatchObject({ ok: true, leftovers: [{ kind: 'in-progress', path: 'locks/v2.lock' }] });
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('takes over the stale lock of a writer that died, and removes only dead writers\' temporary files', () => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE });
    writeLock(join(dir, 'locks', 'v2.lock'), { pid: DEAD_PID, host: hostname(), since: '2026-07-01T10:00:00.000Z' });
    writeFileSync(join(dir, 'objects', `.${'a'.repeat(64)}.${DEAD_PID}.1.tmp`), 'partial');
    writeFileSync(join(dir, 'versions', `.v2.json.${DEAD_PID}.2.tmp`), '{');
    writeFileSync(join(dir, 'objects', `.${'b'.repeat(64)}.${process.pid}.999.tmp`), 'mine, in progress');
    const before = verifyArchive(dir);
    expect(before.ok).toBe(true);
    expect(before.leftovers.map((x) => `${x.kind} ${x.path}`)).toEqual([
      'stale-lock locks/v2.lock',
      `interrupted objects/.${'a'.repeat(64)}.${DEAD_PID}.1.tmp`,
      `in-progress objects/.${'b'.repeat(64)}.${process.pid}.999.tmp`,
      `interrupted versions/.v2.json.${DEAD_PID}.2.tmp`,
    ]);
    const r = freezeVersion(dir, smallBenchmark(['past_failure'], 2), { version: 'v2', date: DATE });
    expect(r.leftoversRemoved).toBe(2);
    expect(verifyArchive(dir).leftovers.map((x) => `${x.kind} ${x.path}`)).toEqual([`in-progress objects/.${'b'.repeat(64)}.${process.pid}.999.tmp`]);
  });

  it('a re-run after a kill between linking the record and releasing the head lock ("already exists") leaves no stale lock', () => {
    // What kill -9 in that window leaves (seen in tests/faults under load): the record, and the stale version and head locks.
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE });
    const dead = { pid: DEAD_PID, host: hostname(), since: '2026-07-01T10:00:00.000Z' };
    writeLock(join(dir, 'locks', 'v1.lock'), dead);
    writeLock(join(dir, 'locks', '.head.lock'), dead);
    expect(verifyArchive(dir).leftovers.map((x) => `${x.kind} ${x.path}`)).toEqual(['stale-lock locks/.head.lock', 'stale-lock locks/v1.lock']);
    expect(() => freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE })).toThrow(/version "v1" already exists/);
    expect(verifyArchive(dir)).toMatchObject({ ok: true, leftovers: [] });
    // A live head lock is never touched: the freeze waits for it (here it would wait, so only the cleanup is run).
    const sleeper = spawn('sleep', ['30']);
    try {
      writeLock(join(dir, 'locks', '.head.lock'), { ...dead, pid: sleeper.pid as number });
      expect(() => freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE })).toThrow(/already exists/);
      expect(readLock(join(dir, 'locks', '.head.lock'))).toMatchObject({ owner: { pid: sleeper.pid }, stale: false });
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('numbers versions along the hash chain; each records the one before and its parent with their digests', () => {
    const { dir } = threeVersions();
    const [v1, v2, v3] = ['v1', 'v2', 'v3'].map((v) => readArchiveVersion(dir, v));
    expect([v1.sequence, v2.sequence, v3.sequence]).toEqual([1, 2, 3]);
    expect(v1.previous).toBeNull();
    expect(v2.previous).toEqual({ version: 'v1', recordDigest: v1.recordDigest });
    expect(v3.previous).toEqual({ version: 'v2', recordDigest: v2.recordDigest });
    expect(v2.parent).toEqual({ version: 'v1', fingerprint: v1.fingerprint, recordDigest: v1.recordDigest });
    expect(JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8'))).toEqual({ format: 'benchplan-head/1', version: 'v3', recordDigest: v3.recordDigest, sequence: 3, previous: { version: 'v2', recordDigest: v2.recordDigest } });
    expect(verifyArchive(dir)).toMatchObject({ ok: true, head: { version: 'v3', sequence: 3 }, leftovers: [], notes: [] });
  });
});

describe('verify: the history as a whole', () => {
  it('catches a deleted record whose contents all live on in other versions (middle of the chain, and the newest)', () => {
    const { dir } = threeVersions();
    rmSync(join(dir, 'versions', 'v2.json')); // its only own content is 'A new incident.'
    rmSync(join(dir, 'objects', sha256Hex('A new incident.')));
    expect(verifyArchive(dir).problems).toEqual([{ kind: 'missing', path: 'versions/v2.json', detail: "versions/v3.json names it as the version frozen before (the archive's hash chain, sequence 2)" }]);

    const other = threeVersions().dir; // v3's contents are all v1's too
    rmSync(join(other, 'versions', 'v3.json'));
    expect(verifyArchive(other).problems).toEqual([{ kind: 'missing', path: 'versions/v3.json', detail: 'head.json names it as the newest version (sequence 3)' }]);
    expect(() => freezeVersion(other, smallBenchmark(['x'], 1), { version: 'v4', date: DATE })).toThrow(/head\.json: version: names v3 as the newest version, but .*v3\.json is missing/);
  });

  it('catches a replaced record (re-digested) and a re-ordered chain', () => {
    const { dir } = threeVersions();
    editRecord(dir, 'v2', (r) => {
      r.items[0].label = 'absent';
      r.recordDigest = versionRecordDigest(r); // the fingerprint still catches the label...
    });
    const problems = verifyArchive(dir).problems.map((p) => `${p.path}: ${p.detail}`);
    expect(problems).toContainEqual(expect.stringMatching(/^versions\/v2\.json: recordDigest: not the record versions\/v3\.json chained to/));

    // Re-ordered: v3 made to follow v1 directly (re-digested, head rewritten): v2 is no longer on the chain.
    const other = threeVersions().dir;
    const v1 = readArchiveVersion(other, 'v1');
    editRecord(other, 'v3', (r) => {
      r.previous = { version: 'v1', recordDigest: v1.recordDigest };
      r.sequence = 2;
      r.recordDigest = versionRecordDigest(r);
    });
    const head = JSON.parse(readFileSync(join(other, 'head.json'), 'utf8'));
    writeFileSync(join(other, 'head.json'), JSON.stringify({ ...head, recordDigest: readArchiveVersion(other, 'v3').recordDigest, sequence: 2, previous: { version: 'v1', recordDigest: v1.recordDigest } }));
    expect(verifyArchive(other).problems).toEqual([{ kind: 'changed', path: 'versions/v2.json', detail: expect.stringMatching(/^not in the archive's hash chain: no later version and not head\.json lead to it \(sequence 2\)/) }]);
  });

  it('a commit that died between writing head.json and linking its record is an interrupted write; the next freeze rolls the head back', () => {
    const dir = tempDir();
    const v1 = freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE });
    writeFileSync(join(dir, 'head.json'), JSON.stringify({ format: 'benchplan-head/1', version: 'v2', recordDigest: 'c'.repeat(64), sequence: 2, previous: { version: 'v1', recordDigest: v1.recordDigest } }));
    writeLock(join(dir, 'locks', 'v2.lock'), { pid: DEAD_PID, host: hostname(), since: '2026-07-01T10:00:00.000Z' });
    const r = verifyArchive(dir);
    expect(r).toMatchObject({ ok: true, head: { version: 'v1', sequence: 1 } });
    expect(r.leftovers.map((x) => `${x.kind} ${x.path}`)).toEqual(['interrupted head.json', 'stale-lock locks/v2.lock']);
    const v3 = freezeVersion(dir, smallBenchmark(['rare'], 2), { version: 'v3', date: DATE });
    expect(v3).toMatchObject({ sequence: 2, previous: { version: 'v1', recordDigest: v1.recordDigest } });
    expect(verifyArchive(dir)).toMatchObject({ ok: true, head: { version: 'v3', sequence: 2 }, leftovers: [{ kind: 'stale-lock', path: 'locks/v2.lock' }] });
  });

  it('the same while a re-run of the interrupted version holds its lock: another writer rolls the head back and commits', () => {
    const dir = tempDir();
    const v1 = freezeVersion(dir, smallBenchmark(['routine'], 2), { version: 'v1', date: DATE });
    writeFileSync(join(dir, 'head.json'), JSON.stringify({ format: 'benchplan-head/1', version: 'v2', recordDigest: 'c'.repeat(64), sequence: 2, previous: { version: 'v1', recordDigest: v1.recordDigest } }));
    const sleeper = spawn('sleep', ['30']);
    try {
      writeLock(join(dir, 'locks', 'v2.lock'), { pid: sleeper.pid as number, host: hostname(), since: '2026-07-01T10:00:00.000Z' });
      expect(verifyArchive(dir).leftovers[0]).toMatchObject({ kind: 'in-progress', path: 'head.json' });
      expect(freezeVersion(dir, smallBenchmark(['rare'], 2), { version: 'v3', date: DATE })).toMatchObject({ sequence: 2, previous: { version: 'v1' } });
    } finally {
      sleeper.kill('SIGKILL');
    }
    // Without any lock, a head naming a missing record is a deletion: refused.
    rmSync(join(dir, 'locks', 'v2.lock'));
    rmSync(join(dir, 'versions', 'v3.json'));
    expect(() => freezeVersion(dir, smallBenchmark(['x'], 1), { version: 'v4', date: DATE })).toThrow(/head\.json: version: names v3 as the newest version/);
  });
});

describe('archives frozen before the hash chain', () => {
  it('stay readable: verify notes them, rotate builds on them, and the next freeze starts the chain', () => {
    const dir = tempDir();
    const items = smallBenchmark();
    freezeVersion(dir, items, { version: 'old', date: DATE });
    // As benchplan-version/2 wrote it: no sequence, previous or head.json.
    editRecord(dir, 'old', (r) => {
      r.format = 'benchplan-version/2';
      delete r.sequence;
      delete r.previous;
      delete r.recordDigest;
      r.recordDigest = versionRecordDigest(r);
    });
    rmSync(join(dir, 'head.json'));
    expect(verifyArchive(dir)).toMatchObject({ ok: true, head: null, notes: [expect.stringMatching(/^versions\/old\.json: not in the archive's hash chain/)] });
    const plan = prepareRotation(dir, 'old', [item('inc1', 'routine', 'A fresh incident about late payment interest.', { added: '2026Q4' })], { fraction: 0.2 });
    expect(plan.plan.from).toBe('old');
    const next = freezeVersion(dir, items.slice(1), { version: 'new', date: '2026-10-01', parent: { version: 'old', fingerprint: readArchiveVersion(dir, 'old').fingerprint } });
    expect(next).toMatchObject({ sequence: 1, previous: null, parent: { version: 'old', recordDigest: readArchiveVersion(dir, 'old').recordDigest } });
    const r = verifyArchive(dir);
    expect(r).toMatchObject({ ok: true, head: { version: 'new', sequence: 1 } });
    expect(r.notes).toHaveLength(1);
  });
});

describe('rotate and drift build only on intact versions', () => {
  const incidents = [item('inc1', 'routine', 'A fresh incident about late payment interest.', { added: '2026Q4' })];

  it.each([
    ['an edited label', (r: Record<string, any>) => (r.items[0].label = 'absent'), /versions\/v1\.json: fingerprint: its items no longer match its fingerprint/],
    ["an edited item's added", (r: Record<string, any>) => (r.items[0].added = '1999Q1'), /versions\/v1\.json: recordDigest: the record was edited after it was frozen/],
    ['an edited count', (r: Record<string, any>) => (r.counts.eval += 1), /versions\/v1\.json: counts\.eval: counts\.eval is 11/],
  ])('rotate refuses a version with %s (exit 1, naming the file and field)', async (_what, edit, message) => {
    const dir = tempDir();
    freezeVersion(dir, smallBenchmark(), { version: 'v1', date: DATE });
    editRecord(dir, 'v1', edit);
    expect(() => prepareRotation(dir, 'v1', incidents)).toThrow(message);
    const cli = await runCli(['rotate', '--archive', dir, '--from', 'v1', '--incidents', 'examples/incidents.jsonl', '--apply', '--version', 'v2', '--date', '2026-10-01']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(message);
    expect(existsSync(join(dir, 'versions', 'v2.json'))).toBe(false);
  });

  it('rotate refuses a version whose parent was replaced; drift refuses a tampered --from or --to', async () => {
    const { dir } = threeVersions();
    editRecord(dir, 'v1', (r) => {
      r.items[0].added = '1999Q1';
      r.recordDigest = versionRecordDigest(r);
    });
    expect(() => assertVersionSound(dir, readArchiveVersion(dir, 'v2'))).toThrow(/versions\/v1\.json: recordDigest: not the record .*v2\.json recorded in parent\.recordDigest/);
    expect(() => prepareRotation(dir, 'v2', incidents)).toThrow(CheckFailed);
    const drift = await runCli(['drift', '--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv', '--archive', dir, '--from', 'v1', '--to', 'v2']);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toMatch(/versions\/v1\.json: recordDigest: /);
  });
});

describe('nothing in the archive blocks', () => {
  const hasMkfifo = (() => {
    try {
      execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasMkfifo)('a FIFO, a device link or a folder in place of an object is a verify finding; reading it fails at once', () => {
    const { dir, items } = threeVersions();
    const fifo = sha256Hex(items[0].content); // v1 only
    const zero = sha256Hex(items[2].content);
    rmSync(join(dir, 'objects', fifo));
    execFileSync('mkfifo', [join(dir, 'objects', fifo)]);
    rmSync(join(dir, 'objects', zero));
    symlinkSync('/dev/zero', join(dir, 'objects', zero));
    const started = Date.now();
    const problems = verifyArchive(dir).problems;
    expect(problems).toContainEqual({ kind: 'changed', path: `objects/${fifo}`, detail: 'not a regular file (a FIFO; never opened) (item routine-e1 of v1)' });
    expect(problems).toContainEqual({ kind: 'changed', path: `objects/${zero}`, detail: expect.stringMatching(/^a symbolic link \(never followed\)/) });
    expect(() => readArchiveObject(dir, fifo)).toThrow(/is not a regular file/);
    expect(() => readArchiveObject(dir, zero)).toThrow(/is a symbolic link/);
    expect(() => prepareRotation(dir, 'v1', [])).toThrow(CheckFailed);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a folder or a socket in place of an object, and a FIFO in place of a lock, are findings, not hangs', async () => {
    const { dir, items } = threeVersions();
    const folder = sha256Hex(items[0].content);
    const socket = sha256Hex(items[2].content);
    rmSync(join(dir, 'objects', folder));
    mkdirSync(join(dir, 'objects', folder));
    rmSync(join(dir, 'objects', socket));
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir, 'objects', socket), done));
    try {
      const problems = verifyArchive(dir).problems;
      expect(problems).toContainEqual({ kind: 'changed', path: `objects/${folder}`, detail: 'not a regular file (a folder; never opened) (item routine-e1 of v1)' });
      expect(problems).toContainEqual({ kind: 'changed', path: `objects/${socket}`, detail: expect.stringMatching(/^not a regular file \(a socket; never opened\)/) });
      expect(() => readArchiveObject(dir, folder)).toThrow(/is not a regular file/);
      expect(() => readArchiveObject(dir, socket)).toThrow(CheckFailed);
    } finally {
      server.close();
    }
    if (hasMkfifo) {
      execFileSync('mkfifo', [join(dir, 'locks', 'v9.lock')]);
      expect(verifyArchive(dir).problems).toContainEqual({ kind: 'extra', path: 'locks/v9.lock', detail: 'not a regular file' });
      expect(() => freezeVersion(dir, smallBenchmark(['z'], 1), { version: 'v9', date: DATE })).toThrow(/version "v9" is locked by a writer whose lock file does not read/);
    }
  });

  it.skipIf(!hasMkfifo)('a FIFO in place of a record or of head.json is a finding, not a hang', () => {
    const { dir } = threeVersions();
    rmSync(join(dir, 'versions', 'v1.json'));
    execFileSync('mkfifo', [join(dir, 'versions', 'v1.json')]);
    rmSync(join(dir, 'head.json'));
    execFileSync('mkfifo', [join(dir, 'head.json')]);
    const r = verifyArchive(dir);
    expect(r.problems).toContainEqual({ kind: 'extra', path: 'versions/v1.json', detail: 'not a regular file (a FIFO; never opened)' });
    expect(r.problems).toContainEqual({ kind: 'extra', path: 'head.json', detail: 'not part of the archive layout (objects/, versions/, locks/, signoffs/, plans/, head.json)' });
    expect(() => readArchiveVersion(dir, 'v1')).toThrow(/must be a regular file/);
  });
});
