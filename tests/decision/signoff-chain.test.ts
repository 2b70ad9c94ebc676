import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckFailed } from '../../src/data/errors.js';
import { buildSignoffRecord, signoff, signoffRecordText, type SignoffInput, type SignoffRecord } from '../../src/decision/signoff.js';
import { readSignoffHead } from '../../src/rotation/signoff-head.js';
import { freezeVersion } from '../../src/rotation/archive.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { runCli } from '../helpers/cli.js';
import { smallBenchmark, tempDir } from '../rotation/helpers.js';

const BIN = resolve('bin/benchplan.js');

function setUp() {
  const dir = tempDir('benchplan-signchain-');
  const archive = join(dir, 'archive');
  freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
  const input: SignoffInput = { id: 'pick-1', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha', 'beta'], note: '', evidence: [] };
  return { dir, archive, input };
}

/** Three sign-offs in order; returns their records. */
function series(archive: string, input: SignoffInput): SignoffRecord[] {
  return ['pick-1', 'pick-2', 'pick-3'].map((id) => signoff(archive, { ...input, id }).record);
}

/** Overwrites a stored sign-off with `record`, its digest recomputed (a careful forger's edit). */
function rewrite(archive: string, record: Omit<SignoffRecord, 'recordDigest'> & { recordDigest?: string }): SignoffRecord {
  const { recordDigest: _old, ...body } = record;
  const forged = { ...body, recordDigest: versionRecordDigest(body) } as SignoffRecord;
  const path = join(archive, 'signoffs', `${forged.id}.json`);
  if (existsSync(path)) chmodSync(path, 0o644);
  writeFileSync(path, signoffRecordText(forged));
  return forged;
}

async function verifyCode(archive: string): Promise<{ code: number; stdout: string }> {
  const r = await runCli(['verify', '--archive', archive]);
  return { code: r.code, stdout: r.stdout };
}

describe('the sign-off chain', () => {
  it('links each sign-off to the one before; a clean series of three verifies (exit 0)', async () => {
    const { archive, input } = setUp();
    const [a, b, c] = series(archive, input);
    expect([a.sequence, a.previous]).toEqual([1, null]);
    expect([b.sequence, b.previous]).toEqual([2, { id: 'pick-1', recordDigest: a.recordDigest }]);
    expect([c.sequence, c.previous]).toEqual([3, { id: 'pick-2', recordDigest: b.recordDigest }]);
    // Each record's digest covers its link: recomputed by hand from the stored JSON.
    for (const r of [a, b, c]) {
      const stored = JSON.parse(readFileSync(join(archive, 'signoffs', `${r.id}.json`), 'utf8'));
      const { recordDigest, ...body } = stored;
      expect(versionRecordDigest(body)).toBe(recordDigest);
    }
    expect(readSignoffHead(archive)).toEqual({ head: { format: 'benchplan-signoff-head/1', id: 'pick-3', recordDigest: c.recordDigest, sequence: 3, previous: { id: 'pick-2', recordDigest: b.recordDigest } } });
    const v = verifyArchive(archive);
    expect(v).toMatchObject({ ok: true, signoffs: ['pick-1', 'pick-2', 'pick-3'], signoffHead: { id: 'pick-3', sequence: 3, recordDigest: c.recordDigest } });
    expect(v.notes).toEqual([]);
    const cli = await verifyCode(archive);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(`sign-off chain head: pick-3 (sequence 3, record digest ${c.recordDigest})`);
  });

  it('a deleted sign-off is a finding naming the file (exit 1), in the middle or the newest, and the next sign-off refuses', async () => {
    const { archive, input } = setUp();
    series(archive, input);
    rmSync(join(archive, 'signoffs', 'pick-2.json'));
    const middle = verifyArchive(archive);
    expect(middle.ok).toBe(false);
    expect(middle.problems).toContainEqual({ kind: 'missing', path: 'signoffs/pick-2.json', detail: 'signoffs/pick-3.json names it as the sign-off before (sequence 2): deleted?' });
    expect((await verifyCode(archive)).code).toBe(1);

    const second = setUp();
    series(second.archive, second.input);
    rmSync(join(second.archive, 'signoffs', 'pick-3.json'));
    expect(verifyArchive(second.archive).problems).toContainEqual({ kind: 'missing', path: 'signoffs/pick-3.json', detail: 'signoffs/head.json names it as the sign-off before (sequence 3): deleted?' });
    expect((await verifyCode(second.archive)).code).toBe(1);
    expect(() => signoff(second.archive, { ...second.input, id: 'pick-4' })).toThrow(CheckFailed);
    expect(() => signoff(second.archive, { ...second.input, id: 'pick-4' })).toThrow(/pick-3\.json: .*names it as the newest sign-off, but it is missing/);
  });

  it('a sign-off replaced by one with a fresh, self-consistent digest is a finding (exit 1)', async () => {
    const { archive, input } = setUp();
    const [, b] = series(archive, input);
    rewrite(archive, { ...b, chosen: 'beta' });
    const r = verifyArchive(archive);
    expect(r.problems).toEqual([{ kind: 'changed', path: 'signoffs/pick-2.json', detail: expect.stringMatching(/^not the sign-off the chain holds: signoffs\/pick-3\.json links it with record digest/) }]);
    expect((await verifyCode(archive)).code).toBe(1);
  });

  it('a re-ordered series (pick-2 made first, pick-1 second, each re-digested) is a finding (exit 1)', async () => {
    const { archive, input } = setUp();
    const [a, b] = series(archive, input);
    const b2 = rewrite(archive, { ...b, sequence: 1, previous: null });
    rewrite(archive, { ...a, sequence: 2, previous: { id: 'pick-2', recordDigest: b2.recordDigest } });
    const r = verifyArchive(archive);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.path)).toContain('signoffs/pick-2.json');
    expect(r.problems).toContainEqual(expect.objectContaining({ path: 'signoffs/pick-1.json', detail: expect.stringMatching(/^not in the sign-off chain/) }));
    expect((await verifyCode(archive)).code).toBe(1);
  });

  it('a sign-off file not in the chain, and a deleted head, are findings', async () => {
    const { archive, input } = setUp();
    const [, , c] = series(archive, input);
    rewrite(archive, { ...c, id: 'pick-x' });
    expect(verifyArchive(archive).problems).toEqual([expect.objectContaining({ kind: 'changed', path: 'signoffs/pick-x.json', detail: expect.stringMatching(/^not in the sign-off chain: neither signoffs\/head\.json nor a later sign-off leads to it \(sequence 3\)/) })]);
    rmSync(join(archive, 'signoffs', 'pick-x.json'));
    rmSync(join(archive, 'signoffs', 'head.json'));
    expect(verifyArchive(archive).problems).toContainEqual({ kind: 'missing', path: 'signoffs/head.json', detail: 'names the newest sign-off of the sign-off chain (3 chained sign-offs)' });
    expect((await verifyCode(archive)).code).toBe(1);
  });

  it('a sign-off written before the chain (no previous field) still reads, with a note, and the chain starts after it', () => {
    const { archive, input } = setUp();
    const legacy = buildSignoffRecord(archive, { ...input, id: 'old-pick' });
    expect(legacy.previous).toBeUndefined();
    signoff(archive, input); // creates signoffs/
    writeFileSync(join(archive, 'signoffs', 'old-pick.json'), signoffRecordText(legacy));
    const r = verifyArchive(archive);
    expect(r.ok).toBe(true);
    expect(r.signoffs).toEqual(['old-pick', 'pick-1']);
    expect(r.notes).toContainEqual(expect.stringMatching(/^signoffs\/old-pick\.json: written before sign-offs were chained/));
  });

  it('refuses the id "head" (the chain head file)', () => {
    const { archive, input } = setUp();
    expect(() => signoff(archive, { ...input, id: 'head' })).toThrow(/--id: "head" is reserved/);
  });
});

