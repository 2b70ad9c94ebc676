import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const POOL = 'examples/pool.csv';
const LABELLED = 'examples/pool-labelled.csv';
// qnorm(0.95) in R; 1.6449 in published normal tables.
const Z95 = 1.6448536269514722;

async function designIn(dir: string): Promise<string> {
  const s = await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
  expect(s.code).toBe(0);
  return join(dir, 'l.design.json');
}

/** pool-labelled.csv with one audited agreeing item's first score flipped (the audit then fails). */
function flippedAudit(dir: string): string {
  const lines = readFileSync(LABELLED, 'utf8').split('\n');
  const k = lines.findIndex((l) => l.includes('/agree'));
  const fields = lines[k].split(',');
  fields[3] = fields[3] === '1' ? '0' : '1';
  lines[k] = fields.join(',');
  return writeInput(dir, 'bad.csv', lines.join('\n'));
}

describe('benchplan gate --design', () => {
  it('the bound is the lower end of compare --design at level 1 − 2α, and estimate − z_{0.95}·SE', async () => {
    const dir = tempDir();
    const design = await designIn(dir);
    const compare90 = JSON.parse((await runCli(['compare', LABELLED, '--design', design, '--confidence', '0.9', '--json'])).stdout);
    const compare95 = JSON.parse((await runCli(['compare', LABELLED, '--design', design, '--json'])).stdout);
    const { code, stdout } = await runCli(['gate', LABELLED, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--json']);
    expect(code).toBe(0);
    const g = JSON.parse(stdout);
    expect(g).toMatchObject({ baseline: 'beta', candidate: 'alpha', margin: 0.02, confidenceLevel: 0.95, estimator: 'stratified-horvitz-thompson', passed: true, assumptionFailed: false, poolSize: 400, labelled: 65 });
    expect(g.lowerBound).toBeCloseTo(compare90.confidenceInterval[0], 12);
    expect(g.twoSidedLevel).toBe(0.9);
    expect(g.lowerBound).toBeCloseTo(compare95.estimate - Z95 * compare95.standardError, 12);
    // and not the two-sided 95% end, which is lower
    expect(g.lowerBound).toBeGreaterThan(compare95.confidenceInterval[0] + 1e-3);
    expect(g.audit).toEqual(compare95.audit);
  });

  it('passes with exit 0 when the bound is above −margin, is inconclusive (exit 3) naming both bounds when the interval holds −margin, fails (exit 1) when the upper bound is below it', async () => {
    const dir = tempDir();
    const design = await designIn(dir);
    const pass = await runCli(['gate', LABELLED, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02']);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(/^PASS {2}no regression: alpha − beta 95% lower bound -0\.00723 > -0\.02 \(−margin\)/);
    expect(pass.stdout).toMatch(/Audit: all 12 labelled agreeing items scored the same for both candidates\./);
    const fail = await runCli(['gate', LABELLED, '--design', design, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.02']);
    expect(fail.code).toBe(3);
    expect(fail.stdout).toMatch(/^INCONCLUSIVE/);
    expect(fail.stderr).toMatch(/gate inconclusive: neither a regression nor its absence is shown: beta − alpha 95% lower bound -0\.0472 ≤ -0\.02 \(−margin\), upper bound 0\.\d+ ≥ it/);
    const json = JSON.parse((await runCli(['gate', LABELLED, '--design', design, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0.02', '--json'])).stdout);
    // The design bound is normal: the upper bound mirrors the lower about the estimate.
    expect(json.upperBound - json.estimate).toBeCloseTo(json.estimate - json.lowerBound, 12);
    expect(json.verdict).toBe('inconclusive');
    // A margin of 0 with the upper bound below 0 … is not available here; a margin under −upperBound fails when the upper bound is negative.
    if (json.upperBound < 0) {
      const shown = await runCli(['gate', LABELLED, '--design', design, '--baseline', 'alpha', '--candidate', 'beta', '--margin', String(-json.upperBound / 2)]);
      expect(shown.code).toBe(1);
    }
  });

  it('a failed audit is in the output, and neither a pass nor a fail is silent about it', async () => {
    const dir = tempDir();
    const design = await designIn(dir);
    const bad = flippedAudit(dir);
    const pass = await runCli(['gate', bad, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.3']);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(/^PASS .*the audit FAILED \(1 of 12 agreeing items scored differently\): "same output ⇒ same score" does not hold/);
    expect(pass.stdout).toMatch(/Audit: FAILED — 1 of 12 agreeing items scored differently\./);
    const fail = await runCli(['gate', bad, '--design', design, '--baseline', 'alpha', '--candidate', 'beta', '--margin', '0']);
    expect(fail.code).toBe(3);
    expect(fail.stderr).toMatch(/gate inconclusive: .*the audit FAILED \(1 of 12/);
    const json = JSON.parse((await runCli(['gate', bad, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.3', '--json'])).stdout);
    expect(json.assumptionFailed).toBe(true);
    expect(json.audit).toMatchObject({ audited: 12, differing: 1 });
    // the same estimator as compare --design on the same bad list
    const c = JSON.parse((await runCli(['compare', bad, '--design', design, '--confidence', '0.9', '--json'])).stdout);
    expect(json.lowerBound).toBeCloseTo(c.confidenceInterval[0], 12);
  });

  it('bad input exits 2 with the flag and value', async () => {
    const dir = tempDir();
    const design = await designIn(dir);
    const base = ['gate', LABELLED, '--design', design];
    const cases: Array<[string[], RegExp]> = [
      [[...base, '--baseline', 'beta', '--candidate', 'gamma', '--margin', '0.02'], /--candidate: not one of the design's models \(alpha, beta\) \(got "gamma"\)/],
      [[...base, '--candidate', 'alpha', '--margin', '0.02'], /--baseline: --design needs --baseline and --candidate/],
      [[...base, '--baseline', 'beta', '--candidate', 'beta', '--margin', '0.02'], /must be different models/],
      [[...base, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '-1'], /--margin: must be a number ≥ 0/],
      [[...base, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--confidence', '0.5'], /--confidence: must be a number > 0\.5 and < 1/],
      [[...base, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--cluster'], /--cluster: --design estimates analytically/],
      [[...base, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--method', 'bca'], /--method: --design uses the design estimator/],
      [['gate', LABELLED, LABELLED, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02'], /--design reads one labelled list/],
      [['gate', LABELLED, '--design', join(dir, 'missing.json'), '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02'], /missing\.json/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
    }
    const extra = writeInput(dir, 'extra.csv', `${readFileSync(LABELLED, 'utf8').trimEnd()}\nnot-chosen,alpha,x,1,routine,routine/agree,0.5\nnot-chosen,beta,x,0,routine,routine/agree,0.5\n`);
    const unchosen = await runCli(['gate', extra, '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02']);
    expect(unchosen.code).toBe(2);
    // "not-chosen" is not a pool item at all: the message says so, with its line
    expect(unchosen.stderr).toMatch(/extra\.csv:132: item: 1 labelled item is not in the design's pool examples\/pool\.csv \("not-chosen"\)/);
  });
});

describe('benchplan gate --design on a whole-document design', () => {
  it('the bound is compare --design\'s lower end at level 1 − 2α (t with the design\'s df)', async () => {
    const dir = tempDir();
    expect((await runCli(['select', 'examples/pool-docs.csv', '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'd.csv')])).code).toBe(0);
    const design = join(dir, 'd.design.json');
    const compare90 = JSON.parse((await runCli(['compare', 'examples/pool-docs-labelled.csv', '--design', design, '--confidence', '0.9', '--json'])).stdout);
    const { code, stdout } = await runCli(['gate', 'examples/pool-docs-labelled.csv', '--design', design, '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02', '--json']);
    expect(code).toBe(0);
    const g = JSON.parse(stdout);
    expect(g).toMatchObject({ estimator: 'cluster-horvitz-thompson', sampling: 'cluster', passed: true });
    expect(compare90.degreesOfFreedom).toBeGreaterThan(0);
    expect(g.lowerBound).toBeCloseTo(compare90.confidenceInterval[0], 12);
  });
});
