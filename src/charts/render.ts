import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { measureTextWidth, readFontWidths } from './text-metrics.js';

/** A vega-lite spec compiled to vega, with the compiler's warnings (never printed). */
export interface CompiledChart {
  /** The vega spec vega-lite produced. */
  vega: object;
  /** Warnings vega-lite logged while compiling (e.g. a field it dropped); empty for a clean spec. */
  warnings: string[];
}

/** Options for drawing a chart to SVG. */
export interface SvgRenderOptions {
  /**
   * Prefix for the ids inside the SVG (clip paths, gradients). vega numbers them from a
   * process-wide counter; benchplan renumbers them per chart, so the same chart gives the same
   * bytes however many were drawn before it, and several SVGs inline in one HTML page never
   * share an id. Default `chart`.
   */
  idPrefix?: string;
}

/** Options for rasterising to PNG. */
export interface PngRenderOptions extends SvgRenderOptions {
  /** Pixels per SVG unit (2 = sharp on high-density screens). Default 2; in (0, 8]. */
  scale?: number;
  /**
   * Font files to draw text with. Default: the DejaVu fonts of the `dejavu-fonts-ttf` package.
   * System fonts are never loaded, so the output is the same on every machine.
   */
  fontFiles?: readonly string[];
}

/** A rasterised image: RGBA pixels, row-major, 4 bytes a pixel, and the PNG encoding of them. */
export interface RasterImage {
  width: number;
  height: number;
  pixels: Uint8Array;
  png: Uint8Array;
}

