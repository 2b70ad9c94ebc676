import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from './helpers.js';

const MANIFEST = 'examples/manifest.yaml';
const INCIDENTS = 'examples/incidents.jsonl';
const SCORES = 'examples/rotation/scores-2026Q3.csv';
const DRIFT = ['--before', 'examples/rotation/drift-before.csv', '--rerun', 'examples/rotation/drift-rerun.csv', '--after', 'examples/rotation/drift-after.csv'];

/** An archive with the bundled manifest frozen as 2026Q3 and rotated (with the bundled scores) to 2026Q4. */
async function bundledArchive(): Promise<string> {
  const archive = join(tempDir(), 'archive');
  expect((await runCli(['freeze', MANIFEST, '--archive', archive, '--version', '2026Q3', '--date', '2026-07-01'])).code).toBe(0);
  expect((await runCli(['rotate', '--archive', archive, '--from', '2026Q3', '--incidents', INCIDENTS, '--scores', SCORES, '--apply', '--version', '2026Q4', '--date', '2026-10-01'])).code).toBe(0);
  return archive;
}

describe('benchplan freeze', () => {
  it('prints the fingerprint, the strata and the leakage; JSON has version, fingerprint, items, strata', async () => {
    const archive = join(tempDir(), 'a');
    const r = await runCli(['freeze', MANIFEST, '--archive', archive, '--version', '2026Q3', '--date', '2026-07-01', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({
      version: '2026Q3',
      items: 100,
      date: '2026-07-01',
      guideline: '2026.2',
      strata: [
        { stratum: 'routine', eval: 20, dev: 5 },
        { stratum: 'rare_clause', eval: 20, dev: 5 },
        { stratum: 'past_failure', eval: 20, dev: 5 },
        { stratum: 'negative_control', eval: 20, dev: 5 },
      ],
      leakage: { leakedEvalItems: ['e026', 'e046'] },
    });
    expect(json.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const again = await runCli(['freeze', MANIFEST, '--archive', archive, '--version', '2026Q3']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`${archive}: version "2026Q3" already exists; a frozen version is never overwritten (choose a new --version)\n`);
    const text = await runCli(['freeze', MANIFEST, '--archive', archive, '--version', 'again', '--date', '2026-07-02']);
    expect(text.stdout).toContain(`fingerprint ${json.fingerprint}`);
    expect(text.stdout).toContain('e026 = d086  exact copy (rare_clause)');
    expect(text.stdout).toContain('e046 ≈ d091  near duplicate, Jaccard 0.895 (past_failure)');
    expect(text.stdout).toContain('0 written, 90 already stored');
  });
});

describe('benchplan rotate', () => {
  it('plans without writing, with retire / add / keep / strata in JSON, the same bytes every run', async () => {
    const archive = join(tempDir(), 'a');
    await runCli(['freeze', MANIFEST, '--archive', archive, '--version', '2026Q3', '--date', '2026-07-01']);
    const args = ['rotate', '--archive', archive, '--from', '2026Q3', '--incidents', INCIDENTS, '--json'];
    const r = await runCli(args);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ from: '2026Q3', version: null, fraction: 0.2, seed: '0', target: 16, keep: 64, applied: null, saturation: null });
    // Without scores the leaked items go first, then the oldest.
    expect(plan.retire.slice(0, 2).map((x: { item: string; reason: string }) => `${x.item}:${x.reason}`).sort()).toEqual(['e026:leaked', 'e046:leaked']);
    expect(plan.retire.slice(2).every((x: { reason: string }) => x.reason === 'oldest')).toBe(true);
    expect(plan.strata.map((s: { before: number; after: number }) => s.before === s.after)).toEqual([true, true, true, true]);
    expect(plan.skipped).toEqual([{ item: 'i027', stratum: 'negative_control', reason: 'copies dev item d097 (would arrive leaked)' }]);
    expect((await runCli(args)).stdout).toBe(r.stdout);
    expect((await runCli(['verify', '--archive', archive])).stdout).toMatch(/1 version \(2026Q3\)/);
  });

  it('with --scores retires saturated items first and warns about saturated strata; --apply freezes the new version', async () => {
    const archive = await bundledArchive();
    const diff = await runCli(['diff', '--archive', archive, '2026Q3', '2026Q4', '--json']);
    const d = JSON.parse(diff.stdout);
    expect(d.strata[0]).toEqual({ stratum: 'routine', before: 25, after: 25, evalBefore: 20, evalAfter: 20, added: 4, retired: 4, changed: 0 }); // diffVersions' JSDoc example
    expect(d.added).toHaveLength(15);
    expect(d.retired).toHaveLength(15);
    expect(d.changed).toEqual([]);
    const text = await runCli(['diff', '--archive', archive, '2026Q3', '2026Q4']);
    expect(text.stdout).toMatch(/^2026Q3 → 2026Q4: 15 added, 15 retired, 0 changed, 85 unchanged/);
    // The plan, again (the incidents are now used by 2026Q4, so re-plan on a fresh archive).
    const fresh = join(tempDir(), 'b');
    await runCli(['freeze', MANIFEST, '--archive', fresh, '--version', '2026Q3', '--date', '2026-07-01']);
    const json = JSON.parse((await runCli(['rotate', '--archive', fresh, '--from', '2026Q3', '--incidents', INCIDENTS, '--scores', SCORES, '--json'])).stdout);
    // planRotation's and measureSaturation's JSDoc examples.
    expect(json.strata[0]).toEqual({ stratum: 'routine', before: 20, after: 20, retired: 4, added: 4, shortBy: 0 });
    expect(json.saturation.strata[0]).toEqual({ stratum: 'routine', items: 20, scored: 20, saturated: 20, share: 1, warning: true });
    const r = await runCli(['rotate', '--archive', fresh, '--from', '2026Q3', '--incidents', INCIDENTS, '--scores', SCORES]);
    expect(r.stdout).toContain('warning: stratum "routine" is saturated: every candidate passes 20 of 20 items (100.0% > 80%)');
    expect(r.stdout).toContain('warning: the incidents log runs short in stratum "negative_control": 4 usable incidents for 5 retirements; 1 item due to retire is kept');
    expect(r.stdout).toMatch(/retire \(in priority order: saturated, leaked into dev, oldest\)\n( {2}e\d+ +\w+ +saturated\n){15}/);
  });

  it('dates the saturation with --history', async () => {
    const archive = await bundledArchive();
    const dir = tempDir();
    // 2026Q4's candidates pass everything they passed on the kept items and every new item: the share rises.
    const q4 = JSON.parse((await runCli(['diff', '--archive', archive, '2026Q3', '2026Q4', '--json'])).stdout) as { added: Array<{ item: string }> };
    const rows = readFileSync(SCORES, 'utf8').trim().split('\n');
    const retired = new Set((JSON.parse((await runCli(['diff', '--archive', archive, '2026Q3', '2026Q4', '--json'])).stdout) as { retired: Array<{ item: string }> }).retired.map((x) => x.item));
    const kept = rows.slice(1).filter((line) => !retired.has(line.split(',')[0]));
    const added = q4.added.flatMap((x) => [`${x.item},alpha,s,1`, `${x.item},beta,s,1`]);
    writeFileSync(join(dir, 'q4.csv'), [rows[0], ...kept.map((l) => l.replace(/,0$/, ',1')), ...added].join('\n') + '\n');
    const incidents = join(dir, 'more.jsonl');
    writeFileSync(incidents, '{"item":"j1","stratum":"routine","text":"A fresh routine clause about payment terms and late interest."}\n');
    const r = await runCli(['rotate', '--archive', archive, '--from', '2026Q4', '--incidents', incidents, '--scores', join(dir, 'q4.csv'), '--history', `2026Q3=${SCORES}`, '--json']);
    expect(r.code).toBe(0);
    const trend = JSON.parse(r.stdout).trend;
    expect(trend.versions.map((v: { version: string }) => v.version)).toEqual(['2026Q3', '2026Q4']);
    expect(trend.overall.status).toBe('saturated');
  });
});

describe('rotate: every output checked before anything is written', () => {
  it('a --chart that cannot be written fails before the freeze, and a re-run with a good one works', async () => {
    const dir = tempDir();
    const archive = join(dir, 'archive');
    expect((await runCli(['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--date', '2026-07-01'])).code).toBe(0);
    writeFileSync(join(dir, 'BAD'), 'a file, not a folder');
    const args = ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--apply', '--version', 'v2', '--date', '2026-10-01'];
    const bad = await runCli([...args, '--chart', join(dir, 'BAD', 'plan.svg')]);
    expect(bad.stderr).toMatch(/^error: --chart: cannot write there: (ENOTDIR|EEXIST) \(got ".*BAD\/plan\.svg"\)\n$/);
    expect(bad.code).toBe(2);
    // Before: v2 was frozen, then the chart failed, and this re-run said "version v2 already exists".
    expect(readdirSync(join(archive, 'versions'))).toEqual(['v1.json']);
    const good = await runCli([...args, '--chart', join(dir, 'charts', 'plan.svg')]);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(readFileSync(join(dir, 'charts', 'plan.svg'), 'utf8')).toMatch(/^<svg/);
    expect(readdirSync(join(dir, 'charts'))).toEqual(['plan.svg']); // no temporary file left
    expect(readdirSync(join(archive, 'versions'))).toEqual(['v1.json', 'v2.json']);
  });

  it('a failed freeze leaves no chart (the chart waits in a temporary file until the freeze succeeds)', async () => {
    const dir = tempDir();
    const archive = join(dir, 'archive');
    expect((await runCli(['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--date', '2026-07-01'])).code).toBe(0);
    const r = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--apply', '--version', 'v1', '--chart', join(dir, 'c', 'plan.png')]);
    expect(r.stderr).toContain('version "v1" already exists');
    expect(r.code).toBe(1);
    expect(readdirSync(join(dir, 'c'))).toEqual([]);
  });
});

describe('rotate: scores in points with the default pass threshold', () => {
  /** The bundled candidates' scores rescaled to points: a pass becomes 95, a fail 40. */
  function pointsFile(): string {
    const rows = readFileSync(SCORES, 'utf8').trim().split('\n');
    const path = join(tempDir(), 'points.csv');
    writeFileSync(path, [rows[0], ...rows.slice(1).map((l) => l.replace(/,1$/, ',95').replace(/,0$/, ',40'))].join('\n') + '\n');
    return path;
  }

  it('warns (before: every scored item silently counted as saturated), refuses to --apply, and is quiet with --pass', async () => {
    const archive = join(tempDir(), 'a');
    await runCli(['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--date', '2026-07-01']);
    const points = pointsFile();
    const plan = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', points, '--json']);
    expect(plan.code).toBe(0);
    const s = JSON.parse(plan.stdout).saturation;
    expect(s).toMatchObject({ pass: 1, passIsDefault: true, maxScore: 95 });
    expect(s.warnings[0]).toMatch(/^scores go up to 95, but the pass threshold is the default 1 .*give the threshold \(--pass, e\.g\. 90 for points\)$/);
    const text = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', points]);
    expect(text.stdout).toContain('warning: scores go up to 95, but the pass threshold is the default 1');

    const apply = await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', points, '--apply', '--version', 'v2']);
    expect(apply.stderr).toMatch(/^error: .*points\.csv: scores go up to 95, so the default pass threshold 1 would retire nearly every item as saturated: give --pass/);
    expect(apply.code).toBe(2);
    expect(readdirSync(join(archive, 'versions'))).toEqual(['v1.json']);

    // With --pass 90 the points file gives the same saturation as the 0/1 file.
    const withPass = JSON.parse((await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', points, '--pass', '90', '--json'])).stdout).saturation;
    const binary = JSON.parse((await runCli(['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', SCORES, '--json'])).stdout).saturation;
    expect(withPass.saturatedItems).toEqual(binary.saturatedItems);
    expect(withPass.warnings.some((w: string) => w.startsWith('scores go up to'))).toBe(false);
    expect(binary).toMatchObject({ pass: 1, passIsDefault: true, maxScore: 1 });
    expect(binary.warnings.some((w: string) => w.startsWith('scores go up to'))).toBe(false);
  });
});

describe('validate --kind manifest checks what freeze checks', () => {
  it('refuses a missing, non-regular or oversized item file, as freeze does; counts the files it checked', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.txt'), 'An item in a file.');
    writeFileSync(join(dir, 'docs', 'big.bin'), '');
    truncateSync(join(dir, 'docs', 'big.bin'), 64 * 1024 * 1024 + 1); // sparse: MAX_ITEM_BYTES + 1
    const manifest = (path: string) => {
      const file = join(dir, 'manifest.yaml');
      writeFileSync(file, `items:\n  - { item: a, stratum: s, split: eval, path: docs/a.txt }\n  - { item: b, stratum: s, split: eval, path: ${path} }\n`);
      return file;
    };
    for (const [path, piece] of [
      ['missing.txt', `manifest.yaml:3: path: cannot read the item's file: ENOENT (got "missing.txt")`],
      ['docs', 'manifest.yaml:3: path must name a regular file ("docs" is a directory)'],
      ['docs/big.bin', `manifest.yaml:3: path: the item's file is larger than ${64 * 1024 * 1024} bytes (got "docs/big.bin")`],
    ] as const) {
      const file = manifest(path);
      const validate = await runCli(['validate', file, '--kind', 'manifest']);
      const freeze = await runCli(['freeze', file, '--archive', join(dir, 'archive'), '--version', 'v1']);
      expect(validate.stderr).toContain(piece);
      expect(validate.code).toBe(2);
      expect(freeze.stderr).toBe(validate.stderr);
      expect(freeze.code).toBe(2);
    }
    const ok = await runCli(['validate', manifest('docs/a.txt'), '--kind', 'manifest', '--json']);
    expect(ok.code).toBe(0);
    // Both entries name a file (the same one, 18 bytes).
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true, items: 2, files: 2, contentBytes: 36 });
    expect(existsSync(join(dir, 'archive'))).toBe(false);
  });
});

