/**
 * The report's ranking section (issue 26: "shortlist and the report use the same numbers" as
 * rank): every cell equals `benchplan rank --json` on the same scores, seed, resamples and level
 * (rankCandidates itself is checked against an exact enumeration in tests/decision/rank.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { buildReport } from '../../src/report/build.js';
import { formatInterval, formatNumber, formatPercent } from '../../src/report/table.js';
import { runCli } from '../helpers/cli.js';
import { join } from 'node:path';
import { tempDir, writeInput } from '../helpers/files.js';

describe('report: the ranking section', () => {
  it('shows the numbers benchplan rank --json prints, with the selection-adjusted bound', async () => {
    const cli = await runCli(['rank', 'examples/scores.csv', '--incumbent', 'gamma', '--cluster', '--resamples', '999', '--seed', 's1', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const r = JSON.parse(cli.stdout);
    const doc = buildReport({ scores: loadScores('examples/scores.csv') }, { version: 'test', inputs: [], nResamples: 999, seed: 's1', incumbent: 'gamma' });
    const section = doc.sections.find((s) => s.id === 'ranking');
    expect(section).toBeDefined();
    const rows = section!.tables[0].rows;
    expect(rows.map((row) => row[0])).toEqual(r.candidates.map((c: { model: string }) => c.model));
    r.candidates.forEach((c: { model: string; mean: number; pBest: number; rank: number; rankInterval: [number, number]; fromBest: { estimate: number; confidenceInterval: [number, number] }; fromIncumbent: { estimate: number; confidenceInterval: [number, number] } | null }, k: number) => {
      expect(rows[k].slice(1, 5)).toEqual([formatNumber(c.mean), formatPercent(c.pBest), formatNumber(c.rank), formatInterval(c.rankInterval)]);
      expect(rows[k][5]).toBe(c.model === r.leader ? 'leader' : `${formatNumber(c.fromBest.estimate)} ${formatInterval(c.fromBest.confidenceInterval)}`);
      expect(rows[k][6]).toBe(c.fromIncumbent === null ? 'incumbent' : `${formatNumber(c.fromIncumbent.estimate)} ${formatInterval(c.fromIncumbent.confidenceInterval)}`);
    });
    expect(section!.paragraphs.join(' ')).toContain(`selection-adjusted 95% lower bound ${formatNumber(r.selection.adjustedLowerBound)} (the naive ${formatNumber(r.selection.naiveLowerBound)}`);
  });
  it('is drawn for three or more models only; --incumbent with fewer, or not a model, is bad input (exit 2)', async () => {
    const dir = tempDir('benchplan-ranking-');
    const two = writeInput(dir, 'two.csv', 'item,model,score\ni1,a,1\ni1,b,0\ni2,a,0\ni2,b,1\ni3,a,1\ni3,b,1\n');
    const doc = buildReport({ scores: loadScores(two) }, { version: 'test', inputs: [], nResamples: 99 });
    expect(doc.sections.map((s) => s.id)).not.toContain('ranking');
    const fewer = await runCli(['report', '--scores', two, '--incumbent', 'a', '-o', join(dir, 'x.html')]);
    expect([fewer.code, fewer.stderr]).toEqual([2, expect.stringMatching(/^error: --incumbent: needs three or more models/)]);
    const unknown = await runCli(['report', '--scores', 'examples/scores.csv', '--incumbent', 'delta', '--resamples', '99', '-o', join(dir, 'y.html')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--incumbent: is not one of the models \(alpha, beta, gamma\) \(got "?delta"?\)/);
  });
});
