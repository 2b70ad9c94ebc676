import { describe, expect, it } from 'vitest';
import { bootstrapMeanDifference } from '../../src/bootstrap/index.js';
import { alignModels, loadScores, pairScores } from '../../src/data/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir();
const scores = 'examples/scores.csv';

describe('benchplan compare --a --b --json', () => {
  it('has the fields of issue #3, matching the library on the same pairs', async () => {
    const run = await runCli(['compare', scores, '--a', 'alpha', '--b', 'beta', '--cluster', '--method', 'bca', '--resamples', '1999', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    for (const key of ['a', 'b', 'n', 'estimate', 'confidenceInterval', 'standardError', 'method', 'confidenceLevel', 'nResamples', 'seed', 'pValue', 'warnings']) expect(report).toHaveProperty(key);
    const paired = pairScores(loadScores(scores), 'alpha', 'beta');
    const library = bootstrapMeanDifference(paired.scoreA, paired.scoreB, { cluster: paired.cluster, nResamples: 1999 });
    expect(report).toMatchObject({ a: 'alpha', b: 'beta', n: 400, method: 'bca', confidenceLevel: 0.95, nResamples: 1999, seed: '0', clustered: true, nClusters: library.nClusters });
    expect(report.estimate).toBe(library.estimate);
    expect(report.confidenceInterval).toEqual(library.confidenceInterval);
    expect(report.designEffect).toBe(library.designEffect);
    expect(report.pValueTest).toBe('sign-flip');
    expect(report.pValueTest).toBe('sign-flip'); // the new vocabulary's name, the same value
    expect(report.pValue).toBeGreaterThan(0);
  });

  it('the same seed gives the same bytes, whatever --threads', async () => {
    const args = ['compare', scores, '--a', 'beta', '--b', 'gamma', '--resamples', '999', '--json', '--seed', 'x'];
    const one = await runCli(args);
    const two = await runCli([...args, '--threads', '2']);
    expect(one.code).toBe(0);
    expect(two.stdout.replace('"threads": 2', '"threads": 1')).toBe(one.stdout);
  });

  it('the table says what to do: interval, whether it excludes 0, the verdict', async () => {
    const run = await runCli(['compare', scores, '--a', 'alpha', '--b', 'beta', '--cluster', '--resamples', '999']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/alpha − beta on 400 paired items/);
    expect(run.stdout).toMatch(/excludes 0/);
    expect(run.stdout).toMatch(/design effect/);
    expect(run.stdout).toMatch(/alpha scores higher than beta by/);
    const tie = await runCli(['compare', scores, '--a', 'beta', '--b', 'gamma', '--resamples', '999']);
    expect(tie.stdout).toMatch(/Cannot tell beta and gamma apart at 95%/);
  });

  it('method t: the t interval and the t-test p-value', async () => {
    const run = await runCli(['compare', scores, '--a', 'alpha', '--b', 'gamma', '--method', 't', '--json']);
    const report = JSON.parse(run.stdout);
    expect(report.method).toBe('t');
    expect(report.nResamples).toBe(0);
    expect(report.pValueTest).toBe('t');
    expect(report.pValueTest).toBe('t');
  });

  it('one-sided: --alternative greater gives [low, +inf] (null in JSON)', async () => {
    const run = await runCli(['compare', scores, '--a', 'alpha', '--b', 'beta', '--alternative', 'greater', '--method', 'bca', '--resamples', '999', '--json']);
    const report = JSON.parse(run.stdout);
    expect(report.confidenceInterval[1]).toBeNull();
    expect(report.alternative).toBe('greater');
    // --method auto on these 0/1 scores: Tango's score interval, whose upper end one-sided is the
    // largest possible difference, 1.
    const auto = JSON.parse((await runCli(['compare', scores, '--a', 'alpha', '--b', 'beta', '--alternative', 'greater', '--json'])).stdout);
    expect(auto).toMatchObject({ method: 'auto', methodUsed: 'tango', pValueTest: 'tango-score', nResamples: 0, permutations: 0 });
    expect(auto.confidenceInterval[1]).toBe(1);
  });
});

describe('benchplan compare without --a/--b: every pair, Holm-adjusted', () => {
  it('JSON pairs, best model first, adjusted p ≥ raw p', async () => {
    const run = await runCli(['compare', scores, '--cluster', '--resamples', '999', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.models.map((m: { model: string }) => m.model)).toEqual(['alpha', 'beta', 'gamma']);
    expect(report.pairs).toHaveLength(3);
    expect(report.adjustment).toBe('holm');
    for (const p of report.pairs) {
      expect(p.adjustedPValue).toBeGreaterThanOrEqual(p.pValue);
      expect(p.estimate).toBeGreaterThanOrEqual(0);
      expect(p.distinguishable).toBe(p.adjustedPValue < 0.05);
    }
    const aligned = alignModels(loadScores(scores), ['alpha', 'beta', 'gamma']);
    expect(report.n).toBe(aligned.items.length);
  });

  it('a table with the distinguishable pairs named', async () => {
    const run = await runCli(['compare', scores, '--resamples', '999']);
    expect(run.stdout).toMatch(/Holm-adjusted over 3 pairs/);
    expect(run.stdout).toMatch(/Distinguishable: alpha > beta/);
  });
});

describe('--drop-unpaired and --stratified', () => {
  it('drops and says how many', async () => {
    const file = writeInput(dir, 'unpaired.csv', 'item,model,score\nx,a,1\nx,b,0\ny,a,1\ny,b,1\nz,a,0\nw,a,1\nw,b,0\n');
    const run = await runCli(['compare', file, '--a', 'a', '--b', 'b', '--drop-unpaired', '--method', 'percentile', '--resamples', '99']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/left out 1 unpaired item/);
  });

  it('resamples within strata and echoes the stratum count', async () => {
    const run = await runCli(['compare', scores, '--a', 'alpha', '--b', 'beta', '--stratified', '--resamples', '999', '--json']);
    const report = JSON.parse(run.stdout);
    expect(report.stratified).toBe(true);
    expect(report.nStrata).toBeGreaterThan(1);
  });
});

describe('bad input to benchplan compare exits 2 with the value in the message', () => {
  const noCluster = writeInput(dir, 'nocluster.csv', 'item,model,score\nx,a,1\nx,b,0\ny,a,1\ny,b,1\n');
  const unpaired = writeInput(dir, 'unpaired2.csv', 'item,model,score\nx,a,1\nx,b,0\ny,a,1\n');
  const oneModel = writeInput(dir, 'one.csv', 'item,model,score\nx,a,1\ny,a,0\n');
  const spanning = writeInput(dir, 'spanning.csv', 'item,model,score,cluster,stratum\nx,a,1,d1,rare\nx,b,0,d1,rare\ny,a,1,d1,routine\ny,b,1,d1,routine\n');
  const cases: Array<[string, string[], string | RegExp]> = [
    ['unknown method', ['compare', scores, '--method', 'student'], 'error: --method: must be one of auto, bca, percentile, basic, t (got "student")'],
    ['zero resamples', ['compare', scores, '--resamples', '0'], 'error: --resamples: must be a whole number ≥ 1 (got "0")'],
    ['fractional resamples', ['compare', scores, '--resamples', '99.5'], 'error: --resamples: must be a whole number ≥ 1 (got "99.5")'],
    ['confidence as a percent', ['compare', scores, '--confidence', '95'], 'error: --confidence: must be a number > 0 and < 1 (got "95")'],
    ['unknown alternative', ['compare', scores, '--alternative', 'bigger'], 'error: --alternative: must be one of two-sided, less, greater (got "bigger")'],
    ['zero threads', ['compare', scores, '--threads', '0'], 'error: --threads: must be a whole number ≥ 1 and ≤ 256 (got "0")'],
    ['--a without --b', ['compare', scores, '--a', 'alpha'], 'error: --a: give both --a and --b (one pair), or neither (every pair) (got "alpha")'],
    ['the same model twice', ['compare', scores, '--a', 'alpha', '--b', 'alpha'], 'error: --b: --a and --b must name two different models (got "alpha")'],
    ['unknown model', ['compare', scores, '--a', 'alpha', '--b', 'delta'], 'error: examples/scores.csv: model "delta" is not in the scores (models: alpha, beta, gamma)'],
    ['missing file', ['compare', 'nope.csv'], /error: nope\.csv: /],
    ['--cluster without a cluster column', ['compare', noCluster, '--cluster'], /nocluster\.csv: --cluster needs a "cluster" column/],
    ['--stratified without a stratum column', ['compare', noCluster, '--stratified'], /nocluster\.csv: --stratified needs a "stratum" column/],
    ['unpaired items', ['compare', unpaired, '--a', 'a', '--b', 'b'], /unpaired2\.csv: 1 item is not scored by both "a" and "b": "y"; pass --drop-unpaired/],
    ['a single model', ['compare', oneModel], /one\.csv: compare needs at least two models \(got 1: a\)/],
    ['a cluster across strata', ['compare', spanning, '--cluster', '--stratified'], /spanning\.csv: cluster "d1" has items in two strata \("rare" for "x", "routine" for "y"\).* \(got "d1"\)/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      if (typeof message === 'string') expect(run.stderr).toContain(message);
      else expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    });
  }
});
