import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const EXAMPLE = 'examples/monitor.csv';

describe('benchplan monitor', () => {
  it('prints a look per batch and the first settled look; --json echoes the settings, byte-stable', async () => {
    const text = await runCli(['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--mde', '0.05', '--per-stratum']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/a look after every batch/);
    expect(text.stdout).toMatch(/Settled at look \d+ after \d+ items: resolved: candidate better/);
    expect(text.stdout).toMatch(/Per stratum: each sequence at 97\.50%/);
    expect(text.stdout).toMatch(/continue \(≈ \d+ more items\)/);
    const a = await runCli(['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--mde', '0.05', '--json']);
    const b = await runCli(['--json', 'monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--mde', '0.05']);
    expect(a.stdout).toBe(b.stdout);
    const json = JSON.parse(a.stdout);
    expect(json).toMatchObject({ a: 'candidate', b: 'current', confidenceLevel: 0.95, mde: 0.05, unit: 'item', schedule: { kind: 'batch' }, order: 'batch, order', differenceRange: [-1, 1] });
    expect(json.decision.verdict).toBe('a-better');
  });
  it('--cluster monitors whole documents', async () => {
    const r = await runCli(['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--cluster', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.unit).toBe('cluster');
    expect(json.units).toBe(180);
  });
  it('bad input exits 2 naming the flag or file', async () => {
    const dir = tempDir();
    const plain = writeInput(dir, 'plain.csv', 'item,model,score\na,x,1\na,y,0\nb,x,5\nb,y,1\n');
    const cases: Array<[string[], RegExp]> = [
      [['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--score-range', '1'], /--score-range: must be two numbers LOW,HIGH/],
      [['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--every', '0'], /--every: must be a whole number ≥ 1/],
      [['monitor', plain, '--a', 'x', '--b', 'y', '--cluster'], /--cluster needs a "cluster" column/],
      [['monitor', plain, '--a', 'x', '--b', 'y'], /item "b" of model "x" scores 5, outside \[0, 1\]: declare the range/],
      [['monitor', plain, '--a', 'x', '--b', 'y', '--per-stratum'], /--per-stratum needs a "stratum" column/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const ok = await runCli(['monitor', plain, '--a', 'x', '--b', 'y', '--score-range', '0,5']);
    expect(ok.code).toBe(0);
  });
});

describe('benchplan gate --sequential', () => {
  it('keeps every look in the state file: look 1 at α/2, look 2 at α/6; a changed margin is refused', async () => {
    const dir = tempDir();
    const state = join(dir, 'ci', 'gate-state.json');
    const args = ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--sequential', '--state', state];
    const first = await runCli([...args, '--label', 'abc123']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/PASS: look 1 of a sequential gate/);
    expect(JSON.parse(readFileSync(state, 'utf8')).looks).toHaveLength(1);
    const second = await runCli([...args, '--json']);
    expect(second.code).toBe(0);
    const json = JSON.parse(second.stdout);
    expect(json.look).toBe(2);
    expect(json).toMatchObject({ methodUsed: 'agrapa', methodRequested: 'auto' });
    expect(json.methodReason).toMatch(/^cluster means|^partial or continuous|^item-level/);
    expect(first.stdout).toMatch(/\(aGRAPA betting sequence by --sequence auto, over the items in a random order by --seed 0\)/);
    expect(json).toMatchObject({ seed: '0', order: 'seeded-permutation' });
    expect(json.alpha).toBeCloseTo(0.05 / 6, 15);
    const changed = await runCli(['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.05', '--sequential', '--state', state]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/gate-state\.json: margin: this run's margin is 0\.05/);
    expect(JSON.parse(readFileSync(state, 'utf8')).looks).toHaveLength(2);
  });
  it('--seed sets the units\' random order: echoed in the JSON and the look, the same seed gives the same bytes', async () => {
    const dir = tempDir();
    const args = (state: string, seed: string) => ['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--sequential', '--state', join(dir, state), '--seed', seed, '--json'];
    const a = await runCli(args('a.json', 'ci-1'));
    const b = await runCli(args('b.json', 'ci-1'));
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe(readFileSync(join(dir, 'b.json'), 'utf8'));
    expect(JSON.parse(a.stdout)).toMatchObject({ seed: 'ci-1', order: 'seeded-permutation' });
    expect(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')).looks[0].seed).toBe('ci-1');
    const other = await runCli(args('c.json', '1'));
    expect(JSON.parse(other.stdout).lowerBound).not.toBe(JSON.parse(a.stdout).lowerBound);
    const bad = await runCli(args('d.json', ''));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--seed: must be a name or number/);
    expect(existsSync(join(dir, 'd.json'))).toBe(false);
    const label = await runCli([...args('e.json', '1'), '--label', ' ']);
    expect(label.code).toBe(2);
    expect(label.stderr).toBe('error: --label: must name the look (e.g. the commit id), or be left out (got " ")\n');
    expect(existsSync(join(dir, 'e.json'))).toBe(false);
  });
  it('fails (exit 1) a regression, still recording the look; --sequential needs --state', async () => {
    const dir = tempDir();
    const state = join(dir, 's.json');
    const r = await runCli(['gate', 'examples/scores.csv', '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.02', '--sequential', '--state', state]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL: look 1/);
    expect(JSON.parse(readFileSync(state, 'utf8')).looks[0].passed).toBe(false);
    const none = await runCli(['gate', 'examples/scores.csv', '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.02', '--sequential']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--sequential needs --state FILE/);
    expect(existsSync(join(dir, 'nothing.json'))).toBe(false);
  });
});

describe('benchplan size --sequential', () => {
  it('adds the simulated items to a decision beside the fixed-n count', async () => {
    const r = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05', '--sequential', '--simulations', '100', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.sequential.rows.map((row: { gap: number }) => row.gap)).toEqual([0.05, 0.1]);
    expect(json.sequential.fixedItemsForPower).toBe(json.nForPower);
    expect(json.sequential.unit).toBe('cluster');
    expect(json.sequential.simulations).toBe(100);
    // The same auto rule as monitor: aGRAPA, with the reason, on whole documents here.
    expect(json.sequential).toMatchObject({ sequence: 'agrapa', methodUsed: 'agrapa', methodRequested: 'auto' });
    expect(json.sequential.methodReason).toMatch(/^cluster means/);
    const text = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05', '--sequential', '--simulations', '50', '--gap', '0.1']);
    expect(text.stdout).toMatch(/Sequentially \(an anytime-valid 95% aGRAPA betting sequence \(by --sequence auto\)/);
    const eb = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05', '--sequential', '--simulations', '50', '--gap', '0.1', '--sequence', 'eb', '--json']);
    expect(JSON.parse(eb.stdout).sequential).toMatchObject({ sequence: 'empirical-bernstein', methodRequested: 'empirical-bernstein', methodReason: 'asked for' });
    const bad = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05', '--sequential', '--gap', '3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--gap: the gap 3 must lie strictly between/);
    // An empty seed was taken as a seed; every other command refuses it.
    const seed = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05', '--sequential', '--simulations', '10', '--seed', '']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/error: --seed: must be a name or number of 1 to 256 characters \(got ""\)/);
  });
});

describe('--sequence', () => {
  it('betting on whole documents, and a bad value is exit 2', async () => {
    const r = await runCli(['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--cluster', '--sequence', 'betting', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).method).toBe('betting');
    const bad = await runCli(['monitor', EXAMPLE, '--a', 'candidate', '--b', 'current', '--sequence', 'bayes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sequence: must be auto, agrapa, betting or eb \(got "bayes"\)/);
    const gate = await runCli(['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--sequential', '--state', join(tempDir(), 's.json'), '--sequence', 'bayes']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/--sequence: must be auto, agrapa, betting or eb/);
  });
  it('gate --sequential --sequence eb: the empirical-Bernstein bound, named in the output and the state', async () => {
    const state = join(tempDir(), 's.json');
    const r = await runCli(['gate', 'examples/scores.csv', '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--sequential', '--state', state, '--sequence', 'eb', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ methodUsed: 'empirical-bernstein', methodRequested: 'empirical-bernstein', methodReason: 'asked for' });
    expect(JSON.parse(readFileSync(state, 'utf8')).looks[0].sequence).toBe('empirical-bernstein');
  });
});