describe('concurrent sign-offs', () => {
  const built = existsSync(resolve('dist/cli/main.js'));
  it.skipIf(!built)('3 processes signing off different ids at once are all recorded, the chain intact', async () => {
    const { dir, archive } = setUp();
    const list = join(dir, 'shortlist.json');
    writeFileSync(list, JSON.stringify({ best: 'alpha', finalists: ['alpha'] }));
    const ids = ['c-1', 'c-2', 'c-3'];
    const codes = await Promise.all(
      ids.map(
        (id) =>
          new Promise<number | null>((done) => {
            const child = spawn(process.execPath, [BIN, 'signoff', '--archive', archive, '--id', id, '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list], { stdio: 'ignore' });
            child.on('close', (code) => done(code));
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    const r = verifyArchive(archive);
    expect(r.ok).toBe(true);
    expect(r.signoffs).toEqual(ids);
    expect(r.signoffHead?.sequence).toBe(3);
    const stored = ids.map((id) => JSON.parse(readFileSync(join(archive, 'signoffs', `${id}.json`), 'utf8')) as SignoffRecord);
    expect(stored.map((s) => s.sequence).sort()).toEqual([1, 2, 3]);
    expect(existsSync(join(archive, 'locks', '.signoffs.lock'))).toBe(false);
  }, 60_000);
});
