import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPlan, enforcePlan, parsePlanText, planDepartures, planRecordText } from '../../src/decision/plan.js';
import { versionRecordDigest } from '../../src/rotation/record-digest.js';
import { freezeVersion } from '../../src/rotation/archive.js';
import { verifyArchive } from '../../src/rotation/verify.js';
import { runCli } from '../helpers/cli.js';
import { smallBenchmark, tempDir } from '../rotation/helpers.js';

const SCORES = 'examples/scores.csv';
const STRATA = 'examples/strata.yaml';

/** An archive with one frozen version and a plan `q4` frozen in it (and copied to plan.json). */
async function planned(extra: string[] = []) {
  const dir = tempDir('benchplan-plan-');
  const archive = join(dir, 'archive');
  freezeVersion(archive, smallBenchmark(), { version: 'v1', date: '2026-07-01' });
  const planFile = join(dir, 'plan.json');
  const made = await runCli([
    'plan', '--archive', archive, '--id', 'q4', '--date', '2026-10-01', '--author', 'R. Ahmed',
    '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--confidence', '0.95', '--seed', '7',
    '--strata', STRATA, '--stopping', 'fixed', '--items', '400', '-o', planFile, ...extra,
  ]);
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  return { dir, archive, planFile };
}

describe('buildPlan and planDepartures (pure)', () => {
  it('fixes only what it is given, carries the decision rule and a digest of its canonical JSON', () => {
    const plan = buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02 });
    expect(plan).toMatchObject({ format: 'benchplan-plan/1', margin: 0.02, mde: null, baseline: null, decision: { verdicts: ['pass', 'fail', 'inconclusive'], inconclusive: 'inconclusive' } });
    expect(plan.recordDigest).toBe(versionRecordDigest(plan));
    // Round trip through the stored text.
    expect(parsePlanText(planRecordText(plan), 'plan.json')).toEqual(plan);
  });

  it('lists a departure for each fixed field used with another value, and none for free fields', () => {
    const plan = buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02, models: ['a', 'b'], inconclusive: 'fail' });
    expect(planDepartures(plan, { margin: 0.05 })).toEqual([{ field: 'margin', plan: 0.02, used: 0.05 }]);
    expect(planDepartures(plan, { margin: 0.02, mde: 0.1, models: ['b', 'a'] })).toEqual([]);
    expect(planDepartures(plan, { inconclusive: 'pass' })).toEqual([{ field: 'inconclusive', plan: 'fail', used: 'pass' }]);
  });

  it('refuses departures without a reason, naming the field and both values; keeps them with one', () => {
    const d = [{ field: 'margin' as const, plan: 0.02, used: 0.05 }];
    expect(() => enforcePlan(d, 'plan.json', undefined)).toThrow('plan.json: margin is 0.02 in the plan, 0.05 on the command line');
    expect(enforcePlan(d, 'plan.json', 'pilot showed 0.02 is too tight')).toEqual([{ ...d[0], reason: 'pilot showed 0.02 is too tight' }]);
    expect(() => enforcePlan(d, 'plan.json', '  ')).toThrow('--deviate: give the reason');
  });

  it('refuses a plan out of its domain', () => {
    expect(() => buildPlan({ id: 'q4', date: '2026-11-30', margin: -1 })).toThrow(/margin/);
    expect(() => buildPlan({ id: 'q4', date: '2026-11-30', confidenceLevel: 1.5 })).toThrow(/confidenceLevel/);
    expect(() => buildPlan({ id: '../x', date: '2026-11-30' })).toThrow(/id/);
  });
});

