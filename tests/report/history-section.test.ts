/**
 * The report's history section (issue 18: the weekly dashboard in the report): it shows
 * runHistory's numbers unchanged (runHistory is checked against R in tests/decision), flags the
 * runs runHistory flags, and the CLI refuses a malformed or out-of-order --history-run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScores } from '../../src/data/scores.js';
import { loadStrata } from '../../src/data/strata-file.js';
import { runHistory } from '../../src/decision/history.js';
import { buildReport } from '../../src/report/build.js';
import { formatInterval, formatNumber } from '../../src/report/table.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

const dates = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
const runs = dates.map((date) => ({ date, table: loadScores(`examples/history/${date}.csv`) }));
const strata = loadStrata('examples/strata.yaml');

describe('report: the history section', () => {
  it("shows each run's reweighted headline as runHistory computes it, and flags what it flags", () => {
    const doc = buildReport({ scores: loadScores('examples/scores.csv'), strata, history: runs }, { version: 'test', inputs: [], nResamples: 199 });
    const section = doc.sections.find((s) => s.id === 'history');
    expect(section).toBeDefined();
    const expected = runHistory(runs, { weights: strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic as number })) });
    expect(expected.headline).toBe('reweighted');
    const table = section!.tables[0];
    expect(table.header).toEqual(['date', 'items', 'version', ...expected.models]);
    expected.runs.forEach((run, r) => {
      expect(table.rows[r][0]).toBe(run.date);
      for (const [k, model] of expected.models.entries()) {
        const entry = run.models.find((m) => m.model === model)!;
        const point = entry.points.find((p) => p.scope === 'headline')!;
        expect(table.rows[r][3 + k]).toBe(`${formatNumber(point.estimate)} ${formatInterval(point.confidenceInterval)}${entry.flagged ? ' ⚑' : ''}`);
      }
    });
    // The bundled weeks hold a vendor release: at least one change is flagged, and the text says which.
    const flaggedRuns = expected.runs.filter((run) => run.models.some((m) => m.flagged));
    expect(flaggedRuns.length).toBeGreaterThan(0);
    expect(section!.paragraphs.join(' ')).toContain(`Distinguishable changes: ${flaggedRuns[0].date}`);
    expect(section!.figure).toBeDefined();
  });

  it('splits the version boundary by drift attribution, as runHistory does, with the re-run when given', () => {
    const reruns = [{ date: '2026-11-23', table: loadScores('examples/history/2026-11-23-rerun.csv') }];
    const doc = buildReport({ scores: loadScores('examples/scores.csv'), strata, history: runs, historyReruns: reruns }, { version: 'test', inputs: [], nResamples: 199 });
    const section = doc.sections.find((s) => s.id === 'history')!;
    const expected = runHistory(runs, { weights: strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic as number })), attribution: { reruns, nResamples: 199, seed: '0' } });
    const a = expected.runs[3].attribution[0];
    const table = section.tables.find((t) => t.caption?.startsWith('At each version boundary'))!;
    expect(table.header).toEqual(['date', 'model', 'split from', 'change', 'system', 'instrument', 'retired items', 'verdict']);
    expect(table.rows).toEqual([
      ['2026-11-23', 'prod', 're-run examples/history/2026-11-23-rerun.csv', formatNumber(a.total), `${formatNumber(a.system.estimate)} ${formatInterval(a.system.confidenceInterval)}`, `${formatNumber(a.instrument.estimate)} ${formatInterval(a.instrument.confidenceInterval)}`, '', a.verdict.text],
    ]);
    expect(section.settings).toContainEqual(['drift attribution', 'bca, 199 resamples, seed 0']);
    // Without the re-run the shared items stand in, and the retired items' part is its own column.
    const bare = buildReport({ scores: loadScores('examples/scores.csv'), strata, history: runs }, { version: 'test', inputs: [], nResamples: 199 }).sections.find((s) => s.id === 'history')!;
    expect(bare.tables.find((t) => t.caption?.startsWith('At each version boundary'))!.rows[0][2]).toBe('65 shared items');
  });

  it('refuses --history-rerun without --history-run (exit 2)', async () => {
    const dir = tempDir('benchplan-report-rerun-');
    const run = await runCli(['report', '--scores', 'examples/scores.csv', '--history-rerun', '2026-11-23=examples/history/2026-11-23-rerun.csv', '-o', join(dir, 'r.html')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--history-rerun: goes with --history-run');
  });

  it('the CLI writes the section, and refuses a run that is not DATE=FILE or out of date order (exit 2)', async () => {
    const dir = tempDir('benchplan-report-history-');
    const out = join(dir, 'r.html');
    const ok = await runCli(['report', '--scores', 'examples/scores.csv', ...dates.flatMap((d) => ['--history-run', `${d}=examples/history/${d}.csv`]), '-o', out, '--resamples', '199']);
    expect(ok.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('The instrument over time');
    const bad = await runCli(['report', '--scores', 'examples/scores.csv', '--history-run', 'nodate', '-o', join(dir, 'b.html')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--history-run: must be DATE=FILE');
    const order = await runCli(['report', '--scores', 'examples/scores.csv', '--history-run', `${dates[1]}=examples/history/${dates[1]}.csv`, '--history-run', `${dates[0]}=examples/history/${dates[0]}.csv`, '-o', join(dir, 'c.html')]);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('--history-run: runs must come in increasing date order');
    // The date and re-run checks are runHistory's: they name the report's flags, not history's --run / --rerun.
    const date = await runCli(['report', '--scores', 'examples/scores.csv', '--history-run', '2026-11-31=examples/history/2026-11-02.csv', '-o', join(dir, 'd.html')]);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('error: --history-run: the date must be YYYY-MM-DD (got "2026-11-31")');
    const rerun = await runCli(['report', '--scores', 'examples/scores.csv', '--history-run', `${dates[0]}=examples/history/${dates[0]}.csv`, '--history-rerun', '2026-11-05=examples/history/2026-11-23-rerun.csv', '-o', join(dir, 'e.html')]);
    expect(rerun.code).toBe(2);
    expect(rerun.stderr).toContain('error: --history-rerun: no run has this date');
    expect(existsSync(join(dir, 'd.html')) || existsSync(join(dir, 'e.html'))).toBe(false);
  });
});
