import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyChartSpec } from '../../src/charts/history.js';
import { renderChartSvg } from '../../src/charts/render.js';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { runHistory } from '../../src/decision/history.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

// R 4.2.2 + survey, tests/reference/decision/history.R.
const reference = JSON.parse(readFileSync('tests/reference/decision/history.json', 'utf8')) as { scopes: string[]; estimate: number[]; low: Array<number | null>; high: Array<number | null>; pValue: Array<number | null>; adjustedPValue: Array<number | null> };
const DATES = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
const runs = DATES.map((date) => ({ date, table: loadScores(`examples/history/${date}.csv`) }));
const weights = [
  { stratum: 'routine', weight: 0.72 },
  { stratum: 'rare_clause', weight: 0.05 },
  { stratum: 'past_failure', weight: 0.03 },
  { stratum: 'negative_control', weight: 0.2 },
];

function close(actual: number, expected: number | null, tolerance = 1e-9) {
  if (expected === null || Number.isNaN(expected)) expect(actual).toBeNaN();
  else expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));
}

describe('runHistory', () => {
  const result = runHistory(runs, { weights });

  it("matches R's paired t tests, survey's reweighted difference and p.adjust(holm) for the vendor release week", () => {
    const changes = result.runs[2].models[0].changes;
    expect(changes.map((c) => c.scope)).toEqual(reference.scopes);
    changes.forEach((c, j) => {
      close(c.estimate, reference.estimate[j]);
      if (c.scope !== 'past_failure') {
        close(c.confidenceInterval[0], reference.low[j], 1e-7);
        close(c.confidenceInterval[1], reference.high[j], 1e-7);
      }
      close(c.pValue, reference.pValue[j], 1e-7);
      close(c.adjustedPValue, reference.adjustedPValue[j], 1e-7);
    });
    expect(changes.filter((c) => c.flagged).map((c) => c.scope)).toEqual(['rare_clause']);
  });

  it('flags only the vendor release, and marks the rotation as a version boundary', () => {
    expect(result.runs.map((r) => r.models[0].flagged)).toEqual([false, false, true, false]);
    expect(result.runs.map((r) => r.versionBoundary)).toEqual([false, false, false, true]);
    // Counted with `comm` on the two files' item columns: 15 ids only in 2026-11-23, 15 only in 2026-11-16.
    expect(result.runs[3]).toMatchObject({ added: 15, removed: 15, items: 80 });
    // The boundary week pairs only the 65 items both versions hold.
    expect(result.runs[3].models[0].changes[0].shared).toBe(65);
  });

  it('gives the reweighted headline of each run (hand: Σ traffic × stratum mean)', () => {
    // 2026-11-16, counted with awk: routine 16/20, rare 6/20, past 15/20, negative 18/20.
    close(result.runs[2].models[0].points[0].estimate, 0.72 * 0.8 + 0.05 * 0.3 + 0.03 * 0.75 + 0.2 * 0.9);
  });

  it('0/1 scores get intervals inside [0, 1]: Wilson per stratum, the smoothed beta interval for the headline', () => {
    // 2026-11-16 rare_clause 6/20 and negative_control 18/20; confirmed in R:
    // prop.test(6, 20, correct = FALSE)$conf.int → 0.145477244867604 0.518972818353523
    // prop.test(18, 20, correct = FALSE)$conf.int → 0.698966354771513 0.972133518786232
    const points = result.runs[2].models[0].points;
    const rare = points.find((p) => p.scope === 'rare_clause')!;
    close(rare.confidenceInterval[0], 0.145477244867604, 1e-12);
    close(rare.confidenceInterval[1], 0.518972818353523, 1e-12);
    const negative = points.find((p) => p.scope === 'negative_control')!;
    close(negative.confidenceInterval[0], 0.698966354771513, 1e-12);
    close(negative.confidenceInterval[1], 0.972133518786232, 1e-12);
    for (const run of result.runs) for (const p of run.models[0].points) {
      expect(p.confidenceInterval[0]).toBeGreaterThanOrEqual(0);
      expect(p.confidenceInterval[1]).toBeLessThanOrEqual(1);
    }
  });

  it('refuses dates out of order', () => {
    expect(() => runHistory([runs[1], runs[0]])).toThrow('--run: runs must come in increasing date order (2026-11-09 is followed by 2026-11-02) (got "2026-11-02")');
    expect(() => runHistory([{ date: '11/02/2026', table: runs[0].table }])).toThrow('--run: the date must be YYYY-MM-DD');
    // The report names its own flags in the same errors.
    const names = { runs: '--history-run', reruns: '--history-rerun' };
    expect(() => runHistory([{ date: '2026-11-31', table: runs[0].table }], { names })).toThrow('--history-run: the date must be YYYY-MM-DD (got "2026-11-31")');
    expect(() => runHistory([runs[0]], { names, attribution: { reruns: [{ date: '2026-11-05', table: runs[0].table }] } })).toThrow('--history-rerun: no run has this date');
  });

  it('refuses a model to follow that no run scored (it would print an empty history)', () => {
    expect(() => runHistory(runs, { models: ['nobody'] })).toThrow('--model: model "nobody" is in none of the runs (models: prod) (got "nobody")');
    expect(runHistory(runs, { models: ['prod'] }).models).toEqual(['prod']);
  });

  it('pairs on shared items only: an item only one run has does not enter the change', () => {
    const a = scoresFromRows([{ item: 'x', model: 'm', score: 0 }, { item: 'y', model: 'm', score: 1 }, { item: 'z', model: 'm', score: 1 }]);
    const b = scoresFromRows([{ item: 'x', model: 'm', score: 1 }, { item: 'y', model: 'm', score: 1 }, { item: 'w', model: 'm', score: 0 }]);
    const r = runHistory([{ date: '2026-01-01', table: a }, { date: '2026-01-08', table: b }]);
    expect(r.runs[1]).toMatchObject({ versionBoundary: true, added: 1, removed: 1 });
    expect(r.runs[1].models[0].changes[0]).toMatchObject({ scope: 'headline', shared: 2, estimate: 0.5 });
  });
});