function collectingLogger(warnings: string[]) {
  let level = 0;
  const logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

/**
 * Compiles a vega-lite spec to vega, collecting the compiler's warnings instead of printing them.
 * vega-lite is imported on first use, so loading benchplan (and `benchplan --help`) stays fast.
 * @throws {Error} vega-lite's own error when the spec is invalid.
 * @example (await compileChart(forestPlotSpec(result))).warnings // => []
 */
export async function compileChart(spec: TopLevelSpec): Promise<CompiledChart> {
  const vl = await import('vega-lite');
  const warnings: string[] = [];
  // vega tags data rows in place (a symbol key): compile a copy so the caller's spec stays as it was.
  const compiled = vl.compile(structuredClone(spec), { logger: collectingLogger(warnings) as never });
  return { vega: compiled.spec, warnings };
}

/**
 * Renumbers the ids of one SVG document (`id="x"`, `url(#x)`, `href="#x"`) as
 * `PREFIX-1`, `PREFIX-2`, … in order of first definition.
 */
export function scopeSvgIds(svg: string, prefix: string): string {
  if (!/^[A-Za-z][\w-]*$/.test(prefix)) throw new RangeError(`scopeSvgIds: prefix must be a letter then letters, digits, _ or - (got "${prefix}")`);
  const renamed = new Map<string, string>();
  for (const match of svg.matchAll(/\sid="([^"]+)"/g)) {
    if (!renamed.has(match[1])) renamed.set(match[1], `${prefix}-${renamed.size + 1}`);
  }
  if (renamed.size === 0) return svg;
  const rename = (id: string) => renamed.get(id) ?? id;
  return svg
    .replace(/(\sid=")([^"]+)"/g, (_m, head: string, id: string) => `${head}${rename(id)}"`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${rename(id)})`)
    .replace(/(href=")#([^"]+)"/g, (_m, head: string, id: string) => `${head}#${rename(id)}"`);
}

/**
 * Draws a vega-lite spec to an SVG document without a browser, through vega's headless view
 * (`renderer: 'none'`; text widths are estimated, so the output is the same on every machine).
 * vega and vega-lite are imported on first use.
 * Reference: `new vega.View(vega.parse(vegaLite.compile(spec).spec), {renderer: 'none'}).toSVG()`.
 * @param spec a vega-lite spec with inline data (nothing is fetched).
 * @returns the SVG text, `<svg …>…</svg>`, ids scoped by `options.idPrefix`.
 * @throws {Error} when vega-lite or vega rejects the spec.
 * @example (await renderChartSvg(forestPlotSpec(result))).startsWith('<svg') // => true
 */
export async function renderChartSvg(spec: TopLevelSpec, options: SvgRenderOptions = {}): Promise<string> {
  const [{ vega: compiled }, vega] = await Promise.all([compileChart(spec), import('vega')]);
  installTextMetrics((vega as unknown as { textMetrics: TextMetrics }).textMetrics);
  const warnings: string[] = [];
  const view = new vega.View(vega.parse(compiled as never), {
    renderer: 'none',
    logger: collectingLogger(warnings) as never,
    // Inline data only: a spec asking for a URL or file fails instead of reaching the network.
    loader: {
      load: async (uri: string) => {
        throw new Error(`charts load no data from outside (asked for ${uri})`);
      },
      sanitize: async (uri: string) => {
        throw new Error(`charts load no data from outside (asked for ${uri})`);
      },
      http: async () => '',
      file: async () => '',
    } as never,
  });
  try {
    const svg = await view.toSVG();
    return scopeSvgIds(svg, options.idPrefix ?? 'chart');
  } finally {
    view.finalize();
  }
}

let defaultFonts: string[] | undefined;

interface TextMetrics {
  width: (item: { fontSize?: number | string; fontWeight?: string | number; limit?: number }, text: unknown) => number;
}

let textMetricsInstalled = false;

/**
 * Makes vega measure text with DejaVu Sans's real advance widths (the font the PNGs are drawn
 * in) through vega's documented hook `textMetrics.width` (vl-convert does the same), instead
 * of its estimate of 0.8 · size per character. Layout then fits the text, and stays identical
 * on every machine because it never asks a canvas or the system's fonts.
 */
function installTextMetrics(metrics: TextMetrics): void {
  if (textMetricsInstalled) return;
  const [regularPath, boldPath] = chartFontFiles();
  const regular = readFontWidths(regularPath);
  const bold = readFontWidths(boldPath);
  metrics.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const value = text == null ? '' : String(text).trim();
    const weight = item.fontWeight;
    const isBold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
    const width = measureTextWidth(isBold ? bold : regular, value, size);
    // With a length limit vega draws the text cut to fit it.
    return item.limit !== undefined && item.limit > 0 ? Math.min(width, item.limit) : width;
  };
  textMetricsInstalled = true;
}

/**
 * The TrueType files of the `dejavu-fonts-ttf` package (the fonts every PNG is drawn with).
 * @throws {Error} when the package is not installed.
 */
export function chartFontFiles(): string[] {
  if (defaultFonts === undefined) {
    const require = createRequire(import.meta.url);
    // The package has no entry point: find its folder through the resolver's search paths.
    const roots = require.resolve.paths('dejavu-fonts-ttf') ?? [];
    let folder: string | undefined;
    for (const root of roots) {
      try {
        const candidate = join(root, 'dejavu-fonts-ttf', 'ttf');
        readdirSync(candidate);
        folder = candidate;
        break;
      } catch {
        // not under this root
      }
    }
    if (folder === undefined) throw new Error('chartFontFiles: the dejavu-fonts-ttf package is not installed (npm install dejavu-fonts-ttf)');
    const wanted = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSansMono.ttf'];
    defaultFonts = wanted.map((name) => join(folder, name));
  }
  return [...defaultFonts];
}

/**
 * Rasterises an SVG document with @resvg/resvg-js, drawing text with the given font files only
 * (`loadSystemFonts: false`). Imported on first use.
 * @returns the RGBA pixels and their PNG encoding.
 * @throws {RangeError} when scale is outside (0, 8].
 */
export async function rasterizeSvg(svg: string, options: PngRenderOptions = {}): Promise<RasterImage> {
  const scale = options.scale ?? 2;
  if (!(scale > 0 && scale <= 8)) throw new RangeError(`rasterizeSvg: scale must be in (0, 8] (got ${scale})`);
  const { Resvg } = await import('@resvg/resvg-js');
  const fontFiles = options.fontFiles ?? chartFontFiles();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: {
      fontFiles: [...fontFiles],
      loadSystemFonts: false,
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
      serifFamily: 'DejaVu Sans',
      monospaceFamily: 'DejaVu Sans Mono',
    },
  });
  const image = resvg.render();
  return { width: image.width, height: image.height, pixels: new Uint8Array(image.pixels), png: new Uint8Array(image.asPng()) };
}

/**
 * Draws a vega-lite spec to PNG bytes without a browser or system fonts: SVG through vega's
 * headless view, then @resvg/resvg-js with the DejaVu fonts from the `dejavu-fonts-ttf` package.
 * @example (await renderChartPng(forestPlotSpec(result))).subarray(1, 4) // => "PNG" in ASCII
 */
export async function renderChartPng(spec: TopLevelSpec, options: PngRenderOptions = {}): Promise<Uint8Array> {
  const svg = await renderChartSvg(spec, options);
  return (await rasterizeSvg(svg, options)).png;
}
