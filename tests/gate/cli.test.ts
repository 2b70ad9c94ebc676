import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-gate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const S = 'examples/scores.csv';
const fast = ['--resamples', '1999'];

describe('benchplan gate', () => {
  it('exits 0 and prints the report when the candidate is non-inferior', async () => {
    const run = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', ...fast]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^PASS  no regression: alpha − beta ≥ 0\.\d+ \(95% lower bound\) > -0\.02 \(−margin\)/);
    expect(run.stdout).toMatch(/candidate alpha vs baseline beta on 400 paired items, 159 clusters/);
    expect(run.stdout).toMatch(/method bca, 1999 resamples, seed 0, alternative greater, clusters resampled/);
  });

  it('exits 1 with the report on stdout and the verdict on stderr when a regression is not ruled out', async () => {
    const run = await runCli(['gate', S, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.05', ...fast]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL  regression not ruled out: beta − alpha: 95% lower bound -0\.\d+ ≤ -0\.05 \(−margin\)/);
    expect(run.stdout).toMatch(/overall: regression: the estimate -0\.152 itself is at or below -0\.05/);
    expect(run.stderr).toMatch(/^gate failed: regression not ruled out/);
  });

  it('checks every stratum with --per-stratum, so a regression in one is not hidden by the headline', async () => {
    const headline = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', ...fast]);
    const perStratum = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', '--per-stratum', ...fast]);
    expect(headline.code).toBe(0);
    expect(perStratum.code).toBe(1);
    expect(perStratum.stdout).toMatch(/negative_control +100 +-0\.05 +-0\.\d+ +-0\.02 +FAIL/);
    expect(perStratum.stdout).toMatch(/rare_clause +120 +0\.308 +0\.\d+ +-0\.02 +pass/);
  });

  it('prints one JSON document with --json, settings echoed, and still exits 1 on failure', async () => {
    const run = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--per-stratum', '--method', 't', '--confidence', '0.975', '--seed', '3', '--json']);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ baseline: 'beta', candidate: 'alpha', margin: 0.02, threshold: -0.02, method: 't', confidenceLevel: 0.975, alternative: 'greater', nResamples: 0, seed: '3', perStratum: true, passed: false });
    expect(json.overall.confidenceInterval[1]).toBeNull(); // +∞ has no JSON form
    expect(json.failed).toEqual(['routine', 'negative_control']);
    expect(json.strata.map((c: { stratum: string }) => c.stratum)).toEqual(['routine', 'rare_clause', 'past_failure', 'negative_control']);
  });

  it('gives the same bytes for the same seed', async () => {
    const args = ['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--per-stratum', '--seed', 'pr-17', '--json', ...fast];
    expect((await runCli(args)).stdout).toBe((await runCli(args)).stdout);
  });

  it('reads a table written by benchplan import', async () => {
    const path = join(dir, 'imported.csv');
    const imported = await runCli(['import', 'inspect', 'tests/fixtures/import/inspect/run-a.eval', 'tests/fixtures/import/inspect/run-b.eval', '-o', path]);
    expect(imported.code).toBe(0);
    const run = await runCli(['gate', path, '--baseline', 'openai/gpt-4o-mini', '--candidate', 'anthropic/claude-3-5-haiku-latest', '--margin', '0.1', '--json', ...fast]);
    expect([0, 1]).toContain(run.code);
    expect(JSON.parse(run.stdout).n).toBe(5);
  });

  it('runs the README example: headline passes, --per-stratum catches the negative-control regression', async () => {
    const path = join(dir, 'scores-pr.csv');
    const imported = await runCli(['import', 'promptfoo', 'examples/promptfoo/main.json', 'examples/promptfoo/pr.json', '--item-key', 'vars', '--model', 'main', '--model', 'pr', '--stratum-key', 'stratum', '-o', path]);
    expect(imported.stdout).toMatch(/wrote 297 rows \(150 items, 2 models\)/);
    const args = ['gate', path, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--drop-unpaired', '--json'];
    const headline = await runCli(args);
    expect(headline.code).toBe(0);
    const h = JSON.parse(headline.stdout);
    // 147 paired items (3 provider errors left out); pr − main = 2 / 147 on 0/1 scores.
    expect([h.n, h.dropped]).toEqual([147, 3]);
    expect(h.overall.estimate).toBeCloseTo(2 / 147, 14);
    const perStratum = await runCli([...args, '--per-stratum']);
    expect(perStratum.code).toBe(1);
    const p = JSON.parse(perStratum.stdout);
    expect(p.failed).toEqual(['negative_control']);
    expect(p.strata.find((c: { stratum: string }) => c.stratum === 'negative_control').estimate).toBeCloseTo(-4 / 30, 14);
  });

  const noStrata = join(dir, 'plain.csv');
  writeFileSync(noStrata, 'item,model,score\na,main,1\na,pr,1\nb,main,0\nb,pr,1\nc,main,1\nc,pr,0\n');
  const bad: Array<[string, string[], RegExp]> = [
    ['a negative margin', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '-0.1'], /--margin: must be a number ≥ 0 \(got "-0\.1"\)/],
    ['a confidence of 1', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--confidence', '1'], /--confidence: must be a number > 0 and < 1 \(got "1"\)/],
    ['an unknown method', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--method', 'jackknife'], /--method: must be one of bca, percentile, basic, t \(got "jackknife"\)/],
    ['an unknown model', [S, '--baseline', 'beta', '--candidate', 'delta', '--margin', '0.02'], /scores\.csv: model "delta" is not in the scores \(models: alpha, beta, gamma\)/],
    ['the same model twice', [S, '--baseline', 'beta', '--candidate', 'beta', '--margin', '0.02'], /baseline and candidate must be different models \(got "beta"\)/],
    ['--per-stratum without a stratum column', [noStrata, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--per-stratum'], /plain\.csv: has no stratum column for per-stratum checks/],
    ['--cluster without a cluster column', [noStrata, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--cluster'], /plain\.csv: has no cluster column to resample/],
    ['a missing --margin', [S, '--baseline', 'beta', '--candidate', 'alpha'], /required option '--margin <x>' not specified/],
  ];
  for (const [what, args, message] of bad) {
    it(`exits 2 for ${what}`, async () => {
      const run = await runCli(['gate', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    });
  }
});