describe('benchplan drift', () => {
  it('on the bundled example: the test got harder, the system held steady', async () => {
    const archive = await bundledArchive();
    const r = await runCli(['drift', ...DRIFT, '--archive', archive, '--from', '2026Q3', '--to', '2026Q4', '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ previousVersion: '2026Q3', currentVersion: '2026Q4', method: 'bca', confidenceLevel: 0.95, nResamples: 9999, seed: '0', models: { before: 'prod-2026Q3', rerun: 'prod-2026Q4', after: 'prod-2026Q4' } });
    expect(d.verdict).toMatchObject({ system: 'steady', test: 'harder' });
    // attributeDrift's JSDoc example.
    expect(d.verdict.text).toBe("the test got harder: −0.0625 [−0.1, −0.025] on the rotated version; the system held steady (−0.0125 [−0.0625, 0] on 2026Q3's 80 items)");
    expect(JSON.parse((await runCli(['verify', '--archive', archive, '--json'])).stdout)).toMatchObject({ ok: true, versions: ['2026Q3', '2026Q4'], items: 200, objects: 101 }); // verifyArchive's
    expect(d.total).toBeCloseTo(d.model.estimate + d.instrument.estimate, 12);
    expect(d.strata.map((s: { stratum: string }) => s.stratum)).toEqual(['routine', 'rare_clause', 'past_failure', 'negative_control']);
    expect((await runCli(['drift', ...DRIFT, '--archive', archive, '--from', '2026Q3', '--to', '2026Q4', '--json'])).stdout).toBe(r.stdout);
    const text = await runCli(['drift', ...DRIFT, '--resamples', '999']);
    expect(text.stdout).toMatch(/^verdict: the test got harder: /);
    expect(text.stdout).toContain('model drift (re-run − before, paired on previous version\'s 80 items)');
  });
});

describe('bad input: exit 2 with file, flag and value', () => {
  // One folder for the whole table (tempDir's folders go after each test).
  const dir = mkdtempSync(join(tmpdir(), 'benchplan-rotation-bad-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const archive = join(dir, 'archive');
  writeFileSync(join(dir, 'file'), 'not a folder');
  writeFileSync(join(dir, 'two-models.csv'), 'item,model,score\ne001,a,1\ne001,b,0\n');
  writeFileSync(join(dir, 'outside.yaml'), 'items:\n  - { item: x, stratum: s, split: eval, path: ../../etc/passwd }\n');
  writeFileSync(join(dir, 'bad-incidents.jsonl'), '{"item":"i1","stratum":"s","split":"holdout","text":"x"}\n');
  const cases: Array<[string, string[], string]> = [
    ['traversal version id', ['freeze', MANIFEST, '--archive', archive, '--version', '../evil'], 'error: --version: must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit, without ".." (got "../evil")'],
    ['slash in version id', ['freeze', MANIFEST, '--archive', archive, '--version', 'a/b'], '--version: must be 1–64 letters'],
    ['dot-dot inside an id', ['freeze', MANIFEST, '--archive', archive, '--version', 'v1..2'], '(got "v1..2")'],
    ['hidden id', ['freeze', MANIFEST, '--archive', archive, '--version', '.v1'], '(got ".v1")'],
    ['no archive flag', ['freeze', MANIFEST, '--version', 'v1'], "required option '--archive <dir>' not specified"],
    ['bad date', ['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--date', '2026-02-30'], 'error: --date: must be a date YYYY-MM-DD (got "2026-02-30")'],
    ['bad threshold', ['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--near-duplicate', '0'], 'error: --near-duplicate: must be a number > 0 and ≤ 1 (got "0")'],
    ['guideline conflict', ['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--guideline', '2027.1'], 'error: --guideline: differs from the manifest\'s guideline "2026.2" (got "2027.1")'],
    ['missing manifest', ['freeze', join(dir, 'nope.yaml'), '--archive', archive, '--version', 'v1'], 'nope.yaml: cannot read file: ENOENT'],
    ['content path outside the folder', ['freeze', join(dir, 'outside.yaml'), '--archive', archive, '--version', 'v1'], "outside.yaml:2: path must be a file inside the manifest's folder (got \"../../etc/passwd\")"],
    ['archive is a file', ['freeze', MANIFEST, '--archive', join(dir, 'file'), '--version', 'v1'], 'file: the archive must be a folder'],
    ['verify: no archive', ['verify', '--archive', join(dir, 'none')], 'none: no archive here (the folder does not exist)'],
    ['verify: traversal id', ['verify', '--archive', archive, '--version', '..'], '--version: must be 1–64 letters'],
    ['rotate: traversal id', ['rotate', '--archive', archive, '--from', '../../x', '--incidents', INCIDENTS], 'error: --from: must be 1–64 letters'],
    ['rotate: unknown version', ['rotate', '--archive', archive, '--from', 'v9', '--incidents', INCIDENTS], 'error: --from: version "v9" is not in the archive'],
    ['rotate: fraction', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--fraction', '1.5'], 'error: --fraction: must be a number ≥ 0 and ≤ 1 (got "1.5")'],
    ['rotate: --apply without --version', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--apply'], 'error: --apply: --apply needs --version NEW'],
    ['rotate: --version without --apply', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--version', 'v2'], 'error: --version: is only used with --apply (without it rotate only plans) (got "v2")'],
    ['rotate: new id checked', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--apply', '--version', 'x/y'], '--version: must be 1–64 letters'],
    ['rotate: history format', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', SCORES, '--history', 'v0'], 'error: --history: must be VERSION=SCORES_FILE (got "v0")'],
    ['rotate: models without scores', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--models', 'alpha'], 'error: --models: needs --scores'],
    ['rotate: unknown model', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--scores', SCORES, '--models', 'zeta'], 'model "zeta" is not in the scores (models: alpha, beta)'],
    ['rotate: bad pass', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--pass', 'high'], 'error: --pass: must be a number (got "high")'],
    ['rotate: bad incidents', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', join(dir, 'bad-incidents.jsonl')], 'bad-incidents.jsonl:1: split:'],
    ['drift: missing --after', ['drift', '--before', SCORES, '--rerun', SCORES], "required option '--after <file>' not specified"],
    ['drift: method', [...['drift', ...DRIFT], '--method', 't'], 'error: --method: must be one of bca, percentile, basic (got "t")'],
    ['drift: confidence', [...['drift', ...DRIFT], '--confidence', '1'], 'error: --confidence: must be a number > 0 and < 1 (got "1")'],
    ['drift: resamples', [...['drift', ...DRIFT], '--resamples', '0'], 'error: --resamples: must be a whole number ≥ 1 (got "0")'],
    ['drift: archive without versions', [...['drift', ...DRIFT], '--archive', archive], 'error: --from: --archive, --from and --to go together'],
    ['drift: two models, none named', ['drift', '--before', join(dir, 'two-models.csv'), '--rerun', join(dir, 'two-models.csv'), '--after', join(dir, 'two-models.csv')], 'two-models.csv: holds 2 models (a, b); name the system with --model'],
    ['drift: unknown model', [...['drift', ...DRIFT], '--model', 'nobody'], 'model "nobody" is not in the scores (models: prod-2026Q4)'],
    ['diff: traversal id', ['diff', '--archive', archive, '../v1', 'v1'], 'error: A: must be 1–64 letters'],
    ['diff: unknown version', ['diff', '--archive', archive, 'v1', 'v9'], 'error: B: version "v9" is not in the archive'],
    // A file where a folder should be: before, each of these ended in a stack trace (exit 70).
    ['freeze: archive below a file', ['freeze', MANIFEST, '--archive', join(dir, 'file', 'arch'), '--version', 'v1'], `error: ${join(dir, 'file', 'arch')}: cannot read: ENOTDIR`],
    ['verify: archive below a file', ['verify', '--archive', join(dir, 'file', 'arch')], `error: ${join(dir, 'file', 'arch')}: cannot read: ENOTDIR`],
    ['diff: archive below a file', ['diff', '--archive', join(dir, 'file', 'arch'), 'v1', 'v2'], `error: ${join(dir, 'file', 'arch')}: cannot read: ENOTDIR`],
    ['rotate: archive below a file', ['rotate', '--archive', join(dir, 'file', 'arch'), '--from', 'v1', '--incidents', INCIDENTS], `error: ${join(dir, 'file', 'arch')}: cannot read: ENOTDIR`],
    ['drift: archive below a file', [...['drift', ...DRIFT], '--archive', join(dir, 'file', 'arch'), '--from', 'v1', '--to', 'v1'], `error: ${join(dir, 'file', 'arch')}: cannot read: ENOTDIR`],
    ['rotate: --pass without --scores', ['rotate', '--archive', archive, '--from', 'v1', '--incidents', INCIDENTS, '--pass', '90'], 'error: --pass: needs --scores'],
  ];

  beforeAll(async () => {
    // An archive with v1 for the cases that need one.
    expect((await runCli(['freeze', MANIFEST, '--archive', archive, '--version', 'v1', '--date', '2026-07-01'])).code).toBe(0);
  });

  it.each(cases)('%s', async (_name, args, piece) => {
    const r = await runCli(args);
    expect(r.stderr).toContain(piece);
    expect(r.code).toBe(2);
  });
});
