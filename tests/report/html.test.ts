import { describe, expect, it } from 'vitest';
import { escapeHtml, reportHtml, tableHtml } from '../../src/report/index.js';
import { EVIL, fixtureDocument } from './fixture-document.js';

describe('escapeHtml', () => {
  it('escapes the five characters that can open a tag or end an attribute', () => {
    expect(escapeHtml(`<b a="1" c='2'>&</b>`)).toBe('&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;&lt;/b&gt;');
    expect(escapeHtml('plain text − ü')).toBe('plain text − ü');
  });
});

describe('tableHtml', () => {
  it('right-aligns numbers and intervals, formats numbers, escapes text', () => {
    const html = tableHtml({ header: ['model', 'mean', 'interval'], rows: [['<a>', 0.123456, '[0.1, 0.2]']] });
    expect(html).toContain('<td>&lt;a&gt;</td><td class="num">0.123</td><td class="num">[0.1, 0.2]</td>');
  });
});

describe('reportHtml', () => {
  it('is one self-contained page: inline SVG and CSS, no script, no external reference', async () => {
    const html = await reportHtml(fixtureDocument());
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<svg\b/g)?.length).toBe(7);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script\b/i);
    expect(html).not.toMatch(/<link\b|<img\b|<iframe\b|<object\b|<embed\b/i);
    // No URL the browser would fetch: the only http(s) strings are xmlns namespace names.
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink']));
    expect(html).toContain("default-src 'none'");
  });

  it('escapes every string from the inputs: names, paths, notes, captions, warnings, table cells', async () => {
    const html = await reportHtml(fixtureDocument());
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('onerror=alert(2)>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // Every occurrence of the evil string is the escaped form (in SVG text vega escapes it too).
    expect(html.split('&lt;script&gt;alert(1)').length - 1).toBeGreaterThanOrEqual(8);
  });

  it('gives every chart its own ids and the same bytes twice', async () => {
    const html = await reportHtml(fixtureDocument());
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const url of html.matchAll(/url\(#([^)]+)\)/g)) expect(ids).toContain(url[1]);
    expect(await reportHtml(fixtureDocument())).toBe(html);
  });

  it('puts each chart beside its numbers, with settings and warnings', async () => {
    const html = await reportHtml(fixtureDocument());
    const section = /<section id="sweep">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toMatch(/<div class="pair">\s*<figure class="chart"><svg[\s\S]*<\/figure>\s*<div class="numbers">\s*<table>/);
    expect(section).toContain('<dt>confidence level</dt><dd>0.95</dd>');
    expect(section).toContain('class="warnings"');
    expect(html).toContain('benchplan 0.0.0-test');
    expect(html).toContain(`<td class="hash">${'a'.repeat(64)}</td>`);
    expect(EVIL).toContain('<script>');
  });

  it('refuses a section id that is not a plain anchor', async () => {
    const doc = fixtureDocument();
    await expect(reportHtml({ ...doc, sections: [{ ...doc.sections[0], id: 'x" onclick="y' }] })).rejects.toThrow(/id must be lowercase letters/);
  });
});
