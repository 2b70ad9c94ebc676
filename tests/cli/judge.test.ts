import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const EXAMPLE = 'examples/judge-labels.csv';

describe('benchplan judge', () => {
  it('reports every section on the bundled example, in the new JSON vocabulary; same seed, same bytes', async () => {
    const args = ['judge', EXAMPLE, '--self-family', 'gamma', '--rerun', 'rerun', '--mde', '0.2', '--permutations', '199', '--json'];
    const one = await runCli(args);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    const r = JSON.parse(one.stdout);
    expect(r).toMatchObject({ table: EXAMPLE, kind: 'binary', nRows: 720, nLabelled: 360, models: ['alpha', 'beta', 'gamma'], selfFamily: ['gamma'], mde: 0.2, alpha: 0.05, nPermutations: 199, seed: '0', confidenceLevel: 0.95 });
    expect(r.agreement.overall.accuracy.confidenceInterval).toHaveLength(2);
    expect(r.agreement.overall.kappa).toHaveProperty('standardError');
    expect(r.candidates[0]).toHaveProperty('errorDifference.confidenceInterval');
    expect(r.candidates[0].labelsNeeded).toMatchObject({ mde: 0.2, judgedItems: 240 });
    expect(r.probes.probes.map((p: { name: string }) => p.name)).toEqual(['length', 'position', 'self-preference']);
    for (const p of r.probes.probes) expect(Object.keys(p)).toEqual(['name', 'estimate', 'standardError', 'confidenceInterval', 'statistic', 'pValue', 'adjustedPValue', 'verdict']);
    expect(r.drift.flipped.length).toBe(r.drift.up + r.drift.down);
    expect(r.correctedRates[0]).toMatchObject({ method: 'rogan-gladen-delta', model: 'alpha' });
    expect((await runCli(args)).stdout).toBe(one.stdout);
  });

  it('prints a readable report with the five sections', async () => {
    const run = await runCli(['judge', EXAMPLE, '--self-family', 'gamma', '--permutations', '99']);
    expect(run.code).toBe(0);
    for (const heading of ['1. Agreement', '2. Does the judge treat the candidates alike?', '3. Bias probes', '4. Drift: no --rerun column', '5. Judge-only rate CORRECTED']) expect(run.stdout).toContain(heading);
  });

  it('a graded judge: correlation and a calibration table; --threshold gives the 0/1 block', async () => {
    const graded = await runCli(['judge', 'examples/pool-judged.csv', '--json', '--permutations', '9']);
    expect(graded.code).toBe(0);
    const r = JSON.parse(graded.stdout);
    expect(r.kind).toBe('graded');
    expect(r.calibration.length).toBeGreaterThan(1);
    expect(r.agreement.overall.correlation.estimate).toBeGreaterThan(0);
    expect(r.correctedRates).toBeNull();
    const cut = JSON.parse((await runCli(['judge', 'examples/pool-judged.csv', '--threshold', '0.5', '--json'])).stdout);
    expect(cut).toMatchObject({ kind: 'binary', threshold: 0.5 });
    expect(cut.correctedRates).toHaveLength(2);
  });

  it('compare --judge shows the judge\'s error difference on A − B (the bias a judge-only comparison carries)', async () => {
    const run = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--json']);
    expect(run.code).toBe(0);
    const e = JSON.parse(run.stdout).judgeErrorDifference;
    // Recomputed from the file: per labelled item (judgeA − humanA) − (judgeB − humanB).
    const rows = readFileSync('examples/pool-judged.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const by = new Map<string, Record<string, [number, string]>>();
    for (const [item, model, , judge, score] of rows) by.set(item, { ...(by.get(item) ?? {}), [model]: [Number(judge), score] });
    const d = [...by.values()].filter((m) => m.alpha[1] !== '').map((m) => m.alpha[0] - Number(m.alpha[1]) - (m.beta[0] - Number(m.beta[1])));
    const mean = d.reduce((s, x) => s + x, 0) / d.length;
    expect(e.n).toBe(d.length);
    expect(e.estimate).toBeCloseTo(mean, 12);
    expect(e.confidenceInterval[0]).toBeLessThan(mean);
    const text = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge']);
    expect(text.stdout).toContain("The judge's bias on A − B");
  });

  describe('bad input: FILE:LINE: message (got VALUE), exit 2', () => {
    const header = 'item,model,stratum,judge,score\n';
    const cases: Array<[string, string, RegExp, string[]?]> = [
      ['a human label without a judge score', `${header}i1,a,s,1,1\ni1,b,s,,1\n`, /t\.csv:3: judge: a human label without a judge score.*\(got ""\)/],
      ['a non-numeric judge score', `${header}i1,a,s,1,1\ni1,b,s,yes,1\n`, /t\.csv:3: judge \(the judge score\) must be a finite number \(got "yes"\)/],
      ['a constant judge', `${header}i1,a,s,1,1\ni1,b,s,1,0\ni2,a,s,1,\ni2,b,s,1,\n`, /t\.csv:2: judge: the judge gave every row the same score.*\(got 1\)/],
      ['a stratum with no labels', `${header}i1,a,s,1,1\ni1,b,s,0,0\ni2,a,t,1,\ni2,b,t,0,\n`, /t\.csv:4: stratum "t" has no labelled row.*\(got "t"\)/],
      ['no labels at all', `${header}i1,a,s,1,\ni1,b,s,0,\n`, /t\.csv:2: score: no row has a human label/],
      ['a missing judge column', 'item,model,score\ni1,a,1\n', /t\.csv:1: missing column "judge"/],
      ['an unknown self-family candidate', `${header}i1,a,s,1,1\ni1,b,s,0,0\n`, /--self-family: is not a candidate.*\(got "zeta"\)/, ['--self-family', 'zeta']],
      ['a labelled row without a length', 'item,model,judge,score,length\ni1,a,1,1,\ni1,b,0,0,3\n', /t\.csv:2: length \(output length\) is needed on every labelled row.*\(got ""\)/],
      ['a duplicate row', `${header}i1,a,s,1,1\ni1,a,s,0,0\n`, /t\.csv:3: model: item "i1" and model "a" appear twice/],
    ];
    for (const [name, content, message, extra] of cases) {
      it(name, async () => {
        const file = writeInput(tempDir(), 't.csv', content);
        const run = await runCli(['judge', file, ...(extra ?? [])]);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(message);
      });
    }
  });
});