describe('runHistory with benchmark versions', () => {
  it('labels each run with the version whose eval items it scored, and puts the boundary where the version changes', () => {
    const ids = (t: { items: string[] }) => t.items;
    const v3 = ids(runs[0].table);
    const v4 = ids(runs[3].table);
    const r = runHistory(runs, { versions: [{ version: 'big', items: [...v3, ...v4] }, { version: 'v3', items: v3 }, { version: 'v4', items: v4 }] });
    expect(r.runs.map((x) => x.version)).toEqual(['v3', 'v3', 'v3', 'v4']);
    expect(r.runs.map((x) => x.versionBoundary)).toEqual([false, false, false, true]);
    // A run on a subset of a version is that version: no boundary though its item set shrank.
    const sub = scoresFromRows(v3.slice(0, 40).map((item) => ({ item, model: 'prod', score: 1 })));
    const s = runHistory([runs[0], { date: '2026-11-05', table: sub }], { versions: [{ version: 'v3', items: v3 }] });
    expect(s.runs[1]).toMatchObject({ version: 'v3', versionBoundary: false, removed: 40 });
  });
});

describe('the history chart', () => {
  it('draws one panel per scope with the flagged run ringed', async () => {
    const spec = historyChartSpec(runHistory(runs, { weights })) as unknown as { facet: { sort: string[] }; data: { values: Array<{ kind: string; flagged?: boolean; scope: string; date: string }> } };
    expect(spec.facet.sort).toEqual(['headline', 'routine', 'rare_clause', 'past_failure', 'negative_control']);
    expect(spec.data.values.filter((v) => v.flagged).map((v) => `${v.scope} ${v.date}`)).toEqual(['rare_clause 2026-11-16']);
    expect(spec.data.values.filter((v) => v.kind === 'boundary')).toHaveLength(5);
    const svg = await renderChartSvg(spec as never);
    expect(svg).toContain('rare_clause');
  });
});

describe('benchplan history', () => {
  it('prints the table, the flagged change and the boundary, and writes the chart', async () => {
    const dir = tempDir('benchplan-history-');
    const chart = join(dir, 'history.svg');
    const run = await runCli(['history', ...DATES.flatMap((d) => ['--run', `${d}=examples/history/${d}.csv`]), '--strata', 'examples/strata.yaml', '--chart', chart]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/2026-11-16 prod rare_clause: -0\.45 \[-0\.689, -0\.211\] on 20 shared items \(Holm-adjusted p 0\.00349\)/);
    expect(run.stdout).toMatch(/\| version boundary at 2026-11-23: 15 items added, 15 removed/);
    expect(readFileSync(chart, 'utf8')).toMatch(/^<svg/);
  });
  it('names the archive version of each run with --archive', async () => {
    const dir = tempDir('benchplan-history-');
    const archive = join(dir, 'archive');
    expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', '2026Q3', '--date', '2026-07-01'])).code).toBe(0);
    expect((await runCli(['rotate', '--archive', archive, '--from', '2026Q3', '--incidents', 'examples/incidents.jsonl', '--scores', 'examples/rotation/scores-2026Q3.csv', '--apply', '--version', '2026Q4', '--date', '2026-10-01'])).code).toBe(0);
    const run = await runCli(['history', ...DATES.flatMap((d) => ['--run', `${d}=examples/history/${d}.csv`]), '--archive', archive, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).runs.map((x: { version: string }) => x.version)).toEqual(['2026Q3', '2026Q3', '2026Q3', '2026Q4']);
    expect(JSON.parse(run.stdout)).toMatchObject({ archive, strata: null, confidenceLevel: 0.95, attributionSettings: { method: 'bca', nResamples: 9999, seed: '0' } });
  });
  it('exits 2 on a run that is not DATE=FILE', async () => {
    const run = await runCli(['history', '--run', 'examples/history/2026-11-02.csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: --run: must be DATE=FILE, e.g. 2026-11-02=runs/w45.csv (got "examples/history/2026-11-02.csv")\n');
  });
});
