import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const dir = tempDir();
const goodPolicy = 'owner: Risk\ndecided: 2026-10-01\ncosts: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 }\nsweep: { vary: fabrication, band: [4, 20] }\n';
const goodScores = 'item,model,cluster,outcome\ns1,a,d1,hit\ns1,b,d1,miss\ns2,a,d1,fabrication\ns2,b,d1,correct_absent\n';

describe('benchplan sweep --json', () => {
  it('prints the fields the issue asks for, on the bundled example', async () => {
    const { code, stdout, stderr } = await runCli(['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '0', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.ranking).toEqual(['alpha', 'beta', 'gamma']);
    expect(report.costs.map((c: { model: string }) => c.model)).toEqual(['alpha', 'beta', 'gamma']);
    expect(report.costs[0]).toMatchObject({ model: 'alpha', costPerDocument: 103 / 159, counts: { hit: 259, miss: 27, fabrication: 6, wrong_span: 14, correct_absent: 94 } });
    expect(report.crossings).toEqual([{ value: 13.8, models: ['alpha', 'beta'], fraction: '69/5', cheaperBelow: 'alpha', cheaperAbove: 'beta', inBand: true }]);
    expect(report.crossingsInBand).toEqual(report.crossings);
    expect(report.verdict).toBe('assumption');
    expect(report.band).toEqual([4, 20]);
    expect(report.owner).toBe('Head of Regulatory Risk');
    expect(report.decided).toBe('2026-10-01');
    // The last interval is unbounded: Infinity becomes null in JSON.
    expect(report.intervals[1]).toEqual({ from: 13.8, to: null, ranking: ['beta', 'alpha', 'gamma'], containsPolicy: false, overlapsBand: true });
    expect(report).toMatchObject({ seed: '0', nResamples: 0, confidenceLevel: 0.95, uncertainty: null, alternative: null });
  });

  it('is byte-identical run to run', async () => {
    const args = ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '0', '--json', '--alternative-scores', 'examples/scores-rescored.csv'];
    const one = await runCli(args);
    const two = await runCli(args);
    expect(one.stdout).toBe(two.stdout);
    expect(JSON.parse(one.stdout).alternative).toMatchObject({ rankingSurvives: true, verdictSurvives: false, verdict: 'data', crossingsInBand: [] });
  });

  it('adds the paired bootstrap over documents, echoing its settings', async () => {
    const { code, stdout } = await runCli(['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '400', '--seed', '7', '--method', 'percentile', '--confidence', '0.9', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ seed: '7', nResamples: 400, confidenceLevel: 0.9 });
    expect(report.uncertainty).toMatchObject({ unit: 'document', documents: 159, leader: 'alpha', method: 'percentile', confidenceLevel: 0.9, nResamples: 400, seed: '7' });
    expect(report.uncertainty.leaderAheadProbability).toBeGreaterThan(0.5);
    expect(report.uncertainty.gaps.map((g: { model: string }) => g.model)).toEqual(['beta', 'gamma']);
    expect(report.uncertainty.crossings).toHaveLength(1);
    const [low, high] = report.uncertainty.crossings[0].confidenceInterval;
    expect(low).toBeLessThan(13.8);
    expect(high).toBeGreaterThan(13.8);
  });

  it('says data on the stable example', async () => {
    const { code, stdout } = await runCli(['sweep', 'examples/costs-stable.csv', '--policy', 'examples/policy.yaml', '--resamples', '0', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'data', crossingsInBand: [], ranking: ['steady', 'eager', 'cautious'] });
  });
});

describe('benchplan sweep --drop-unpaired', () => {
  it('leaves out the unpaired item and says so', async () => {
    const scores = writeInput(dir, 'drop.csv', 'item,model,outcome\ns1,a,hit\ns1,b,miss\ns2,a,hit\n');
    const policy = writeInput(dir, 'drop.yaml', goodPolicy);
    const { code, stdout } = await runCli(['sweep', scores, '--policy', policy, '--resamples', '0', '--drop-unpaired', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.items).toBe(1);
    expect(report.warnings).toContain('1 item not scored by every model left out');
  });
});

describe('benchplan sweep (table)', () => {
  it('shows the ranking per interval of the swept cost, with the owner and date next to every ranking', async () => {
    const { code, stdout } = await runCli(['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '0', '--alternative-scores', 'examples/scores-rescored.csv']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/0 – 13\.8 +alpha < beta < gamma +policy 8, in band/);
    expect(stdout).toMatch(/13\.8 – ∞ +beta < alpha < gamma +in band/);
    expect(stdout).toMatch(/alpha and beta tie at fabrication = 13\.8 \(= 69\/5\)/);
    expect(stdout).toMatch(/Verdict: assumption/);
    const signed = 'owner: Head of Regulatory Risk, decided 2026-10-01';
    for (const heading of ["Ranking at the policy's costs", 'Ranking by the cost of fabrication', 'Other scoring of the same outputs']) {
      const line = stdout.split('\n').find((l) => l.startsWith(heading));
      expect(line, heading).toContain(signed);
    }
  });

  it('says how far beyond the band a data verdict holds', async () => {
    const { stdout } = await runCli(['sweep', 'examples/costs-stable.csv', '--policy', 'examples/policy.yaml', '--resamples', '0']);
    expect(stdout).toMatch(/Verdict: data/);
    expect(stdout).toMatch(/holds from 3\.33333 to 26\.6667: 0\.666667 below the band and 6\.66667 above it/);
  });
});

/** A bad input: files to write, the arguments, and a piece of the message it must produce (exit 2). */
interface BadInput {
  name: string;
  files?: Record<string, string>;
  args: string[];
  message: string | RegExp;
}

const cases: BadInput[] = [
  { name: 'no --policy', args: ['sweep', 'examples/scores.csv'], message: /required option '--policy <file>' not specified/ },
  { name: 'policy file missing', args: ['sweep', 'examples/scores.csv', '--policy', 'nope.yaml'], message: /nope\.yaml/ },
  {
    name: 'policy without a sweep section',
    files: { 'nosweep.yaml': 'owner: Risk\ndecided: 2026-10-01\ncosts: { hit: 0, miss: 1, fabrication: 8, wrong_span: 2, correct_absent: 0 }\n' },
    args: ['sweep', 'examples/scores.csv', '--policy', '@nosweep.yaml'],
    message: /nosweep\.yaml: sweep: the policy has no sweep section/,
  },
  {
    name: 'an outcome kind the policy gives no cost',
    files: { 'nomiss.yaml': 'owner: Risk\ndecided: 2026-10-01\ncosts: { hit: 0, fabrication: 8, wrong_span: 2, correct_absent: 0 }\nsweep: { vary: fabrication, band: [4, 20] }\n' },
    args: ['sweep', 'examples/scores.csv', '--policy', '@nomiss.yaml'],
    message: /nomiss\.yaml: costs\.miss: 200 outcomes are "miss" \(alpha: 27, beta: 90, gamma: 83\) but the policy gives "miss" no cost; add costs\.miss \(got "miss"\)/,
  },
  {
    name: 'swept cost with no base value',
    files: { 'novary.yaml': 'owner: Risk\ndecided: 2026-10-01\ncosts: { miss: 1 }\nsweep: { vary: fabrication, band: [4, 20] }\n' },
    args: ['sweep', 'examples/scores.csv', '--policy', '@novary.yaml'],
    message: /novary\.yaml:4: sweep\.vary: the swept cost needs a value in costs too \(got "fabrication"\)/,
  },
  {
    name: 'scores with no outcome column',
    files: { 'plain.csv': 'item,model,score\ns1,a,1\ns1,b,0\n', 'p.yaml': goodPolicy },
    args: ['sweep', '@plain.csv', '--policy', '@p.yaml'],
    message: /plain\.csv: has no "outcome" column: cost scoring needs one outcome a row/,
  },
  {
    name: 'unknown outcome in the scores',
    files: { 'odd.csv': 'item,model,outcome\ns1,a,hit\ns1,b,blunder\n', 'p.yaml': goodPolicy },
    args: ['sweep', '@odd.csv', '--policy', '@p.yaml'],
    message: /odd\.csv:3: outcome must be one of hit, miss/,
  },
  {
    name: 'unpaired items',
    files: { 'unpaired.csv': 'item,model,outcome\ns1,a,hit\ns1,b,miss\ns2,a,hit\n', 'p.yaml': goodPolicy },
    args: ['sweep', '@unpaired.csv', '--policy', '@p.yaml'],
    message: /unpaired\.csv: 1 item is not scored by both "a" and "b": "s2"; pass --drop-unpaired/,
  },
  { name: '--resamples not a whole number', args: ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--resamples', '2.5'], message: '--resamples: must be a whole number ≥ 0 (got "2.5")' },
  { name: '--confidence out of range', args: ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--confidence', '95'], message: '--confidence: must be a number > 0 and < 1 (got "95")' },
  { name: '--method unknown', args: ['sweep', 'examples/scores.csv', '--policy', 'examples/policy.yaml', '--method', 'wald'], message: /--method: must be one of auto, bca, percentile, basic, t \(got "wald"\)/ },
  {
    name: 'alternative scores with other models',
    files: { 'one.csv': goodScores, 'two.csv': goodScores.replaceAll(',b,', ',c,'), 'p.yaml': goodPolicy },
    args: ['sweep', '@one.csv', '--policy', '@p.yaml', '--resamples', '0', '--alternative-scores', '@two.csv'],
    message: /two\.csv: the alternative scoring must score the same models as .*one\.csv \(a, b\) \(got "a,c"\)/,
  },
  {
    name: 'alternative scores file missing',
    files: { 'one.csv': goodScores, 'p.yaml': goodPolicy },
    args: ['sweep', '@one.csv', '--policy', '@p.yaml', '--resamples', '0', '--alternative-scores', '@missing.csv'],
    message: /missing\.csv/,
  },
];

describe('benchplan sweep bad input (exit 2, message names file, field and value)', () => {
  it.each(cases)('$name', async ({ files, args, message }) => {
    for (const [name, content] of Object.entries(files ?? {})) writeInput(dir, name, content);
    const resolved = args.map((arg) => (arg.startsWith('@') ? `${dir}/${arg.slice(1)}` : arg));
    const { code, stdout, stderr } = await runCli(resolved);
    expect(stdout).toBe('');
    expect(code).toBe(2);
    if (typeof message === 'string') expect(stderr).toContain(message);
    else expect(stderr).toMatch(message);
  });
});
