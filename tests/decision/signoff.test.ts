import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckFailed, InputError } from '../../src/data/errors.js';
import { signoff, signoffRecordText, type SignoffInput } from '../../src/decision/signoff.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
import { freezeVersion } from '../../src/rotation/archive.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { smallBenchmark, tempDir } from '../rotation/helpers.js';
import { runCli } from '../helpers/cli.js';

function setUp() {
  const dir = tempDir('benchplan-signoff-');
  const archive = join(dir, 'archive');
  freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
  const scores = join(dir, 'scores.csv');
  writeFileSync(scores, 'item,model,score\na,alpha,1\na,beta,0\nb,alpha,1\nb,beta,1\n');
  const input: SignoffInput = { id: 'pick-1', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha', 'beta'], note: 'read 40 outputs', evidence: [{ role: 'scores', path: scores }] };
  return { dir, archive, scores, input };
}

describe('signoff', () => {
  it('records the reviewer, the date, the choice, the version digest and the evidence digest', () => {
    const { archive, scores, input } = setUp();
    const { record, path } = signoff(archive, input);
    expect(path).toBe(join(archive, 'signoffs', 'pick-1.json'));
    expect(record).toMatchObject({ format: 'benchplan-signoff/1', id: 'pick-1', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha', 'beta'], note: 'read 40 outputs', policyOwner: null, judge: null, labels: null });
    // The evidence digest is the file's plain SHA-256 (what `sha256sum` prints).
    expect(record.evidence).toEqual([{ role: 'scores', path: scores, sha256: createHash('sha256').update(readFileSync(scores)).digest('hex'), bytes: readFileSync(scores).length }]);
    const version = JSON.parse(readFileSync(join(archive, 'versions', 'v1.json'), 'utf8'));
    expect(record.archiveVersion).toEqual({ version: 'v1', recordDigest: version.recordDigest, fingerprint: version.fingerprint });
    expect(readFileSync(path, 'utf8')).toBe(signoffRecordText(record));
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(verifyArchive(archive)).toMatchObject({ ok: true, signoffs: ['pick-1'], evidenceFiles: 1 });
  });

  it('is write-once: a second sign-off of the same id fails and leaves the first as it was', () => {
    const { archive, input } = setUp();
    const first = signoff(archive, input);
    const before = readFileSync(first.path, 'utf8');
    expect(() => signoff(archive, { ...input, chosen: 'beta', note: 'changed my mind' })).toThrow(CheckFailed);
    expect(() => signoff(archive, { ...input, chosen: 'beta' })).toThrow(/already exists; sign-offs are write-once/);
    expect(readFileSync(first.path, 'utf8')).toBe(before);
    // Another id is a new record.
    signoff(archive, { ...input, id: 'pick-2' });
    expect(verifyArchive(archive).signoffs).toEqual(['pick-1', 'pick-2']);
  });

  it('refuses a choice that is not a finalist, a bad date and an empty reviewer', () => {
    const { archive, input } = setUp();
    expect(() => signoff(archive, { ...input, chosen: 'gamma' })).toThrow(new InputError("must be one of the shortlist's finalists (alpha, beta)", { file: '--chosen', value: 'gamma' }).message);
    expect(() => signoff(archive, { ...input, date: '30/11/2026' })).toThrow('--date: must be a date YYYY-MM-DD (got "30/11/2026")');
    expect(() => signoff(archive, { ...input, reviewer: ' ' })).toThrow('--reviewer: name the reviewer');
    expect(() => signoff(archive, { ...input, id: '../x' })).toThrow('--id: must be 1–64 letters');
  });

  it('verify reports a record that was edited', () => {
    const { archive, input } = setUp();
    const { path } = signoff(archive, input);
    chmodSync(path, 0o644);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"chosen": "alpha"', '"chosen": "beta"'));
    const r = verifyArchive(archive);
    expect(r.ok).toBe(false);
    expect(r.problems).toContainEqual(expect.objectContaining({ kind: 'changed', path: 'signoffs/pick-1.json', detail: expect.stringMatching(/^the sign-off was edited after it was written/) }));
  });

  it('verify reports a record edited and re-digested whose version was replaced', () => {
    const { archive, input } = setUp();
    const { path, record } = signoff(archive, input);
    const forged = { ...record, archiveVersion: { ...record.archiveVersion, recordDigest: '0'.repeat(64) } };
    forged.recordDigest = versionRecordDigest(forged);
    chmodSync(path, 0o644);
    writeFileSync(path, signoffRecordText(forged));
    expect(verifyArchive(archive).problems).toContainEqual(expect.objectContaining({ kind: 'changed', path: 'versions/v1.json', detail: expect.stringMatching(/not the one sign-off pick-1 recorded/) }));
  });

  it('verify reports an evidence file that changed since, and notes one that is gone', () => {
    const { archive, scores, input } = setUp();
    signoff(archive, input);
    writeFileSync(scores, 'item,model,score\na,alpha,1\na,beta,1\nb,alpha,1\nb,beta,1\n');
    const changed = verifyArchive(archive);
    expect(changed.ok).toBe(false);
    expect(changed.problems).toEqual([expect.objectContaining({ kind: 'changed', path: scores, detail: expect.stringMatching(/^the scores file of sign-off pick-1 changed since it was signed/) })]);
    rmSync(scores);
    const gone = verifyArchive(archive);
    expect(gone.ok).toBe(true);
    expect(gone.notes).toContainEqual(expect.stringMatching(/^signoffs\/pick-1\.json: the scores file .* is not here/));
  });

  it('verify never follows a link in place of signoffs/', () => {
    const { dir, archive } = setUp();
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'x.json'), '{}');
    symlinkSync(elsewhere, join(archive, 'signoffs'));
    const r = verifyArchive(archive);
    expect(r.problems).toContainEqual(expect.objectContaining({ kind: 'extra', path: 'signoffs' }));
    expect(r.signoffs).toEqual([]);
  });

  it('verify lists a foreign file in signoffs/ as extra', () => {
    const { archive, input } = setUp();
    signoff(archive, input);
    writeFileSync(join(archive, 'signoffs', 'notes.txt'), 'x');
    expect(verifyArchive(archive).problems).toContainEqual({ kind: 'extra', path: 'signoffs/notes.txt', detail: 'not a sign-off record name (<id>.json)' });
  });
});

describe('benchplan signoff', () => {
  it('exits 1 on a second sign-off of an id, 2 on a choice that is not a finalist', async () => {
    const { dir, archive, scores } = setUp();
    const list = join(dir, 'shortlist.json');
    writeFileSync(list, JSON.stringify({ best: 'alpha', finalists: ['alpha'] }));
    const args = ['signoff', '--archive', archive, '--id', 'q4', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list, '--scores', scores, '--policy', 'examples/policy.yaml', '--judge', 'gpt-judge-v2', '--labels', 'unreviewed'];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^signed off: alpha \(of finalists alpha\) by R\. Ahmed on 2026-11-30, on version v1\n/);
    expect(first.stdout).toMatch(/policy owner: Head of Regulatory Risk/);
    expect(first.stdout).toMatch(/judge: gpt-judge-v2\n {2}labels: unreviewed/);
    const bad = await runCli([...args.slice(0, 4), 'q9', ...args.slice(5, -1), 'maybe']);
    expect(bad.stderr).toBe('error: --labels: must be one of reviewed, unreviewed (got "maybe")\n');
    const second = await runCli(args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already exists/);
    const wrong = await runCli([...args.slice(0, 4), 'q5', ...args.slice(5, 10), 'beta', ...args.slice(11)]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('error: --chosen: must be one of the shortlist\'s finalists (alpha) (got "beta")\n');
  });
  it('a shortlist file that is cut short, has a wrong field or is a folder: exit 2 naming the file and line, nothing written', async () => {
    const { dir, archive, scores } = setUp();
    const args = (list: string, id: string) => ['signoff', '--archive', archive, '--id', id, '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', list, '--scores', scores];
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, '{\n  "best": "alpha",\n  "finalists": [\n');
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ best: 'alpha', finalists: 'alpha' }, null, 2));
    const cases: Array<[string, RegExp]> = [
      [cut, /^error: .*cut\.json:4: is not valid JSON \(write it with benchplan shortlist -o FILE\): Unexpected end of JSON input\n$/],
      [wrong, /^error: .*wrong\.json:3: finalists: Invalid input: expected array, received string \(got "alpha"\)\n$/],
      [dir, /^error: .*: not a regular file \(got directory\)\n$/],
    ];
    for (const [list, message] of cases) {
      const r = await runCli(args(list, 'x1'));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(() => statSync(join(archive, 'signoffs', 'x1.json'))).toThrow();
  });
});

describe('the report shows the sign-offs', () => {
  it('lists each sign-off in the archive section', async () => {
    const { archive, input } = setUp();
    signoff(archive, input);
    const { archiveSection } = await import('../../src/report/sections/archive.js');
    const { section } = archiveSection(archive);
    const table = section.tables.find((t) => t.caption === 'Sign-offs');
    expect(table?.rows).toEqual([['pick-1', '2026-11-30', 'R. Ahmed', 'alpha', 'alpha, beta', 'v1', expect.stringMatching(/^[0-9a-f]{12}…$/)]]);
    expect(section.paragraphs).toContainEqual(expect.stringMatching(/^1 decision signed off on this benchmark/));
  });
});
