import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { reviewSample } from '../../src/decision/review.js';
import { reviewPageHtml } from '../../src/decision/review-page.js';
import { runHistory } from '../../src/decision/history.js';
import { historyChartSpec } from '../../src/charts/history.js';
import { figureHtml, htmlPage } from '../../src/report/html.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { checkInBrowser } from '../report/browser.js';

describe('the decision pages in headless Chromium', () => {
  it('the review page loads offline with no request, no script and no error, even with hostile item text; the history chart draws', async () => {
    const dir = tempDir('benchplan-review-browser-');
    const table = loadScores('examples/rotation/scores-2026Q3.csv');
    const page = join(dir, 'review.html');
    writeFileSync(page, reviewPageHtml(reviewSample(table, { finalists: ['alpha', 'beta'], strata: ['rare_clause', 'negative_control'], perStratum: 5, reviewer: 'R. Ahmed' })));
    const hostile = scoresFromRows([
      { item: 'x"><img src="http://example.invalid/a.png">', model: 'alpha', stratum: 'rare', score: 1 },
      { item: 'x"><img src="http://example.invalid/a.png">', model: 'beta', stratum: 'rare', score: 0 },
    ]);
    const bad = join(dir, 'hostile.html');
    writeFileSync(bad, reviewPageHtml(reviewSample(hostile, { finalists: ['alpha', 'beta'], strata: ['rare'], items: new Map([['x"><img src="http://example.invalid/a.png">', { text: '<script>document.title="owned"</script>' }]]) })));
    const dates = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
    const rerun = { date: '2026-11-23', table: loadScores('examples/history/2026-11-23-rerun.csv') };
    const history = runHistory(dates.map((date) => ({ date, table: loadScores(`examples/history/${date}.csv`) })), { attribution: { reruns: [rerun], nResamples: 199 } });
    const dashboard = join(dir, 'history.html');
    writeFileSync(dashboard, htmlPage('History', await figureHtml({ spec: historyChartSpec(history), caption: 'the weekly dashboard' }, 'history')));
    // The report's history section, with the re-run: its chart and the attribution table in one page.
    const report = join(dir, 'report.html');
    const made = await runCli(['report', '--scores', 'examples/scores.csv', '--strata', 'examples/strata.yaml', ...dates.flatMap((d) => ['--history-run', `${d}=examples/history/${d}.csv`]), '--history-rerun', '2026-11-23=examples/history/2026-11-23-rerun.csv', '--resamples', '199', '-o', report]);
    expect(made.code).toBe(0);
    const [good, evil, chart, page2] = await checkInBrowser([page, bad, dashboard, report]);
    // The small multiples draw as one visible SVG with every panel's title in it.
    expect(chart).toMatchObject({ scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
    expect(chart.charts).toHaveLength(1);
    expect(chart.charts[0].visible).toBe(true);
    expect(chart.charts[0].width).toBeGreaterThan(600);
    for (const panel of ['headline', 'routine', 'rare_clause', 'past_failure', 'negative_control']) expect(chart.chartTexts).toContain(panel);
    // Every panel labels the version boundary with the drift attribution's split.
    expect(chart.chartTexts.filter((t) => /^sys [+−±][\d.]+ · test [+−±][\d.]+$/.test(t))).toHaveLength(5);
    expect(page2).toMatchObject({ scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
    expect(page2.charts.every((c) => c.visible)).toBe(true);
    expect(page2.chartTexts.some((t) => /^sys [+−±][\d.]+ · test /.test(t))).toBe(true);
    expect(good).toMatchObject({ title: 'Review sample: alpha, beta', scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
    // An unescaped <img> would be refused by the page's CSP, which Chromium logs as a console error.
    expect(evil).toMatchObject({ title: 'Review sample: alpha, beta', scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
  }, 120_000);
});
