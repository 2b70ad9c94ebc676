import type { TopLevelSpec } from 'vega-lite';

/** The vega-lite schema every benchplan chart declares. */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The font family charts are drawn in. PNGs are rasterised with DejaVu Sans loaded from the
 * `dejavu-fonts-ttf` package, so the text is there on a machine without system fonts; a browser
 * falls back to its own sans-serif.
 */
export const CHART_FONT = 'DejaVu Sans, Verdana, sans-serif';

/** Colours with a fixed meaning across charts. */
export const CHART_COLORS = {
  /** An interval that excludes zero / a stratum above threshold: the reading holds. */
  holds: '#1f6fb2',
  /** An interval that contains zero / below threshold: not resolved. */
  unresolved: '#9a9a9a',
  /** Warnings and flags. */
  flag: '#c2410c',
  /** Reference lines (zero, budget, threshold). */
  reference: '#444444',
  /** Shaded ranges (pilot uncertainty, the accepted band). */
  band: '#dbe7f3',
} as const;

/** The shared look: white background, light grid, readable sizes. */
export const CHART_CONFIG = {
  font: CHART_FONT,
  background: 'white',
  padding: 8,
  view: { stroke: null },
  axis: { labelSeparation: 4, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#ececec', domainColor: '#888', tickColor: '#888' },
  legend: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', orient: 'bottom', direction: 'horizontal', labelLimit: 320, columns: 4 },
  title: { fontSize: 14, fontWeight: 'bold', anchor: 'start', subtitleFontSize: 11, subtitleColor: '#555', offset: 10 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  range: { category: ['#1f6fb2', '#e07b39', '#3f9e5a', '#8e5bb8', '#c43c4e', '#7a6a55', '#d4a017', '#3ba6a6'] },
} as const;

/** A chart's title block: a title and an optional subtitle line (or lines). */
export interface ChartTitle {
  text: string;
  subtitle?: string | string[];
}

/**
 * Completes a chart body into a top-level vega-lite spec: the schema, the title and the shared
 * config. Builders call this last so every chart looks alike.
 */
export function finishChartSpec(body: Record<string, unknown>, title: ChartTitle): TopLevelSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: title.subtitle === undefined ? { text: title.text } : { text: title.text, subtitle: title.subtitle },
    ...body,
    config: CHART_CONFIG,
  } as unknown as TopLevelSpec;
}

/** Throws a TypeError naming the chart and the field when a result lacks what the chart needs. */
export function requireChartField(chart: string, condition: boolean, what: string, value: unknown): void {
  if (!condition) {
    let shown: string;
    try {
      shown = JSON.stringify(value) ?? String(value);
    } catch {
      shown = String(value);
    }
    if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
    throw new TypeError(`${chart}: ${what} (got ${shown})`);
  }
}

/** A finite number or null (vega-lite data has no NaN: a null is simply not drawn). */
export function finiteOrNull(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}
