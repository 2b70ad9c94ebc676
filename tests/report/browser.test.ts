import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportHtml } from '../../src/report/index.js';
import { checkInBrowser } from './browser.js';
import { EVIL, fixtureDocument } from './fixture-document.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the report in headless Chromium', () => {
  it('shows every chart, loads nothing, logs no error, and runs no injected script', async () => {
    const path = join(dir, 'fixture.html');
    writeFileSync(path, await reportHtml(fixtureDocument()));
    const seen = await checkInBrowser(path);
    expect(seen.title).toBe('benchplan report (fixture)');
    expect(seen.charts.length).toBe(7);
    for (const chart of seen.charts) {
      expect(chart.visible).toBe(true);
      expect(chart.width).toBeGreaterThan(200);
      expect(chart.height).toBeGreaterThan(80);
    }
    expect(seen.failedRequests).toEqual([]);
    expect(seen.otherRequests).toEqual([]);
    expect(seen.consoleErrors).toEqual([]);
    expect(seen.pageErrors).toEqual([]);
    expect(seen.scripts).toBe(0);
    // The injected name is shown as text, not run.
    expect(seen.chartTexts.some((t) => t.includes('<script>alert(1)</script>'))).toBe(true);
    expect(EVIL).toContain('onerror');
  });

  it('the check itself catches what it looks for: a hidden chart, a blocked load, a console error', async () => {
    const path = join(dir, 'broken.html');
    const html = (await reportHtml(fixtureDocument()))
      .replace('<figure class="chart">', '<figure class="chart" style="display:none">')
      .replace('</main>', '<img src="missing-file.png" alt=""></main>');
    writeFileSync(path, html);
    const seen = await checkInBrowser(path);
    expect(seen.charts[0].visible).toBe(false);
    expect(seen.charts[0].width).toBe(0);
    // The content security policy refuses the image and says so on the console.
    expect(seen.consoleErrors.join('\n')).toMatch(/Content Security Policy|img-src/);
    expect(seen.failedRequests.length + seen.consoleErrors.length).toBeGreaterThan(0);
  });
});