describe('benchplan plan → gate / rank / shortlist / signoff → verify', () => {
  it('round trip: frozen write-once, verified, followed, a departure refused (exit 2), a --deviate recorded in the sign-off', async () => {
    const { dir, archive, planFile } = await planned();
    const stored = readFileSync(join(archive, 'plans', 'q4.json'), 'utf8');
    expect(readFileSync(planFile, 'utf8')).toBe(stored);
    const plan = JSON.parse(stored);
    expect(plan).toMatchObject({ id: 'q4', baseline: 'beta', candidate: 'alpha', margin: 0.02, seed: '7', stopping: { rule: 'fixed', items: 400 }, strata: { source: STRATA, names: ['routine', 'rare_clause', 'past_failure', 'negative_control'] } });

    // Write-once: a second plan of the id fails (exit 1) and leaves the first.
    const again = await runCli(['plan', '--archive', archive, '--id', 'q4', '--date', '2026-10-02', '--margin', '0.05']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; plans are write-once/);
    expect(readFileSync(join(archive, 'plans', 'q4.json'), 'utf8')).toBe(stored);

    const verified = await runCli(['verify', '--archive', archive, '--json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, plans: ['q4'] });

    // Following the plan: the flags it fixes may be left out (gate's --margin too) and take its values.
    const followed = await runCli(['gate', SCORES, '--plan', planFile, '--json']);
    expect(followed.stderr).not.toMatch(/error/);
    const gate = JSON.parse(followed.stdout);
    expect(gate).toMatchObject({ baseline: 'beta', candidate: 'alpha', margin: 0.02, seed: '7', plan: { id: 'q4', recordDigest: plan.recordDigest, source: planFile }, deviations: [] });
    // The same numbers as the gate run with the plan's values spelled out.
    const spelled = await runCli(['gate', SCORES, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--seed', '7', '--json']);
    const { plan: _p, deviations: _d, ...rest } = gate;
    expect(rest).toEqual(JSON.parse(spelled.stdout));

    // A departure is refused with exit 2, naming the plan file, the field and both values; nothing printed on stdout.
    const refused = await runCli(['gate', SCORES, '--plan', planFile, '--margin', '0.05']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`error: ${planFile}: margin is 0.02 in the plan, 0.05 on the command line (--margin)`);
    // The archive reference reads the same plan.
    const byRef = await runCli(['gate', SCORES, '--plan', `${archive}#q4`, '--baseline', 'gamma']);
    expect(byRef.code).toBe(2);
    expect(byRef.stderr).toContain('baseline is beta in the plan, gamma on the command line (--baseline)');

    // With --deviate the departure is printed on stderr and recorded in the JSON.
    const deviated = await runCli(['shortlist', SCORES, '--plan', planFile, '--margin', '0.05', '--deviate', 'the pilot showed 2 points is below annotation noise', '-o', join(dir, 'shortlist.json'), '--json']);
    expect(deviated.code).toBe(0);
    expect(deviated.stderr).toContain('deviation from plan q4: margin is 0.02 in the plan, 0.05 used (--margin): the pilot showed 2 points is below annotation noise');
    const list = JSON.parse(deviated.stdout);
    expect(list.deviations).toEqual([{ field: 'margin', plan: 0.02, used: 0.05, reason: 'the pilot showed 2 points is below annotation noise' }]);
    expect(list.strata).toBe(STRATA); // the plan's strata file, taken when --strata is left out

    // The sign-off under the plan records it and the shortlist's deviation; verify checks both.
    const signed = await runCli(['signoff', '--archive', archive, '--id', 'pick', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', list.finalists[0], '--shortlist', join(dir, 'shortlist.json'), '--plan', planFile, '--json']);
    expect(signed.stderr).toBe('');
    expect(signed.code).toBe(0);
    const record = JSON.parse(readFileSync(join(archive, 'signoffs', 'pick.json'), 'utf8'));
    expect(record.plan).toEqual({ id: 'q4', recordDigest: plan.recordDigest });
    expect(record.deviations).toEqual(list.deviations);
    expect(record.evidence.map((e: { role: string }) => e.role)).toEqual(['strata', 'shortlist']);
    expect(JSON.parse((await runCli(['verify', '--archive', archive, '--json'])).stdout)).toMatchObject({ ok: true, plans: ['q4'], signoffs: ['pick'] });
  });

  it('a sign-off of a shortlist that departed from the plan without --deviate is refused', async () => {
    const { dir, archive, planFile } = await planned();
    const out = join(dir, 'shortlist.json');
    expect((await runCli(['shortlist', SCORES, '--margin', '0.05', '--strata', STRATA, '-o', out])).code).toBe(0);
    const r = await runCli(['signoff', '--archive', archive, '--id', 'pick', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', 'alpha', '--shortlist', out, '--plan', planFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${planFile}: margin is 0.02 in the plan, 0.05 in the shortlist ${out}`);
    const ok = await runCli(['signoff', '--archive', archive, '--id', 'pick', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', JSON.parse(readFileSync(out, 'utf8')).finalists[0], '--shortlist', out, '--plan', planFile, '--deviate', 'shortlisted before the plan was read']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(join(archive, 'signoffs', 'pick.json'), 'utf8')).deviations).toEqual([{ field: 'margin', plan: 0.02, used: 0.05, reason: 'shortlisted before the plan was read' }]);
  });

  it('a tampered plan is caught by verify, and refused by --plan', async () => {
    const { archive, planFile } = await planned();
    const path = join(archive, 'plans', 'q4.json');
    chmodSync(path, 0o644);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"margin": 0.02', '"margin": 0.05'));
    const v = await runCli(['verify', '--archive', archive]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/changed plans\/q4\.json: the plan was edited after it was written/);
    const g = await runCli(['gate', SCORES, '--plan', `${archive}#q4`]);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/recordDigest: the plan was edited after it was written/);
    // The copy outside the archive is still intact and still reads.
    expect((await runCli(['rank', SCORES, '--plan', planFile, '--resamples', '199', '--deviate', 'quick look'])).code).toBe(0);
  });

  it('a plan replaced after a sign-off was made under it is caught through the sign-off', async () => {
    const { dir, archive, planFile } = await planned();
    const out = join(dir, 'shortlist.json');
    expect((await runCli(['shortlist', SCORES, '--plan', planFile, '-o', out])).code).toBe(0);
    const chosen = JSON.parse(readFileSync(out, 'utf8')).finalists[0];
    expect((await runCli(['signoff', '--archive', archive, '--id', 'pick', '--reviewer', 'R. Ahmed', '--date', '2026-11-30', '--chosen', chosen, '--shortlist', out, '--plan', planFile])).code).toBe(0);
    // Re-written with a fresh digest: the plan alone looks intact, the sign-off's link does not.
    const path = join(archive, 'plans', 'q4.json');
    const forged = buildPlan({ id: 'q4', date: '2026-10-01', margin: 0.1 });
    chmodSync(path, 0o644);
    writeFileSync(path, planRecordText(forged));
    const v = JSON.parse((await runCli(['verify', '--archive', archive, '--json'])).stdout);
    expect(v.ok).toBe(false);
    expect(v.problems).toContainEqual(expect.objectContaining({ kind: 'changed', path: 'plans/q4.json', detail: expect.stringContaining('not the one sign-off pick recorded') }));
  });

  it('monitor and rank take the plan: a fixed-n plan is departed from by monitor', async () => {
    const { planFile } = await planned();
    const m = await runCli(['monitor', 'examples/monitor.csv', '--plan', planFile]);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain('stopping is fixed in the plan, sequential (auto) on the command line (--sequence)');
    const r = await runCli(['rank', SCORES, '--plan', planFile, '--resamples', '199', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ plan: { id: 'q4' }, deviations: [], seed: '7' });
  });

  it('--deviate without --plan, and gate without --margin or a plan, are usage errors', async () => {
    const a = await runCli(['gate', SCORES, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--deviate', 'why']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--deviate: goes with --plan');
    const b = await runCli(['gate', SCORES, '--baseline', 'beta', '--candidate', 'alpha']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/required option '--margin <x>' not specified/);
  });
});

describe('bad plan files', () => {
  const good = () => JSON.parse(planRecordText(buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02 })));
  const cases: Array<[string, (dir: string) => string, RegExp]> = [
    ['an unknown field', () => JSON.stringify({ ...good(), marginn: 0.05 }, null, 2), /plan\.json:\d+: .*marginn/],
    ['a wrong type', () => JSON.stringify({ ...good(), margin: '0.02' }, null, 2), /plan\.json:\d+: margin: .*\(got "0\.02"\)/],
    ['a key named twice', () => planRecordText(buildPlan({ id: 'q4', date: '2026-11-30', margin: 0.02 })).replace('"margin": 0.02,', '"margin": 0.02,\n  "margin": 0.5,'), /plan\.json:\d+: an object names the same key twice .*\(got "margin"\)/],
    ['not JSON', () => 'margin: 0.02', /plan\.json:1: is not valid JSON \(write it with benchplan plan\)/],
    ['an edited value', () => JSON.stringify({ ...good(), margin: 0.05 }, null, 2), /plan\.json: recordDigest: the plan was edited after it was written/],
  ];
  for (const [name, text, message] of cases) {
    it(`refuses ${name} with a message naming the file and field`, async () => {
      const dir = tempDir('benchplan-badplan-');
      const path = join(dir, 'plan.json');
      writeFileSync(path, text(dir));
      const r = await runCli(['gate', SCORES, '--plan', path]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });
  }
});
