import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir('benchplan-size-');

/**
 * A pilot whose per-item differences have sample variance exactly 428.9, the chapter's example:
 * 80 items with differences ±c, mean 0, so s² = 80c²/79, c = √(428.9 · 79/80).
 */
function chapterPilot(): string {
  const c = Math.sqrt((428.9 * 79) / 80);
  const lines = ['item,model,score'];
  for (let i = 0; i < 80; i++) {
    lines.push(`c${i},a,${50 + (i % 2 === 0 ? c : -c)}`, `c${i},b,50`);
  }
  return writeInput(dir, 'chapter.csv', `${lines.join('\n')}\n`);
}

describe('benchplan size', () => {
  it('gives the chapter example through the CLI: 264 items at mde 5, 1,648 at mde 2, and says what they mean', async () => {
    const pilot = chapterPilot();
    const five = await runCli(['size', pilot, '--a', 'a', '--b', 'b', '--mde', '5', '--budget', '400']);
    expect(five.code).toBe(0);
    expect(five.stdout).toContain('variance of the per-item difference 428.9');
    expect(five.stdout).toContain('To see a gap of 5 (a 95% interval no wider than ±2.50) you need 264 items.');
    // 2·1.959964·√(428.9/400) = 4.059 ("400 items resolve 4.1 points")
    expect(five.stdout).toContain('400 items resolve a gap of 4.06 by the interval rule');
    const two = await runCli(['--json', 'size', pilot, '--a', 'a', '--b', 'b', '--mde', '2']);
    expect(JSON.parse(two.stdout).n).toBe(1648);
  });

  it('prints the JSON fields of the issue, echoing the settings', async () => {
    const { code, stdout } = await runCli(['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--budget', '400', '--per-stratum', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    for (const key of ['varianceOfDifference', 'n', 'nForPower', 'mde', 'confidenceLevel', 'power', 'nUpper', 'mdeAtBudget', 'curve', 'warnings']) expect(r).toHaveProperty(key);
    expect(r).toMatchObject({ mde: 5, confidenceLevel: 0.95, power: 0.8, budget: 400, a: 'candidate', b: 'baseline', pilotItems: 80, n: 151 });
    expect(r.strata.map((s: Record<string, unknown>) => Object.keys(s))[0]).toEqual(
      expect.arrayContaining(['stratum', 'pilotItems', 'varianceOfDifference', 'n', 'nForPower']),
    );
    expect(r.curve.length).toBe(16);
    expect(r.curve[0]).toEqual({ mde: 2.5, n: expect.any(Number), nLower: expect.any(Number), nUpper: expect.any(Number), nForPower: expect.any(Number) });
  });

  it('leaves strata and plan out unless asked, and adds the plan with --strata', async () => {
    const plain = JSON.parse((await runCli(['--json', 'size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5'])).stdout);
    expect(plain.strata).toBeNull();
    expect(plain.plan).toBeNull();
    expect(plain.budget).toBeNull();
    const planned = await runCli(['size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--strata', 'examples/strata.yaml', '--budget', '400']);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('Traffic-reweighted headline (traffic weights)');
    expect(planned.stdout).toMatch(/warning: the pilot's stratum mix differs from the planned quotas/);
  });

  it('sizes a clustered pilot in items and clusters', async () => {
    const { code, stdout } = await runCli(['size', 'examples/scores.csv', '--a', 'alpha', '--b', 'beta', '--mde', '0.05']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/you need \d+ items \(allowing for clusters\)/);
    // deff = 1.28954: Miller's clustered variance over s²/N (tests/reference/sizing/pilot.R, millerVarianceOfMean), as compare reports.
    expect(stdout).toMatch(/Items share clusters: 159 clusters .* The design effect is 1\.29/);
  });

  it('tabulates n by K repeats for a pilot with repeats', async () => {
    const { code, stdout } = await runCli(['size', 'tests/reference/sizing/pilot-repeats.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '0.2']);
    expect(code).toBe(0);
    expect(stdout).toContain('Repeats: the pilot ran each item 4 times');
    expect(stdout).toMatch(/No number of repeats brings the count below \d+ items/);
  });

  it('is byte-stable', async () => {
    const args = ['--json', 'size', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline', '--mde', '5', '--per-stratum', '--strata', 'examples/strata.yaml'];
    expect((await runCli(args)).stdout).toBe((await runCli(args)).stdout);
  });
});

describe('benchplan size: bad input exits 2 with a clear message', () => {
  const header = 'item,model,score\n';
  const one = writeInput(dir, 'one.csv', `${header}x,a,1\nx,b,0\n`);
  const nostrata = writeInput(dir, 'nostrata.csv', `${header}x,a,1\nx,b,0\ny,a,0\ny,b,0\nz,a,1\nz,b,1\n`);
  const odd = writeInput(dir, 'odd.yaml', 'strata:\n  routine: { quota: 0.5, traffic: 0.5 }\n  rare_clause: { quota: 0.5, traffic: 0.5 }\n');
  const pilot = ['examples/pilot.csv', '--a', 'candidate', '--b', 'baseline'];
  const cases: Array<[string, string[], string | RegExp]> = [
    ['mde 0', [...pilot, '--mde', '0'], '--mde: must be a number > 0 (got "0")'],
    ['mde negative', [...pilot, '--mde', '-2'], '--mde: must be a number > 0 (got "-2")'],
    ['mde not a number', [...pilot, '--mde', 'five'], '--mde: must be a number > 0 (got "five")'],
    ['mde missing', [...pilot], "required option '--mde <gap>' not specified"],
    ['model missing from the pilot', ['examples/pilot.csv', '--a', 'candidate', '--b', 'gamma', '--mde', '5'], 'examples/pilot.csv: model "gamma" is not in the scores (models: baseline, candidate)'],
    ['the same model twice', ['examples/pilot.csv', '--a', 'candidate', '--b', 'candidate', '--mde', '5'], 'compare two different models'],
    ['--a missing', ['examples/pilot.csv', '--b', 'baseline', '--mde', '5'], 'error: --a: give both --a and --b, or neither (with two inputs of one model each)'],
    ['a one-item pilot', [one, '--a', 'a', '--b', 'b', '--mde', '1'], /one\.csv: the pilot has 1 item scored by both "a" and "b"; sizing needs at least 2/],
    ['confidence 1', [...pilot, '--mde', '5', '--confidence', '1'], '--confidence: must be a number > 0 and < 1 (got "1")'],
    ['power 1.5', [...pilot, '--mde', '5', '--power', '1.5'], '--power: must be a number > 0 and < 1 (got "1.5")'],
    ['power below α/2', [...pilot, '--mde', '5', '--power', '0.01'], "--power: must exceed the test's false-positive rate 0.025 at --confidence 0.95 (got \"0.01\")"],
    ['budget 1', [...pilot, '--mde', '5', '--budget', '1'], '--budget: must be a whole number ≥ 2 (got "1")'],
    ['budget fractional', [...pilot, '--mde', '5', '--budget', '2.5'], '--budget: must be a whole number ≥ 2 (got "2.5")'],
    ['alternative unknown', [...pilot, '--mde', '5', '--alternative', 'less'], '--alternative: must be one of two-sided, greater (got "less")'],
    ['--per-stratum without a stratum column', [nostrata, '--a', 'a', '--b', 'b', '--mde', '1', '--per-stratum'], /nostrata\.csv: --per-stratum needs a "stratum" column in the pilot/],
    ['a pilot stratum missing from --strata', [...pilot, '--mde', '5', '--strata', odd], /odd\.yaml: stratum "past_failure" of the pilot is not in the strata file \(strata: routine, rare_clause\)/],
    ['pilot file missing', ['no-such-pilot.csv', '--a', 'a', '--b', 'b', '--mde', '1'], 'no-such-pilot.csv: cannot read file'],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const { code, stderr, stdout } = await runCli(['size', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    if (typeof message === 'string') expect(stderr).toContain(message);
    else expect(stderr).toMatch(message);
  });
});
