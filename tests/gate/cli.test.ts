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
    const run = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', '--method', 'bca', ...fast]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^PASS  no regression: alpha − beta ≥ 0\.\d+ \(95% lower bound\) > -0\.02 \(−margin\)/);
    expect(run.stdout).toMatch(/candidate alpha vs baseline beta on 400 paired items, 159 clusters/);
    expect(run.stdout).toMatch(/method bca, 1999 resamples, seed 0, alternative greater, clusters resampled/);
  });

  it('exits 1 with the report on stdout and the verdict on stderr when a drop beyond the margin is shown', async () => {
    const run = await runCli(['gate', S, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.05', ...fast]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL  regression shown: beta − alpha: 95% upper bound -0\.\d+ < -0\.05 \(−margin\): a drop larger than the margin is shown/);
    expect(run.stdout).toMatch(/overall: regression: the \w+ upper bound -0\.\d+ is below -0\.05: a drop larger than the margin is shown/);
    expect(run.stderr).toMatch(/^gate failed: regression shown/);
  });

  it('exits 3 when neither is shown, and --inconclusive maps that to 0 or 1 (echoed in the JSON)', async () => {
    // beta − alpha = −0.1525 on 400 items: the margin 0.14 lies inside the two one-sided 95% bounds.
    const args = ['gate', S, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.14', ...fast];
    const run = await runCli(args);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^INCONCLUSIVE  neither a regression nor its absence is shown: beta − alpha: 95% bounds \[-0\.\d+, -0\.\d+\] contain -0\.14 \(−margin\); 3393 items would show the drop/);
    // Tango bounds at the same discordance (89 of 400) and split, scaled up: an exact count, no "about"
    // (3393 with the default n/(n − 1) correction; 3392 uncorrected).
    expect(run.stdout).toMatch(/3393 items with the same share discordant \(89 of 400\) and the same split would show the drop at margin 0\.14/);
    expect(run.stderr).toMatch(/^gate inconclusive: /);
    const asPass = await runCli([...args, '--inconclusive', 'pass', '--json']);
    expect(asPass.code).toBe(0);
    expect(JSON.parse(asPass.stdout)).toMatchObject({ verdict: 'inconclusive', inconclusiveAs: 'pass', passed: false });
    expect(asPass.stderr).toMatch(/^gate inconclusive \(read as pass by --inconclusive pass\)/);
    const asFail = await runCli([...args, '--inconclusive', 'fail']);
    expect(asFail.code).toBe(1);
    expect(asFail.stderr).toMatch(/^gate inconclusive \(read as fail by --inconclusive fail\)/);
    const bad = await runCli([...args, '--inconclusive', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--inconclusive: must be one of pass, fail \(got "maybe"\)/);
  });

  it('checks every stratum with --per-stratum, so a regression in one is not hidden by the headline', async () => {
    const headline = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', ...fast]);
    const perStratum = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster', '--per-stratum', ...fast]);
    expect(headline.code).toBe(0);
    // negative_control's estimate −0.05 is below −margin but 39 clusters do not show the drop: inconclusive (exit 3), not a pass.
    expect(perStratum.code).toBe(3);
    expect(perStratum.stdout).toMatch(/negative_control +100 +-0\.05 +-0\.\d+ +-0\.\d+ +-0\.02 +INCONCLUSIVE/);
    expect(perStratum.stdout).toMatch(/rare_clause +120 +0\.308 +0\.\d+ +- +-0\.02 +pass/);
    expect(perStratum.stdout).toMatch(/2 of 4 strata inconclusive \(routine, negative_control\)/);
  });

  it('prints one JSON document with --json, settings echoed, and still exits non-zero when it does not pass', async () => {
    const run = await runCli(['gate', S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--per-stratum', '--method', 't', '--confidence', '0.975', '--seed', '3', '--json']);
    expect(run.code).toBe(3);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ baseline: 'beta', candidate: 'alpha', margin: 0.02, threshold: -0.02, method: 't', confidenceLevel: 0.975, alternative: 'greater', nResamples: 0, seed: '3', perStratum: true, passed: false, verdict: 'inconclusive' });
    expect(json.inconclusive).toEqual(['routine', 'negative_control']);
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
    // Five items decide little: any of the three verdicts is possible, and the exit status must match it.
    const json = JSON.parse(run.stdout);
    expect(json.n).toBe(5);
    expect(run.code).toBe({ pass: 0, fail: 1, inconclusive: 3 }[json.verdict as string]);
  });

  it('runs the README example: headline passes, --per-stratum refuses to vouch for the negative controls', async () => {
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
    // −4/30 on 30 negative controls: below −margin, but 30 items do not show a drop beyond 0.05 either (exit 3).
    expect(perStratum.code).toBe(3);
    const p = JSON.parse(perStratum.stdout);
    expect(p.failed).toEqual(['negative_control']);
    expect([p.verdict, p.inconclusive]).toEqual(['inconclusive', ['negative_control']]);
    expect(p.strata.find((c: { stratum: string }) => c.stratum === 'negative_control').estimate).toBeCloseTo(-4 / 30, 14);
  });

  // Issue #13: two runs that agree on every item. The bootstrap's interval is [0, 0] and used to pass;
  // --method auto (the default) uses Tango's score interval (n/(n − 1) correction), whose one-sided 95%
  // bound with no discordant item is −z²/(n − 1 + z²) (z = 1.6449): −0.575, −0.0665, −0.0523 on 3, 39,
  // 50 items, all ≤ −0.05. The items that would pass: the bound needs N > 1 + 19 z² = 52.4, and the exact score test
  // at the margin 0.95^N ≤ 0.05, N ≥ 58.4 → 59 (bench/binary-exact-study.txt).
  for (const n of [3, 39, 50]) {
    it(`is inconclusive on ${n} all-agreeing 0/1 items at --margin 0.05 (exit 3), naming the 59 items that would pass`, async () => {
      const path = join(dir, `agree-${n}.csv`);
      const rows = ['item,model,score'];
      for (let i = 0; i < n; i++) rows.push(`q${i},main,1`, `q${i},pr,1`);
      writeFileSync(path, `${rows.join('\n')}\n`);
      const run = await runCli(['gate', path, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05']);
      expect(run.code).toBe(3);
      const z = 1.6448536269514722;
      const bound = -(z * z) / (n - 1 + z * z);
      // The upper bound of an all-agreeing table is +z²/(n − 1 + z²) by symmetry, so the bounds contain −margin.
      const upper = (z * z) / (n - 1 + z * z);
      expect(run.stdout).toMatch(
        new RegExp(`^INCONCLUSIVE  neither a regression nor its absence is shown: pr − main: 95% bounds \\[${bound.toPrecision(3).replace('.', '\\.')}, ${upper.toPrecision(3).replace('.', '\\.')}\\] contain -0\\.05 \\(−margin\\); 59 items would let it pass`),
      );
      expect(run.stdout).toMatch(/59 items all agreeing, as these \d+ do/);
      expect(run.stdout).toMatch(/method auto: 0\/1 scores on \d+ independent items \(0 discordant\): Tango/);
      expect(run.stderr).toMatch(/^gate inconclusive: .*59 items would let it pass/);
      const json = JSON.parse((await runCli(['gate', path, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--json'])).stdout);
      expect(json).toMatchObject({ method: 'auto', methodUsed: 'tango', passed: false, verdict: 'inconclusive', inconclusive: ['overall'] });
      expect(json.overall.lowerBound).toBeCloseTo(bound, 12);
      expect(json.overall.upperBound).toBeCloseTo(upper, 12);
      expect(json.overall.itemsNeeded).toBe(59);
      // ... 53 agreeing items clear the bound (z²/(52 + z²) = 0.0495 < 0.05) but not the exact test
      // (0.95^53 = 0.066): inconclusive; 59 pass.
      if (n === 50) {
        for (const [size, code] of [[53, 3], [59, 0]] as const) {
          const more = join(dir, `agree-${size}.csv`);
          const rowsMore = ['item,model,score'];
          for (let i = 0; i < size; i++) rowsMore.push(`q${i},main,1`, `q${i},pr,1`);
          writeFileSync(more, `${rowsMore.join('\n')}\n`);
          const moreRun = await runCli(['gate', more, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05']);
          expect(moreRun.code).toBe(code);
          if (size === 53) expect(moreRun.stdout).toMatch(/95% lower bound -0\.0495 clears -0\.05, but the exact score test at the margin does not \(p = 0\.066\d*\)/);
        }
      }
    });
  }

  it('never passes continuous differences that do not vary (no valid bound), and sizes continuous data from their spread', async () => {
    const flat = join(dir, 'flat.csv');
    const rows = ['item,model,score'];
    for (let i = 0; i < 20; i++) rows.push(`q${i},main,0.5`, `q${i},pr,0.7`);
    writeFileSync(flat, `${rows.join('\n')}\n`);
    const run = await runCli(['gate', flat, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05']);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/no valid bound: every difference is 0\.2/);
    // Continuous, 12 items, d = 0.01·(i − 5.5)·… : t interval (auto, n < 100), items from the spread.
    const spread = join(dir, 'spread.csv');
    const d = [0.3, -0.25, 0.1, -0.2, 0.05, 0.15, -0.3, 0.2, -0.1, 0.25, -0.05, 0.05];
    const r2 = ['item,model,score'];
    d.forEach((x, i) => r2.push(`q${i},main,0.5`, `q${i},pr,${0.5 + x}`));
    writeFileSync(spread, `${r2.join('\n')}\n`);
    const j = JSON.parse((await runCli(['gate', spread, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--json'])).stdout);
    expect(j).toMatchObject({ method: 'auto', methodUsed: 't', passed: false, verdict: 'inconclusive' });
    // Scores in [0, 1]: the one-sided bound is the two-sided interval's end (bench/comet-gate-rules.txt, R4),
    // so the arm is z(0.975)·SE. Hand: mean 0.01667, sd 0.1981 → SE 0.05719, gap to −margin 0.06667;
    // N = 12 · (1.95996 · 0.05719 / 0.06667)² = 33.9 → 34 (at one-sided z(0.95) it was 23.9 → 24).
    const mean = d.reduce((s, x) => s + x, 0) / d.length;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1));
    const se = sd / Math.sqrt(d.length);
    expect(j.overall.itemsNeeded).toBe(Math.ceil(12 * ((1.959963984540054 * se) / (mean + 0.05)) ** 2));
  });

  const noStrata = join(dir, 'plain.csv');
  writeFileSync(noStrata, 'item,model,score\na,main,1\na,pr,1\nb,main,0\nb,pr,1\nc,main,1\nc,pr,0\n');
  const bad: Array<[string, string[], RegExp]> = [
    ['a negative margin', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '-0.1'], /--margin: must be a number ≥ 0 \(got "-0\.1"\)/],
    ['a confidence of 1', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--confidence', '1'], /--confidence: must be a number > 0 and < 1 \(got "1"\)/],
    ['an unknown method', [S, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--method', 'jackknife'], /--method: must be one of auto, bca, percentile, basic, t \(got "jackknife"\)/],
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
