import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportHtml } from '../../src/report/index.js';
import { runCli } from '../helpers/cli.js';
import { checkInBrowser, type BrowserCheck } from './browser.js';
import { fixtureDocument } from './fixture-document.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every bundled example as the demo gives them (fewer resamples: the layout is what is checked). */
const FULL_REPORT_ARGS = [
  'report', '--scores', 'examples/scores.csv', '--pilot', 'examples/pilot.csv', '--a', 'candidate', '--b', 'baseline',
  '--strata', 'examples/strata.yaml', '--policy', 'examples/policy.yaml', '--annotations', 'examples/annotations.csv', '--resamples', '499',
  '--archive', join(dir, 'archive'),
];

const pages: Record<string, BrowserCheck> = {};

beforeAll(async () => {
  const archive = join(dir, 'archive');
  expect((await runCli(['freeze', 'examples/manifest.yaml', '--archive', archive, '--version', '2026Q3', '--date', '2026-10-01'])).code).toBe(0);
  expect((await runCli(['rotate', '--archive', archive, '--from', '2026Q3', '--incidents', 'examples/incidents.jsonl', '--apply', '--version', '2026Q4', '--date', '2027-01-01'])).code).toBe(0);
  const fixture = join(dir, 'fixture.html');
  writeFileSync(fixture, await reportHtml(fixtureDocument()));
  const report = join(dir, 'report.html');
  const run = await runCli([...FULL_REPORT_ARGS, '-o', report]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const broken = join(dir, 'broken.html');
  writeFileSync(
    broken,
    (await reportHtml(fixtureDocument())).replace('<figure class="chart">', '<figure class="chart" style="display:none">').replace('</main>', '<img src="missing-file.png" alt=""></main>'),
  );
  const [a, b, c] = await checkInBrowser([fixture, report, broken]);
  Object.assign(pages, { fixture: a, report: b, broken: c });
}, 180_000);

function expectClean(seen: BrowserCheck, charts: number): void {
  expect(seen.charts.length).toBe(charts);
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
}

describe('reports in headless Chromium', () => {
  it('benchplan report on every bundled example: every chart visible, nothing loaded, no error', () => {
    expect(pages.report.title).toBe('benchplan report');
    expectClean(pages.report, pages.report.charts.length);
    // compare, strata, sweep, sizing, allocation, agreement, archive
    expect(pages.report.charts.length).toBe(7);
    expect(pages.report.chartTexts).toContain('alpha − beta');
  });

  it('a report of every chart kind, with a script-shaped model name: shown as text, never run', () => {
    expect(pages.fixture.title).toBe('benchplan report (fixture)');
    expectClean(pages.fixture, 7);
    expect(pages.fixture.chartTexts.some((t) => t.includes('<script>alert(1)</script>'))).toBe(true);
  });

  it('the check itself catches what it looks for: a hidden chart, a blocked load, a console error', () => {
    const seen = pages.broken;
    expect(seen.charts[0].visible).toBe(false);
    expect(seen.charts[0].width).toBe(0);
    // The content security policy refuses the image and says so on the console.
    expect(seen.consoleErrors.join('\n')).toMatch(/Content Security Policy|img-src/);
  });
});
