import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { parseRequirement } from '../../src/decision/requirement.js';
import { shortlist } from '../../src/decision/shortlist.js';
import { runCli } from '../helpers/cli.js';

// R 4.2.2, tests/reference/decision/shortlist.R: t.test(best, c, paired = TRUE, mu = 0.05,
// alternative = "greater")$p.value per scope, then p.adjust(p, method = "holm").
const reference = JSON.parse(readFileSync('tests/reference/decision/shortlist.json', 'utf8')) as Record<string, { scopes: string[]; pValue: number[]; adjustedPValue: number[]; upper: number[]; holmLevel: number[]; holmUpper: number[] }>;
const table = loadScores('examples/scores.csv');

function close(actual: number, expected: number, relative = 1e-8) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.max(Math.abs(expected), 1e-300));
}

describe('shortlist', () => {
  const result = shortlist(table, { margin: 0.05, requirements: [parseRequirement('negative_control.hallucinationRate<=0.08')] });

  it('matches R t.test p-values, their Holm adjustment and the one-sided bounds on every check', () => {
    for (const model of ['beta', 'gamma']) {
      const c = result.candidates.find((x) => x.model === model)!;
      const ref = reference[model];
      expect(c.comparisons.map((k) => k.scope)).toEqual(ref.scopes);
      c.comparisons.forEach((k, j) => {
        close(k.pValue, ref.pValue[j], 1e-7);
        close(k.adjustedPValue, ref.adjustedPValue[j], 1e-7);
        close(k.confidenceInterval[1], ref.upper[j], 1e-9);
        close(k.holmConfidenceLevel, ref.holmLevel[j], 1e-12);
        close(k.holmUpperBound, ref.holmUpper[j], 1e-9);
        // A check that eliminates has its Holm-level bound below −margin.
        if (k.worse) expect(k.holmUpperBound).toBeLessThan(-0.05);
      });
    }
  });

  it('keeps the best, eliminates beta overall and gamma on a per-stratum bar (the README example)', () => {
    expect(result.best).toBe('alpha');
    expect(result.finalists).toEqual(['alpha']);
    expect(result.eliminated).toEqual(['beta', 'gamma']);
    const beta = result.candidates[1];
    expect(beta.firstReason).toMatchObject({ kind: 'comparison', scope: 'overall', worse: true });
    const gamma = result.candidates[2];
    // Hand count: gamma has 10 fabrications and 90 correct_absent in negative_control: 10 / 100.
    expect(gamma.firstReason).toMatchObject({ kind: 'bar', scope: 'negative_control', metric: 'hallucinationRate', estimate: 0.1, n: 100, passed: false });
    expect(gamma.firstReason!.reason).toMatch(/negative_control\.hallucinationRate = 0\.1 \(95% interval 0\.0552 to 0\.174, n 100\) fails the bar/);
  });

  it('eliminates no one a Holm-adjusted check cannot separate from the best, even when a raw bound is past the margin', () => {
    const wide = shortlist(table, { margin: 0.2 });
    expect(wide.finalists).toEqual(['alpha', 'beta', 'gamma']);
    const rare = wide.candidates[1].comparisons.find((k) => k.scope === 'rare_clause')!;
    // The raw 95% bound -0.228 lies below -0.2, but over 5 checks Holm needs more.
    expect(rare.confidenceInterval[1]).toBeLessThan(-0.2);
    expect(rare.pValue).toBeLessThan(0.05);
    expect(rare.adjustedPValue).toBeGreaterThan(0.05);
  });

  it('judges a mean bar on the point estimate', () => {
    // Hand count: alpha scores 0.8 on rare_clause (96 of 120).
    const r = shortlist(table, { requirements: [parseRequirement('rare_clause.mean>=0.81')] });
    expect(r.candidates[0].bars[0]).toMatchObject({ estimate: 0.8, n: 120, passed: false });
    expect(r.finalists).toEqual([]);
  });
});

describe('parseRequirement', () => {
  it('parses both operators', () => {
    expect(parseRequirement('overall.mean>=0.8')).toEqual({ text: 'overall.mean>=0.8', scope: 'overall', metric: 'mean', operator: '>=', threshold: 0.8 });
    expect(parseRequirement(' negative_control.hallucinationRate <= .05 ')).toMatchObject({ scope: 'negative_control', operator: '<=', threshold: 0.05 });
  });
  it.each([
    ['overall.mean<0.8', 'must be SCOPE.METRIC<=NUMBER'],
    ['overall.mean=0.8', 'must be SCOPE.METRIC<=NUMBER'],
    ['overall.mean>=0.8x', 'must be SCOPE.METRIC<=NUMBER'],
    ['mean>=0.8', 'must be SCOPE.METRIC<=NUMBER'],
    ['overall.accuracy>=0.8', 'unknown metric "accuracy"'],
    ['overall.recall>=1.5', 'a bar on recall must lie in [0, 1]'],
  ])('rejects %s', (text, message) => {
    expect(() => parseRequirement(text)).toThrow(message);
    expect(() => parseRequirement(text)).toThrow(`(got "${text}")`);
  });
});

