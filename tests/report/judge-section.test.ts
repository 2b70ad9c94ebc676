/**
 * The report's judge section (issue 30, item 6): the same numbers as `benchplan judge --json`
 * (validateJudge is checked against R and statsmodels in tests/judge), escaped HTML, and the
 * calibration chart drawn deterministically (report and `judge --chart`, same bytes twice).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeCalibrationSpec } from '../../src/charts/judge-calibration.js';
import { loadJudgeLabels } from '../../src/data/judge-labels.js';
import { loadScores } from '../../src/data/scores.js';
import { buildReport } from '../../src/report/build.js';
import { formatInterval, formatNumber, formatPercent } from '../../src/report/table.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const EXAMPLE = 'examples/judge-labels.csv';
const pct = (x: number) => formatPercent(x, 1);
const share = (s: { estimate: number; confidenceInterval: [number, number] }) => `${pct(s.estimate)} [${pct(s.confidenceInterval[0])}, ${pct(s.confidenceInterval[1])}]`;

describe('report: the judge section', () => {
  it('shows the numbers benchplan judge --json prints (agreement, candidate bias, probes, corrected rates)', async () => {
    const cli = await runCli(['judge', EXAMPLE, '--self-family', 'gamma', '--json']);
    expect(cli.code).toBe(0);
    const j = JSON.parse(cli.stdout);
    const doc = buildReport({ scores: loadScores('examples/scores.csv'), judge: { table: loadJudgeLabels(EXAMPLE), selfFamily: ['gamma'] } }, { version: 'test', inputs: [], nResamples: 199 });
    const section = doc.sections.find((s) => s.id === 'judge');
    expect(section).toBeDefined();
    const [agreement, calibration, candidates, probes, corrected, differences] = section!.tables;
    // Agreement: overall, per candidate, per stratum.
    const groups = [j.agreement.overall, ...j.agreement.byCandidate, ...j.agreement.byStratum];
    expect(agreement.rows).toHaveLength(groups.length);
    groups.forEach((g, k) => {
      expect(agreement.rows[k]).toEqual([g.group === 'all' ? 'all' : `${g.group} ${g.name}`, String(g.n), share(g.accuracy), formatNumber(g.kappa.estimate), formatNumber(g.kappa.standardError), share(g.sensitivity), share(g.specificity)]);
    });
    expect(agreement.rows.find((r) => r[0] === 'candidate gamma')?.[6]).toBe('35.7% [20.7%, 54.2%]');
    // Calibration: one bin per judge score of the 0/1 judge.
    expect(calibration.rows).toEqual(j.calibration.map((b: { low: number; n: number; judgeMean: number; humanMean: number; confidenceInterval: [number, number] }) => [formatNumber(b.low), String(b.n), formatNumber(b.judgeMean), formatNumber(b.humanMean), formatInterval(b.confidenceInterval)]));
    // The candidate-bias line per pair.
    j.candidates.forEach((c: { a: string; b: string; errorDifference: { estimate: number; confidenceInterval: [number, number] }; ppi: { estimate: number } }, k: number) => {
      expect(candidates.rows[k].slice(0, 3)).toEqual([`${c.a} − ${c.b}`, formatNumber(c.errorDifference.estimate), formatInterval(c.errorDifference.confidenceInterval)]);
    });
    expect(section!.paragraphs.join('\n')).toContain('alpha − gamma: the judge’s error (judge − human) differs by -0.15 [-0.247, -0.0526] between the two — a bias a judge-only A − B carries');
    // Probe verdicts: same permutations (999) and seed (0) as the CLI's defaults.
    expect(probes.rows.map((r) => [r[0], r[5], r[6]])).toEqual(j.probes.probes.map((p: { name: string; adjustedPValue: number; verdict: string }) => [p.name, formatNumber(p.adjustedPValue, 3), p.verdict]));
    expect(probes.rows.find((r) => r[0] === 'self-preference')?.[6]).toBe('bias detected');
    // Corrected rates and their differences, marked as corrected.
    expect(corrected.caption).toMatch(/CORRECTED/);
    expect(corrected.rows.map((r) => [r[0], r[4], r[5]])).toEqual(j.correctedRates.map((c: { model: string; estimate: number; confidenceInterval: [number, number] }) => [c.model, pct(c.estimate), `[${pct(c.confidenceInterval[0])}, ${pct(c.confidenceInterval[1])}]`]));
    expect(differences.rows.map((r) => r[3])).toEqual(j.correctedDifferences.map((d: { confidenceInterval: [number, number] }) => formatInterval(d.confidenceInterval)));
    expect(section!.warnings).toEqual(j.warnings);
  });

  it('escapes names from the labels file and writes the same bytes twice (chart included)', async () => {
    const dir = tempDir();
    const rows = ['item,model,judge,score'];
    for (let i = 0; i < 30; i++) for (const m of ['<b>x</b>', 'y&z']) rows.push(`i${i},${m},${(i * 7 + m.length) % 3 === 0 ? 0 : 1},${i % 4 === 0 ? '' : (i * 5 + m.length) % 4 === 0 ? 0 : 1}`);
    const labels = writeInput(dir, 'labels.csv', `${rows.join('\n')}\n`);
    const scores = writeInput(dir, 'scores.csv', 'item,model,score\na,p,1\nb,p,0\na,q,1\nb,q,1\n');
    const outs = [join(dir, 'one.html'), join(dir, 'two.html')];
    for (const out of outs) {
      const r = await runCli(['report', '--scores', scores, '--judge-labels', labels, '--resamples', '99', '-o', out]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const html = readFileSync(outs[0], 'utf8');
    expect(readFileSync(outs[1], 'utf8')).toBe(html);
    expect(html).toContain('id="judge"');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('y&amp;z');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toMatch(/<svg[^>]*>[\s\S]*Judge calibration against the human labels/);
  });

  it('judge --chart draws the calibration chart to SVG and PNG, the same bytes twice', async () => {
    const dir = tempDir();
    for (const ext of ['svg', 'png']) {
      const files = [join(dir, `a.${ext}`), join(dir, `b.${ext}`)];
      for (const f of files) expect((await runCli(['judge', EXAMPLE, '--permutations', '19', '--chart', f])).code).toBe(0);
      expect(readFileSync(files[0]).equals(readFileSync(files[1]))).toBe(true);
      expect(readFileSync(files[0]).length).toBeGreaterThan(1000);
    }
    expect(readFileSync(join(dir, 'a.svg'), 'utf8')).toContain('n = 275');
    const bad = await runCli(['judge', EXAMPLE, '--chart', join(dir, 'c.jpg')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--chart: must end in .svg or .png/);
  });

  it('the chart spec: the diagonal only for scores in [0, 1]; refuses an empty calibration', () => {
    const unit = judgeCalibrationSpec({ bins: [{ low: 0.1, high: 0.4, n: 10, judgeMean: 0.2, humanMean: 0.3, confidenceInterval: [0.1, 0.6] }] });
    expect(unit.layer).toHaveLength(4);
    const graded = judgeCalibrationSpec({ bins: [{ low: 1, high: 3, n: 10, judgeMean: 2, humanMean: 2.5, confidenceInterval: [2, 3] }, { low: 4, high: 10, n: 9, judgeMean: 7, humanMean: 6, confidenceInterval: [5, 7] }] });
    expect(graded.layer).toHaveLength(3);
    expect(() => judgeCalibrationSpec({ bins: [] })).toThrow(TypeError);
  });

  it('refuses --judge-self-family without --judge-labels, and a family that is not a candidate', async () => {
    const dir = tempDir();
    const out = join(dir, 'r.html');
    const alone = await runCli(['report', '--scores', 'examples/scores.csv', '--judge-self-family', 'gamma', '-o', out]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--judge-self-family: goes with --judge-labels/);
    const wrong = await runCli(['report', '--scores', 'examples/scores.csv', '--judge-labels', EXAMPLE, '--judge-self-family', 'delta', '-o', out]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--judge-self-family: is not a candidate in examples\/judge-labels.csv .*\(got "delta"\)/);
  });
});
