import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/data/errors.js';
import { chartFontFiles, chartFormatOf, costSweepSpec, forestPlotSpec, rasterizeSvg, renderChartPng, renderChartSvg, scopeSvgIds, writeChart } from '../../src/charts/index.js';
import { measureTextWidth, readFontWidths } from '../../src/charts/text-metrics.js';
import { forestResult, sweepResult } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'benchplan-charts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pixels whose RGBA differs between two same-sized images. */
function differingPixels(a: { pixels: Uint8Array; width: number; height: number }, b: { pixels: Uint8Array; width: number; height: number }): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let count = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    if (a.pixels[i] !== b.pixels[i] || a.pixels[i + 1] !== b.pixels[i + 1] || a.pixels[i + 2] !== b.pixels[i + 2]) count += 1;
  }
  return count;
}

const withoutText = (svg: string) => svg.replace(/<text\b[^>]*>[\s\S]*?<\/text>/g, '');

describe('PNG without a browser or system fonts', () => {
  it('draws the text: the same chart without its text elements differs in thousands of pixels', async () => {
    const svg = await renderChartSvg(forestPlotSpec(forestResult));
    expect(withoutText(svg)).not.toBe(svg);
    // System fonts are never loaded (loadSystemFonts: false); the text comes from dejavu-fonts-ttf.
    const full = await rasterizeSvg(svg, { scale: 1 });
    const bare = await rasterizeSvg(withoutText(svg), { scale: 1 });
    expect(differingPixels(full, bare)).toBeGreaterThan(2000);
  });

  it('the fonts are what makes the text appear: with no font files at all the text is dropped', async () => {
    const svg = await renderChartSvg(forestPlotSpec(forestResult));
    const noFonts = await rasterizeSvg(svg, { scale: 1, fontFiles: [] });
    const bareNoFonts = await rasterizeSvg(withoutText(svg), { scale: 1, fontFiles: [] });
    expect(differingPixels(noFonts, bareNoFonts)).toBe(0);
  });

  it('writes a PNG: signature, size scaled by 2, same bytes twice', async () => {
    const png = await renderChartPng(costSweepSpec(sweepResult));
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const svg = await renderChartSvg(costSweepSpec(sweepResult));
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    // PNG IHDR: width as a big-endian uint32 at byte 16.
    expect(new DataView(png.buffer, png.byteOffset).getUint32(16)).toBe(width * 2);
    expect(Buffer.from(await renderChartPng(costSweepSpec(sweepResult))).equals(Buffer.from(png))).toBe(true);
    await expect(rasterizeSvg(svg, { scale: 0 })).rejects.toThrow(/scale must be in \(0, 8\] \(got 0\)/);
  });

  it('measures text with the font it draws: advance widths match the ink resvg lays down', async () => {
    const widths = readFontWidths(chartFontFiles()[0]);
    // DejaVu Sans: 2048 units per em; digits are tabular (1303 units), the space 651 units.
    expect(widths.unitsPerEm).toBe(2048);
    expect(widths.advance('0'.codePointAt(0) as number)).toBe(widths.advance('7'.codePointAt(0) as number));
    const text = 'alpha − beta: Krippendorff’s';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><rect width="400" height="40" fill="white"/><text x="10" y="25" font-family="DejaVu Sans" font-size="20">${text}</text></svg>`;
    const image = await rasterizeSvg(svg, { scale: 1 });
    let minX = Infinity;
    let maxX = -Infinity;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        if (image.pixels[4 * (y * image.width + x)] < 200) {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
        }
      }
    }
    // The advance sum includes the first and last glyphs' side bearings (a few pixels at 20 px).
    expect(Math.abs(measureTextWidth(widths, text, 20) - (maxX - minX + 1))).toBeLessThan(5);
  });
});

describe('SVG ids', () => {
  it('renumbers ids and their references per chart', () => {
    const svg = '<svg><defs><clipPath id="clip7"><rect/></clipPath><linearGradient id="g_2"/></defs><g clip-path="url(#clip7)" fill="url(#g_2)"/><use href="#clip7"/></svg>';
    expect(scopeSvgIds(svg, 'c3')).toBe('<svg><defs><clipPath id="c3-1"><rect/></clipPath><linearGradient id="c3-2"/></defs><g clip-path="url(#c3-1)" fill="url(#c3-2)"/><use href="#c3-1"/></svg>');
    expect(() => scopeSvgIds(svg, '1bad')).toThrow(RangeError);
  });

  it('two charts drawn with different prefixes share no id', async () => {
    const ids = async (prefix: string) => [...(await renderChartSvg(costSweepSpec(sweepResult), { idPrefix: prefix })).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    const a = await ids('a');
    const b = await ids('b');
    expect(a.length).toBeGreaterThan(0);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });
});

describe('writeChart (--chart FILE.svg|FILE.png)', () => {
  it('writes SVG or PNG by extension, atomically (no temporary file left)', async () => {
    const svgPath = join(dir, 'out', 'forest.svg');
    expect(await writeChart(forestPlotSpec(forestResult), svgPath)).toBe('svg');
    expect(readFileSync(svgPath, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    const pngPath = join(dir, 'out', 'forest.PNG');
    expect(await writeChart(forestPlotSpec(forestResult), pngPath)).toBe('png');
    expect(readFileSync(pngPath).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['forest.PNG', 'forest.svg']);
  });

  it('refuses other extensions with an InputError naming the flag and the value', async () => {
    expect(chartFormatOf('a/b.Svg')).toBe('svg');
    for (const bad of ['chart.jpg', 'chart', '.png', 'chart.svg.txt']) {
      expect(() => chartFormatOf(bad)).toThrow(InputError);
    }
    expect(() => chartFormatOf('chart.jpg')).toThrow('--chart: must end in .svg or .png (got "chart.jpg")');
    await expect(writeChart(forestPlotSpec(forestResult), join(dir, 'x.pdf'))).rejects.toThrow(/must end in \.svg or \.png/);
  });
});

describe('lazy loading', () => {
  it('vega, vega-lite and resvg are imported only inside the render functions (benchplan --help stays fast)', () => {
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk('src');
    const eager = files.filter((file) => /^\s*import\s+(?!type\b)[^;]*from\s+['"](vega|vega-lite|@resvg\/resvg-js)['"]/m.test(readFileSync(file, 'utf8')));
    expect(eager).toEqual([]);
  });
});