describe('benchplan shortlist', () => {
  it('prints finalists and the first reason of each eliminated candidate', async () => {
    const run = await runCli(['shortlist', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--margin', '0.05', '--require', 'negative_control.hallucinationRate<=0.08']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Finalists: alpha /);
    expect(run.stdout).toMatch(/\n {2}gamma: negative_control\.hallucinationRate = 0\.1 .* fails the bar/);
    expect(run.stdout).toMatch(/\n {2}beta: overall: beta − alpha = -0\.152 \(upper bound -0\.102 at Holm's level 98\.75%, n 400\) is worse/);
  });
  it('exits 2 naming a bad bar', async () => {
    const run = await runCli(['shortlist', 'examples/scores.csv', '--require', 'negative_control.hallucinationRate<0.08']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: --require: must be SCOPE.METRIC<=NUMBER or SCOPE.METRIC>=NUMBER, SCOPE a stratum or "overall" (got "negative_control.hallucinationRate<0.08")\n');
    const unknown = await runCli(['shortlist', 'examples/scores.csv', '--require', 'nope.mean>=0.5']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--require: the bar names stratum "nope"/);
  });
  it('echoes the settings in JSON', async () => {
    const run = await runCli(['shortlist', 'examples/scores.csv', '--margin', '0.05', '--json']);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ best: 'alpha', margin: 0.05, confidenceLevel: 0.95, method: 't', multiplicity: 'holm', scores: 'examples/scores.csv', strata: null });
  });
});

describe('shortlist p-values and the gate bounds agree', () => {
  it.each([false, true])('raw p < α exactly when the gate bound is past −margin (cluster %s)', (cluster) => {
    for (const margin of [0, 0.05, 0.2]) {
      const r = shortlist(table, { margin, cluster });
      for (const c of r.candidates.flatMap((x) => x.comparisons)) {
        if (Number.isNaN(c.pValue) || c.standardError === 0) continue;
        expect(c.pValue < r.alpha, `${c.scope} margin ${margin}`).toBe(c.confidenceInterval[1] < -margin);
        expect(c.adjustedPValue).toBeGreaterThanOrEqual(c.pValue);
        if (cluster) expect(c.df).toBe((c.nClusters as number) - 1);
      }
    }
  });
});

describe('the JSDoc example', () => {
  it('shortlist(table, { margin: 0.05 }).finalists is alpha alone on examples/scores.csv', () => {
    expect(shortlist(table, { margin: 0.05 }).finalists).toEqual(['alpha']);
  });
});

describe('benchplan shortlist on tool results', () => {
  it('reads promptfoo files directly, like every command', async () => {
    const run = await runCli(['shortlist', 'examples/promptfoo/main.json', 'examples/promptfoo/pr.json', '--margin', '0.02', '--drop-unpaired', '--model-name', 'examples/promptfoo/main.json=main', '--model-name', 'examples/promptfoo/pr.json=pr', '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.candidates.map((c: { model: string }) => c.model)).toEqual(['main', 'pr']);
    expect(doc.dropped).toBeGreaterThan(0); // pr.json's tests differ from main.json's: unpaired items are left out with --drop-unpaired
  });
});

describe('closer than two slots (seeds/000)', () => {
  it('warns when one or two outcomes would flip a rate bar, and only then', () => {
    // Hand count: gamma has 10 fabrications in 100 negative-control slots; at <= 0.08 it passes with 8: 2 slots.
    // alpha has 6: it fails at 9, 3 slots away: no warning.
    const r = shortlist(table, { margin: 0.05, requirements: [parseRequirement('negative_control.hallucinationRate<=0.08')] });
    expect(r.warnings).toEqual(['gamma: 2 slots would change the verdict on negative_control.hallucinationRate<=0.08 (negative_control.hallucinationRate 0.1 on 100 slots): too close to separate']);
    // At <= 0.07, alpha fails at 8: 2 slots; gamma passes at 7: 3 slots.
    const s = shortlist(table, { margin: 0.05, requirements: [parseRequirement('negative_control.hallucinationRate<=0.07')] });
    expect(s.warnings).toEqual(['alpha: 2 slots would change the verdict on negative_control.hallucinationRate<=0.07 (negative_control.hallucinationRate 0.06 on 100 slots): too close to separate']);
  });
});
