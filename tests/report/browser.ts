import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { findChromium } from '../helpers/chromium.js';


/** What a page looked like in a real browser. */
export interface BrowserCheck {
  /** Bounding box of every `figure.chart svg`, in CSS pixels. */
  charts: Array<{ width: number; height: number; visible: boolean }>;
  /** Text in the SVGs' <text> elements as the browser sees it (the first few). */
  chartTexts: string[];
  failedRequests: string[];
  /** Requests other than the page itself (a self-contained page makes none). */
  otherRequests: string[];
  consoleErrors: string[];
  pageErrors: string[];
  title: string;
  /** Whether any script element exists in the DOM. */
  scripts: number;
  /** The review page's output cells (`td.output`): the answer's text as shown, whether its box is visible and scrolls. */
  outputCells: Array<{ text: string; visible: boolean; scrolls: boolean }>;
}

/**
 * Opens HTML files in one headless Chromium (fresh profile, no network services), one page
 * each, and reports what each rendered and anything that failed.
 */
export async function checkInBrowser(htmlPaths: readonly string[]): Promise<BrowserCheck[]> {
  const browser = findChromium();
  const profile = mkdtempSync(join(tmpdir(), 'benchplan-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...browser.args],
    viewport: { width: 1280, height: 900 },
  });
  const results: BrowserCheck[] = [];
  try {
    for (const htmlPath of htmlPaths) results.push(await checkPage(context, htmlPath));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

async function checkPage(context: BrowserContext, htmlPath: string): Promise<BrowserCheck> {
  const url = pathToFileURL(htmlPath).href;
  const result: BrowserCheck = { charts: [], chartTexts: [], failedRequests: [], otherRequests: [], consoleErrors: [], pageErrors: [], title: '', scripts: 0, outputCells: [] };
  const page = await context.newPage();
  try {
    page.on('requestfailed', (request) => result.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
    page.on('request', (request) => {
      if (request.url() !== url) result.otherRequests.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') result.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => result.pageErrors.push(String(error)));
    await page.goto(url, { waitUntil: 'load' });
    result.title = await page.title();
    result.charts = await page.locator('figure.chart svg').evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        const style = (globalThis as unknown as { getComputedStyle: (element: unknown) => { visibility: string } }).getComputedStyle(node);
        const drawn = node.querySelectorAll('path, text, line, rect').length;
        return { width: box.width, height: box.height, visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && drawn > 0 };
      }),
    );
    result.chartTexts = await page.locator('figure.chart svg text').evaluateAll((nodes) => nodes.slice(0, 400).map((n) => n.textContent ?? ''));
    result.scripts = await page.locator('script').count();
    result.outputCells = await page.locator('td.output').evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.querySelector('div[style]') as unknown as { textContent: string | null; scrollHeight: number; clientHeight: number; getBoundingClientRect: () => { height: number } } | null;
        return { text: box?.textContent ?? '', visible: box !== null && box.getBoundingClientRect().height > 0, scrolls: box !== null && box.scrollHeight > box.clientHeight };
      }),
    );
  } finally {
    await page.close();
  }
  return result;
}
