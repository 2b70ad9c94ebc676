import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { combineVerdicts, gateVerdict, verdictExitCode, VERDICT_EXIT_CODES } from '../../src/gate/verdict.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

const dir = tempDir('benchplan-verdicts-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 0/1 scores table: `agree` items both right, `lost` items only the baseline right, `won` only the candidate. */
function table(name: string, counts: { agree: number; lost?: number; won?: number }): string {
  const rows = ['item,model,score'];
  let i = 0;
  const add = (main: number, pr: number, k: number) => {
    for (let j = 0; j < k; j++, i++) rows.push(`q${i},main,${main}`, `q${i},pr,${pr}`);
  };
  add(1, 1, counts.agree);
  add(1, 0, counts.lost ?? 0);
  add(0, 1, counts.won ?? 0);
  const path = join(dir, name);
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

describe('gateVerdict, combineVerdicts, verdictExitCode (the JSDoc examples)', () => {
  it('decides by the two one-sided bounds', () => {
    expect(gateVerdict({ lowerBound: -0.01, upperBound: 0.03, threshold: -0.02 })).toBe('pass');
    expect(gateVerdict({ lowerBound: -0.07, upperBound: 0, threshold: -0.02 })).toBe('inconclusive');
    expect(gateVerdict({ lowerBound: -0.2, upperBound: -0.05, threshold: -0.02 })).toBe('fail');
    // A bound equal to −margin decides nothing (strict inequalities on both sides).
    expect(gateVerdict({ lowerBound: -0.02, upperBound: -0.02, threshold: -0.02 })).toBe('inconclusive');
    // NaN bounds and a failed validity condition are inconclusive, whatever the numbers.
    expect(gateVerdict({ lowerBound: NaN, upperBound: NaN, threshold: -0.02 })).toBe('inconclusive');
    expect(gateVerdict({ lowerBound: 0.5, upperBound: 0.6, threshold: -0.02, valid: false })).toBe('inconclusive');
    expect(() => gateVerdict({ lowerBound: 0, upperBound: 0, threshold: NaN })).toThrow(RangeError);
  });

  it('combines checks by intersection–union: any fail fails, then any inconclusive, else pass', () => {
    expect(combineVerdicts(['pass', 'inconclusive', 'pass'])).toBe('inconclusive');
    expect(combineVerdicts(['pass', 'inconclusive', 'fail'])).toBe('fail');
    expect(combineVerdicts(['pass', 'pass'])).toBe('pass');
    expect(() => combineVerdicts([])).toThrow(RangeError);
  });

  it('maps verdicts to 0, 1, 3, and inconclusive to pass or fail on request', () => {
    expect(VERDICT_EXIT_CODES).toEqual({ pass: 0, fail: 1, inconclusive: 3 });
    expect(verdictExitCode('inconclusive', 'fail')).toBe(1);
    expect(verdictExitCode('inconclusive', 'pass')).toBe(0);
    expect(verdictExitCode('inconclusive', null)).toBe(3);
    expect(verdictExitCode('fail', 'pass')).toBe(1); // the flag maps inconclusive only
  });
});

describe('issue 26: three verdicts with three exit codes', () => {
  it('48 items that agree everywhere at --margin 0.02: inconclusive (exit 3) with the 149 items that would pass', async () => {
    // Tango (n/(n − 1) correction), no discordant item: lower bound −z²/(N − 1 + z²), which clears −0.02
    // when N > 1 + z²/0.02 − z² = 133.57, z = Φ⁻¹(0.95) = 1.6449 (scipy.stats.norm.ppf(0.95)): 134 items; and the
    // exact score test at the margin, whose p on N agreeing items is 0.98^N, needs N ≥ ln 0.05 / ln 0.98
    // = 148.28: 149 items (docs/method-binary.md).
    const run = await runCli(['gate', table('agree48.csv', { agree: 48 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--json']);
    expect(run.code).toBe(3);
    const json = JSON.parse(run.stdout);
    expect(json.verdict).toBe('inconclusive');
    expect(json.overall.itemsNeeded).toBe(149);
    const z = 1.6448536269514722;
    expect(json.overall.lowerBound).toBeCloseTo(-(z * z) / (47 + z * z), 12);
    // ... and 149 agreeing items pass, 148 do not (the bound clears from 134, the exact test from 149).
    expect((await runCli(['gate', table('agree149.csv', { agree: 149 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02'])).code).toBe(0);
    expect((await runCli(['gate', table('agree148.csv', { agree: 148 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02'])).code).toBe(3);
    expect((await runCli(['gate', table('agree133.csv', { agree: 133 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02'])).code).toBe(3);
  });

  it('a real drop beyond the margin fails (exit 1); a clear non-inferiority passes (exit 0)', async () => {
    // 100 items, the candidate loses 25 the baseline got right: −0.25, far below −0.02.
    const drop = await runCli(['gate', table('drop.csv', { agree: 75, lost: 25 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--json']);
    expect(drop.code).toBe(1);
    const d = JSON.parse(drop.stdout);
    expect(d.verdict).toBe('fail');
    expect(d.overall.upperBound).toBeLessThan(-0.02);
    expect(d.overall.itemsNeeded).toBeNull();
    const clear = await runCli(['gate', table('clear.csv', { agree: 400, won: 3, lost: 1 }), '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--json']);
    expect(clear.code).toBe(0);
    expect(JSON.parse(clear.stdout).verdict).toBe('pass');
  });

  it('--per-stratum names the inconclusive stratum, and a fail in one stratum wins over an inconclusive one', async () => {
    const rows = ['item,model,score,stratum'];
    for (let i = 0; i < 400; i++) rows.push(`a${i},main,1,routine`, `a${i},pr,1,routine`);
    for (let i = 0; i < 10; i++) rows.push(`r${i},main,1,rare`, `r${i},pr,1,rare`);
    const path = join(dir, 'strata.csv');
    writeFileSync(path, `${rows.join('\n')}\n`);
    const run = await runCli(['gate', path, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--per-stratum']);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/1 of 2 strata inconclusive \(rare\)/);
    for (let i = 0; i < 60; i++) rows.push(`n${i},main,1,neg`, `n${i},pr,${i < 30 ? 0 : 1},neg`);
    writeFileSync(path, `${rows.join('\n')}\n`);
    const mixed = await runCli(['gate', path, '--baseline', 'main', '--candidate', 'pr', '--margin', '0.02', '--per-stratum', '--json']);
    expect(mixed.code).toBe(1);
    const j = JSON.parse(mixed.stdout);
    expect([j.verdict, j.inconclusive]).toEqual(['fail', ['rare']]);
    expect(j.strata.map((c: { verdict: string }) => c.verdict)).toEqual(['routine', 'rare', 'neg'].map((h) => ({ routine: 'pass', rare: 'inconclusive', neg: 'fail' })[h]));
  });
});
