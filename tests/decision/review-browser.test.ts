import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScores, scoresFromRows } from '../../src/data/scores.js';
import { reviewSample } from '../../src/decision/review.js';
import { reviewPageHtml } from '../../src/decision/review-page.js';
import { tempDir } from '../helpers/files.js';
import { checkInBrowser } from '../report/browser.js';

describe('the review page in headless Chromium', () => {
  it('loads offline with no request, no script and no error, even with hostile item text', async () => {
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
    const [good, evil] = await checkInBrowser([page, bad]);
    expect(good).toMatchObject({ title: 'Review sample: alpha, beta', scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
    // An unescaped <img> would be refused by the page's CSP, which Chromium logs as a console error.
    expect(evil).toMatchObject({ title: 'Review sample: alpha, beta', scripts: 0, otherRequests: [], failedRequests: [], consoleErrors: [], pageErrors: [] });
  }, 120_000);
});
