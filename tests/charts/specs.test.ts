import { describe, expect, it } from 'vitest';
import {
  agreementChartSpec,
  allocationChartSpec,
  compileChart,
  costSweepSpec,
  driftChartSpec,
  forestPlotSpec,
  renderChartSvg,
  rotationPlanSpec,
  sizingCurveSpec,
  stratumScoresSpec,
} from '../../src/charts/index.js';
import { agreementResult, allocationResult, driftResult, forestResult, headlineResult, rotationResult, sizingResult, sweepResult } from './fixtures.js';

// Each builder with the result shape its issue documents, and pieces of text its chart must show.
const cases = [
  { name: 'forest plot', spec: () => forestPlotSpec(forestResult), texts: ['alpha − beta', 'beta − gamma', 'not distinguishable', 'difference in mean score'] },
  { name: 'forest plot, one comparison', spec: () => forestPlotSpec({ a: 'candidate', b: 'baseline', estimate: 2, interval: [-1, 5] }), texts: ['candidate − baseline'] },
  { name: 'sizing curve', spec: () => sizingCurveSpec(sizingResult), texts: ['budget: 400 items', '264 items for a gap of 5', 'items needed'] },
  { name: 'allocation bars', spec: () => allocationChartSpec(allocationResult), texts: ['traffic share', 'Neyman', 'negative_control', '72%', '120'] },
  { name: 'stratum scores + headline', spec: () => stratumScoresSpec(headlineResult), texts: ['headline (traffic-weighted)', 'plain mean (ranking aid)', 'routine 0.72'] },
  { name: 'cost sweep', spec: () => costSweepSpec(sweepResult), texts: ['alpha = beta at 5', 'beta = gamma at 12.5', 'policy: 8', 'accepted band 4–20', 'Head of Regulatory Risk'] },
  { name: 'agreement', spec: () => agreementChartSpec(agreementResult), texts: ['change_of_control', 'threshold 0.667', 'below threshold'] },
  { name: 'rotation plan', spec: () => rotationPlanSpec(rotationResult), texts: ['retired: saturated', 'added from incidents', 'now (2026Q3)'] },
  { name: 'drift by quarter', spec: () => driftChartSpec(driftResult), texts: ['2026Q2 → 2026Q3', 'the system (same test)', 'the test (same system)'] },
  { name: 'drift, one attributeDrift result', spec: () => driftChartSpec({ ...driftResult.periods![1], previousVersion: '2026Q3', currentVersion: '2026Q4' }), texts: ['2026Q3 → 2026Q4'] },
];

describe('chart builders', () => {
  for (const { name, spec, texts } of cases) {
    it(`${name}: compiles with vega-lite compile() without warnings and draws its labels`, async () => {
      const built = spec();
      expect(built.$schema).toMatch(/vega-lite\/v6/);
      const compiled = await compileChart(built);
      expect(compiled.warnings).toEqual([]);
      expect(compiled.vega).toHaveProperty('marks');
      const svg = await renderChartSvg(built);
      expect(svg.startsWith('<svg')).toBe(true);
      for (const text of texts) expect(svg).toContain(text);
      // Plain JSON-able data: a spec survives a JSON round trip unchanged.
      expect(JSON.parse(JSON.stringify(built))).toEqual(built);
    });
  }

  it('the same result gives the same SVG bytes, however many charts were drawn before', async () => {
    const first = await renderChartSvg(forestPlotSpec(forestResult));
    await renderChartSvg(costSweepSpec(sweepResult));
    const second = await renderChartSvg(forestPlotSpec(forestResult));
    expect(second).toBe(first);
  });

  it('the sweep draws one line per model and marks only the crossings it is given', async () => {
    const spec = costSweepSpec({ ...sweepResult, crossings: [], verdict: 'data' }) as unknown as { layer: Array<{ data?: { values: unknown[] } }>; subtitle?: unknown };
    expect(spec.layer.length).toBe(3); // band, lines, policy: no crossing layer
    const svg = await renderChartSvg(spec as never);
    expect(svg).toContain('no crossing inside the band: the data decides the ranking');
    expect(svg).not.toContain(' at 5');
  });

  it('a one-sided interval is drawn to the edge rather than dropped', () => {
    const spec = forestPlotSpec({ a: 'a', b: 'b', estimate: 0.1, interval: [0.02, Infinity] }) as unknown as { data: { values: Array<{ high: number }> } };
    expect(spec.data.values[0].high).toBeCloseTo(0.11, 12); // 1.1 × the largest finite magnitude (0.1)
  });

  it('rejects results that lack what the chart draws, naming the field', () => {
    expect(() => forestPlotSpec({ pairs: [] })).toThrow(/forestPlotSpec: needs at least one pair/);
    expect(() => forestPlotSpec({ pairs: [{ a: 'x', b: 'y', estimate: 1, interval: [0] as never }] })).toThrow(/pairs\[0\]\.interval must be \[low, high\]/);
    expect(() => sizingCurveSpec({ curve: [{ mde: 1, n: 10 }] })).toThrow(/at least two points/);
    expect(() => allocationChartSpec({ allocations: [{ method: 'quota', allocation: [{ stratum: 's', n: -1 }] }] })).toThrow(/count of "s" must be a number ≥ 0 \(got -1\)/);
    expect(() => stratumScoresSpec({ models: [] })).toThrow(/needs at least one model/);
    expect(() => costSweepSpec({ ...sweepResult, band: [20, 4] })).toThrow(/band must be \[low, high\] \(got \[20,4\]\)/);
    expect(() => agreementChartSpec({ types: [] })).toThrow(/at least one clause type/);
    expect(() => driftChartSpec({})).toThrow(/driftChartSpec: needs at least one period/);
    expect(() => rotationPlanSpec({ ...rotationResult, strata: [{ stratum: 'routine', before: 1, after: 1 }] })).toThrow(/retires more items than it has/);
  });

  it('escapes names from input files in the SVG', async () => {
    const evil = '"><script>alert(1)</script>&';
    const svg = await renderChartSvg(forestPlotSpec({ a: evil, b: 'b', estimate: 0, interval: [-1, 1] }));
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;');
  });
});
