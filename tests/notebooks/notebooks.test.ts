/**
 * Runs every notebook (so none rots) into a temporary folder and checks each page: its charts,
 * the numbers it exists to show, and that it opens cleanly in headless Chromium.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNotebooks, NOTEBOOKS } from '../../notebooks/build.js';
import { markdownHtml, sourceRegion } from '../../notebooks/lib/notebook.js';
import { checkInBrowser, type BrowserCheck } from '../report/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-notebooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written: string[] = [];
const text: Record<string, string> = {};
let seen: BrowserCheck[] = [];

beforeAll(async () => {
  written = await buildNotebooks(dir);
  for (const n of NOTEBOOKS) {
    // The page as a reader sees it: tags dropped, entities decoded (enough for these checks).
    text[n.file] = readFileSync(join(dir, n.file), 'utf8')
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  }
  seen = await checkInBrowser(written);
}, 240_000);

describe('notebooks', () => {
  it('every notebook writes its page, and the index links them all', () => {
    expect(written.map((p) => p.slice(dir.length + 1))).toEqual([...NOTEBOOKS.map((n) => n.file), 'index.html']);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    for (const n of NOTEBOOKS) expect(index).toContain(`href="${n.file}"`);
  });

  it('every page shows code, outputs and at least one chart, and runs no script', () => {
    for (const n of NOTEBOOKS) {
      const html = readFileSync(join(dir, n.file), 'utf8');
      expect(html).toContain('<pre class="code">');
      expect(html).toContain('<pre class="output">');
      expect(html.match(/<figure class="chart"><svg/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
      expect(html).not.toMatch(/<script\b/i);
    }
  });

  it('1: the enriched set resolves what the uniform set of the same size cannot', () => {
    const page = text['01-cancellation.html'];
    const row = (set: string) => new RegExp(`^${set}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+([\\d.]+)%\\s+(\\S+)\\s+([\\d.]+)%\\s+([\\d.]+)%$`, 'm').exec(page);
    const uniform = row('uniform');
    const enriched = row('enriched');
    expect(uniform?.slice(1, 5)).toEqual(['288', '20', '12', '80']); // 400 × traffic (72%, 5%, 3%, 20%)
    expect(enriched?.slice(1, 5)).toEqual(['80', '120', '100', '100']); // 400 × quota (20%, 30%, 25%, 25%)
    expect(Number(uniform![5])).toBeGreaterThan(Number(enriched![5])); // more of the uniform set cancels
    expect(Number(enriched![7])).toBeGreaterThan(Number(uniform![7])); // and it resolves alpha ahead more often
  });

  it('2: reproduces the chapter’s 264 and 1,648 and the quadratic cost', () => {
    const page = text['02-sizing.html'];
    // n = ceil(428.9 · (2 · 1.959964 / mde)²): 263.62 → 264 at mde 5, 1647.60 → 1648 at mde 2.
    expect(page).toContain('mde 5: n = 428.9 · (2 · 1.959964 / 5)² = 263.62 → 264 items');
    expect(page).toContain('mde 2: n = 428.9 · (2 · 1.959964 / 2)² = 1647.60 → 1648 items');
    expect(page).toContain('264 and 1,648, as in the chapter');
    expect(page).toContain('ratio 1648 / 264 = 6.242; (5 / 2)² = 6.250');
  });

  it('3: the ranking flips inside the band on the bundled data, and holds on the stable set', () => {
    const page = text['03-cost-sweep.html'];
    expect(page).toContain('alpha = beta at f = 13.8 (69/5), inside the band');
    expect(page).toContain('verdict: assumption');
    expect(page).toContain('The ranking flips inside the band.');
    expect(page).toMatch(/verdict: data; ranking steady < eager < cautious/);
  });

  it('4: each quarter’s verdict is the one planted', () => {
    const page = text['04-rotation-year.html'];
    const verdicts = [...page.matchAll(/^(\d{4}Q\d → \d{4}Q\d)\s+(nothing|system worse|test harder|system better)\s.*?(system \w+, test \w+)$/gm)].map((m) => [m[2], m[3]]);
    expect(verdicts).toEqual([
      ['nothing', 'system steady, test unchanged'],
      ['system worse', 'system worse, test unchanged'],
      ['test harder', 'system steady, test harder'],
      ['system better', 'system better, test unchanged'],
    ]);
    expect(page).toMatch(/intact: 5 versions/);
  });

  it('6: gamma is out on the per-stratum bar, the second sign-off is refused, the vendor week is flagged', () => {
    const page = text['06-decision.html'];
    expect(page).toContain('finalists: alpha (best: alpha)');
    // Hand count: gamma has 10 fabrications in 100 negative-control slots.
    expect(page).toContain('gamma: out, negative_control.hallucinationRate = 0.1 (95% interval 0.0552 to 0.174, n 100) fails the bar');
    expect(page).toMatch(/a sign-off "2026Q4-pick" already exists; sign-offs are write-once/);
    expect(page).toContain('verify: intact, sign-offs 2026Q4-pick, 3 evidence files re-hashed');
    expect(page).toMatch(/^2026-11-16\s+\S+ \[\S+, \S+\]\s+rare_clause -0\.45 \[-0\.689, -0\.211\]$/m);
    expect(page).toMatch(/^2026-11-23 \(new version\)/m);
  });

  it('every page opens in headless Chromium with every chart visible and nothing failing', () => {
    expect(seen.length).toBe(NOTEBOOKS.length + 1);
    for (const page of seen) {
      for (const chart of page.charts) {
        expect(chart.visible).toBe(true);
        expect(chart.width).toBeGreaterThan(200);
      }
      expect(page.failedRequests).toEqual([]);
      expect(page.otherRequests).toEqual([]);
      expect(page.consoleErrors).toEqual([]);
      expect(page.pageErrors).toEqual([]);
    }
  });
});

describe('the notebook page helper', () => {
  it('renders its Markdown subset with everything escaped', () => {
    expect(markdownHtml('## A <b>\n\ntext with `x < y`, **bold** and *em*\n\n- one\n- two\n  more\n\n> n = 1')).toBe(
      '<h2>A &lt;b&gt;</h2>\n<p>text with <code>x &lt; y</code>, <strong>bold</strong> and <em>em</em></p>\n<ul><li>one</li><li>two more</li></ul>\n<blockquote><p>n = 1</p></blockquote>',
    );
  });

  it('shows a region of the source, dedented, and fails on a missing one', () => {
    const source = 'a\n  // #region r\n    x = 1;\n      y;\n  // #endregion\nb';
    expect(sourceRegion(source, 'r')).toBe('x = 1;\n  y;');
    expect(() => sourceRegion(source, 'nope')).toThrow(/no region "nope"/);
  });
});
