import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importResults } from '../../src/import/import-results.js';
import { writeImportedScores } from '../../src/import/write.js';
import { formatNumber } from '../../src/report/table.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

// Numbers from tests/reference/markdown/markdown_reference.py (scipy, reading the bundled files
// without benchplan); --method t everywhere, so they are exact and need no resampling.
const reference = JSON.parse(readFileSync('tests/reference/markdown/markdown_reference.json', 'utf8')) as {
  gate: { dropped: number; checks: Array<{ stratum: string | null; n: number; estimate: number; lowerBound: number; upperBound: number }> };
  compare: { n: number; meanA: number; meanB: number; estimate: number; interval: [number, number]; pValue: number };
};

const dir = tempDir('benchplan-markdown-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scores = join(dir, 'scores-pr.csv');
writeImportedScores(scores, importResults('promptfoo', ['examples/promptfoo/main.json', 'examples/promptfoo/pr.json'], { itemKey: 'vars', model: ['main', 'pr'], stratumKey: 'stratum' }).rows);
const gate = ['gate', scores, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--drop-unpaired', '--method', 't'];

describe('--format markdown', () => {
  it('gate on the bundled promptfoo example: the verdict first, then the checks, exit 3 on a stratum that cannot be vouched for', async () => {
    const run = await runCli([...gate, '--per-stratum', '--format', 'markdown']);
    // negative_control: −4/30, below −margin, but its upper bound −0.0261 is not: no drop beyond 0.05 shown either.
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      [
        '⚠️ **INCONCLUSIVE**: no regression shown, and none ruled out, for pr against main: 1 of 3 strata inconclusive (negative_control).',
        '',
        '| check | n | estimate | 95% lower | 95% upper | threshold | verdict |',
        '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
        '| overall | 147 | 0.0136 | -0.0255 | - | -0.05 | ✅ pass |',
        '| routine | 88 | 0.0227 | -0.0151 | - | -0.05 | ✅ pass |',
        '| rare_clause | 29 | 0.138 | 0.0271 | - | -0.05 | ✅ pass |',
        '| negative_control | 30 | -0.133 | -0.241 | -0.0261 | -0.05 | ⚠️ INCONCLUSIVE |',
        '',
        '- negative_control: inconclusive: the estimate -0.133 is at or below -0.05, but the upper bound -0.0261 is not below it: a drop larger than the margin is not yet shown (more items would narrow it)',
        '',
        '<sub>candidate − baseline on 147 paired items (3 unpaired left out); passes when the one-sided 95% lower bound is above −margin, fails when the upper bound is below it, else inconclusive; method t, seed 0. benchplan gate.</sub>',
        '',
      ].join('\n'),
    );
    // The table's numbers are scipy's, to the digits shown.
    for (const c of reference.gate.checks) {
      expect(run.stdout).toContain(`| ${c.stratum ?? 'overall'} | ${c.n} | ${formatNumber(c.estimate)} | ${formatNumber(c.lowerBound)} |`);
      // The upper bound is computed only where the check did not pass; there it is scipy's ttest_1samp(alternative='less') bound.
      if (c.lowerBound <= -0.05) expect(run.stdout).toContain(`| ${formatNumber(c.lowerBound)} | ${formatNumber(c.upperBound)} | -0.05 |`);
    }
    expect(run.stdout).toContain(`(${reference.gate.dropped} unpaired left out)`);
  });

  it('gate without --per-stratum passes on the same data (exit 0)', async () => {
    const run = await runCli([...gate, '--format', 'markdown']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('✅ **PASS**: no regression of pr against main: pr − main ≥ -0.0255 (95% lower bound) > -0.05 (−margin).');
  });

  it('compare of one pair: the verdict and one row, numbers as scipy ttest_rel gives them', async () => {
    const run = await runCli(['compare', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--method', 't', '--format', 'markdown']);
    expect(run.code).toBe(0);
    const c = reference.compare;
    expect(run.stdout).toBe(
      [
        `**alpha scores higher than beta** by ${formatNumber(c.estimate)}; at 95% confidence the gap is at least ${formatNumber(c.interval[0])}.`,
        '',
        '| A − B | mean A | mean B | estimate | 95% t interval | p (t) | n |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
        `| alpha − beta | ${formatNumber(c.meanA)} | ${formatNumber(c.meanB)} | ${formatNumber(c.estimate)} | [${formatNumber(c.interval[0])}, ${formatNumber(c.interval[1])}] | < 0.0001 | ${c.n} |`,
        '',
        '<sub>400 paired items of examples/scores.csv; paired t over items, no resampling. benchplan compare.</sub>',
        '',
      ].join('\n'),
    );
    expect(c.pValue).toBeLessThan(0.0001);
  });

  it('compare of every pair, headline and sweep print the same numbers as their --json', async () => {
    const all = ['compare', 'examples/scores.csv', '--resamples', '499'];
    const md = (await runCli([...all, '--format', 'markdown'])).stdout;
    const json = JSON.parse((await runCli([...all, '--json'])).stdout);
    expect(md).toMatch(/^\*\*Distinguishable at 95% after Holm\*\*: /);
    for (const p of json.pairs) expect(md).toContain(`| ${p.a} − ${p.b} | ${formatNumber(p.estimate)} | [${formatNumber(p.confidenceInterval[0])}, ${formatNumber(p.confidenceInterval[1])}] |`);

    const headline = ['headline', 'examples/scores.csv', '--strata', 'examples/strata.yaml', '--resamples', '499'];
    const hmd = (await runCli([...headline, '--format', 'markdown'])).stdout;
    const hjson = JSON.parse((await runCli([...headline, '--json'])).stdout);
    expect(hmd).toMatch(/^Traffic-reweighted headline, 95% intervals: /);
    for (const m of hjson.models) expect(hmd).toContain(`${m.model} ${formatNumber(m.headline.estimate)} [${formatNumber(m.headline.confidenceInterval[0])}, ${formatNumber(m.headline.confidenceInterval[1])}]`);
    expect(hmd).toContain('| stratum | traffic | n | alpha | beta | gamma |');

    const sweep = ['sweep', 'examples/costs-stable.csv', '--policy', 'examples/policy.yaml', '--resamples', '0'];
    const smd = (await runCli([...sweep, '--format', 'markdown'])).stdout;
    const sjson = JSON.parse((await runCli([...sweep, '--json'])).stdout);
    expect(smd.split('\n')[0]).toBe(`✅ **Verdict: data.** No crossing inside the accepted band [4, 20] of the fabrication cost: the ranking ${sjson.intervals.find((i: { overlapsBand: boolean }) => i.overlapsBand).ranking.join(' < ')} (lowest cost first) holds across it.`);
    sjson.costs.forEach((c: { model: string; costPerDocument: number }, k: number) => expect(smd).toContain(`| ${k + 1} | ${c.model} | ${c.costPerDocument.toFixed(3)} |`));
  });

  it('refuses an unknown format, and --json with another format (exit 2)', async () => {
    const bad = await runCli(['compare', 'examples/scores.csv', '--format', 'html']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --format: must be one of table, json, markdown (got "html")\n');
    const both = await runCli(['--json', 'gate', scores, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--drop-unpaired', '--format', 'markdown']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --format: contradicts --json: give one of them (got "markdown")\n');
  });

  it('--format json is --json; --format table is the default', async () => {
    const args = ['gate', scores, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--drop-unpaired', '--method', 't'];
    expect((await runCli([...args, '--format', 'json'])).stdout).toBe((await runCli([...args, '--json'])).stdout);
    expect((await runCli([...args, '--format', 'table'])).stdout).toBe((await runCli(args)).stdout);
  });
});
