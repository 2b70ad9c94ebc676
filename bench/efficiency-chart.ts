#!/usr/bin/env -S npx tsx
// Draws the README's efficiency chart from bench/efficiency.json (written by bench/efficiency.ts):
// the share of human labels each design needs for the same interval width, with coverage in the tooltip.
// Usage: npx tsx bench/efficiency-chart.ts [--in bench/efficiency.json] [--out out/bench/efficiency.png]
// (the README's docs/images/efficiency.png came from --out docs/images/efficiency.png)
import { readFileSync } from 'node:fs';
import { finishChartSpec, writeChart } from '../src/charts/index.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const data = JSON.parse(readFileSync(flag('--in', 'bench/efficiency.json'), 'utf8'));
const ppi = data.ppi
  .filter((c: { strata: boolean }) => !c.strata)
  .map((c: { scores: string; measuredRho: number; labelsRatio: number; coveragePpi: number }) => ({ series: c.scores === 'binary' ? 'PPI++, 0/1 scores' : 'PPI++, continuous', x: c.measuredRho, ratio: c.labelsRatio, coverage: c.coveragePpi }));
const select = data.select.filter((c: { violation?: number }) => !c.violation).map((c: { agreeShare: number; labelsRatio: number; coverageSelect: number }) => ({ series: 'select (disagreements + 10% audit)', x: c.agreeShare, ratio: c.labelsRatio, coverage: c.coverageSelect }));
const panel = (values: unknown[], title: string, target: { x: number; y: number; text: string }) => ({
  width: 300,
  height: 220,
  title,
  layer: [
    {
      data: { values },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'x', type: 'quantitative', title: title.startsWith('PPI') ? 'judge–human correlation' : 'share of items where the candidates agree', scale: { zero: false } },
        y: { field: 'ratio', type: 'quantitative', title: 'human labels needed (× random labelling)', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
        color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom' } },
        tooltip: [{ field: 'series' }, { field: 'x', format: '.2f' }, { field: 'ratio', format: '.2f' }, { field: 'coverage', format: '.3f' }],
      },
    },
    { data: { values: [target] }, mark: { type: 'point', shape: 'cross', size: 120, color: '#c43c4e' }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } },
    { data: { values: [target] }, mark: { type: 'text', dx: 6, align: 'left', color: '#c43c4e', fontSize: 11 }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 'text' } } },
  ],
});
const spec = finishChartSpec(
  {
    hconcat: [panel(ppi, 'PPI++ (compare --judge)', { x: 0.7, y: 0.6, text: 'target ≤ 60%' }), panel(select, 'select', { x: 0.8, y: 0.35, text: 'target ≤ 35%' })],
    resolve: { scale: { color: 'independent' } },
  },
  { text: 'Human labels needed for the same 95% interval width', subtitle: `simulated pools with known truth, ${data.reps} runs a point; every interval covers ≥ 0.94 (select: same output ⇒ same score)` },
);
await writeChart(spec, flag('--out', 'out/bench/efficiency.png'));
