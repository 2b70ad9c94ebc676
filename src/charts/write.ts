import type { TopLevelSpec } from 'vega-lite';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { renderChartPng, renderChartSvg, type PngRenderOptions } from './render.js';

/** The image formats `--chart` writes, chosen by the file's extension. */
export type ChartFormat = 'svg' | 'png';

/** The `--chart` option every command with a chart declares: `.option(...CHART_OPTION)`. */
export const CHART_OPTION = ['--chart <file>', 'also draw the chart to FILE.svg or FILE.png'] as const;

/**
 * The image format a chart path asks for, from its extension (case-insensitive).
 * Commands call it before doing the work, so a bad path fails at once.
 * @throws {InputError} `--chart: must end in .svg or .png (got "x.jpg")`.
 * @example chartFormatOf('out/forest.png') // => 'png'
 */
export function chartFormatOf(path: string, flag = '--chart'): ChartFormat {
  const match = /\.(svg|png)$/i.exec(path);
  if (!match || path.length === match[0].length) throw new InputError('must end in .svg or .png', { file: flag, value: path });
  return match[1].toLowerCase() as ChartFormat;
}

/**
 * Checks a `--chart` path before any work: the extension, and that the file can be written there.
 * @throws {InputError} for another extension or a folder that cannot take the file.
 */
export function preflightChart(path: string, flag = '--chart'): ChartFormat {
  const format = chartFormatOf(path, flag);
  preflightOutput(path, flag);
  return format;
}

/**
 * Draws a chart and writes it atomically (temporary file, then rename) as SVG or PNG by the
 * path's extension. In a command:
 * ```ts
 *   .option(...CHART_OPTION)
 *   if (opts.chart) await writeChart(forestPlotSpec(result), opts.chart);
 * ```
 * @returns the format written.
 * @throws {InputError} for an extension other than .svg / .png, or when the file cannot be written.
 */
export async function writeChart(spec: TopLevelSpec, path: string, options: PngRenderOptions = {}): Promise<ChartFormat> {
  const format = chartFormatOf(path);
  if (format === 'svg') writeFileAtomic(path, `${await renderChartSvg(spec, options)}\n`);
  else writeFileAtomic(path, await renderChartPng(spec, options));
  return format;
}
