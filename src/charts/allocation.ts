import type { TopLevelSpec } from 'vega-lite';
import { finishChartSpec, requireChartField } from './theme.js';

/** One allocation of the budget across strata, as `benchplan allocate` reports it. */
export interface AllocationChartSeries {
  /** `quota`, `proportional`, `neyman`, `optimal`, or any label. */
  method: string;
  allocation: ReadonlyArray<{ stratum: string; n: number }>;
}

/** Allocations to set side by side, and optionally the production traffic shares. */
export interface AllocationChartInput {
  allocations: readonly AllocationChartSeries[];
  /** Share of production traffic per stratum (sums to 1), drawn as its own series. */
  traffic?: Readonly<Record<string, number>>;
}

const METHOD_LABELS: Record<string, string> = {
  traffic: 'traffic share',
  proportional: 'proportional (traffic)',
  quota: 'quota',
  neyman: 'Neyman',
  optimal: 'optimal (with costs)',
};

/**
 * Allocation bars: for each stratum, the share of the annotated set each allocation gives it
 * (bars labelled with the item count), beside the stratum's share of production traffic.
 * It makes the cancellation argument visible: routine work is most of the traffic and a small
 * part of an enriched selection set, while Neyman puts the items where candidates disagree.
 * @param input `{ allocations: [{ method, allocation: [{stratum, n}] }], traffic?: {stratum: share} }`.
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no allocation or a count is not a number.
 * @example allocationChartSpec({ allocations: [{ method: 'quota', allocation: [{ stratum: 'routine', n: 80 }, { stratum: 'rare', n: 120 }] }] })
 */
export function allocationChartSpec(input: AllocationChartInput): TopLevelSpec {
  requireChartField('allocationChartSpec', Array.isArray(input.allocations) && input.allocations.length > 0, 'needs at least one allocation', input.allocations);
  const rows: Array<{ stratum: string; series: string; share: number; label: string }> = [];
  const strata: string[] = [];
  const seen = new Set<string>();
  const addStratum = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      strata.push(name);
    }
  };
  const series: string[] = [];
  if (input.traffic) {
    series.push(METHOD_LABELS.traffic);
    for (const [stratum, share] of Object.entries(input.traffic)) {
      requireChartField('allocationChartSpec', Number.isFinite(share), `traffic share of "${stratum}" must be a number`, share);
      addStratum(stratum);
      rows.push({ stratum, series: METHOD_LABELS.traffic, share, label: `${Math.round(share * 1000) / 10}%` });
    }
  }
  for (const [k, { method, allocation }] of input.allocations.entries()) {
    requireChartField('allocationChartSpec', Array.isArray(allocation) && allocation.length > 0, `allocations[${k}].allocation must list strata`, allocation);
    const total = allocation.reduce((sum, row) => sum + row.n, 0);
    const name = METHOD_LABELS[method] ?? method;
    series.push(name);
    for (const row of allocation) {
      requireChartField('allocationChartSpec', Number.isFinite(row.n) && row.n >= 0, `allocations[${k}] count of "${row.stratum}" must be a number ≥ 0`, row.n);
      addStratum(row.stratum);
      rows.push({ stratum: row.stratum, series: name, share: total > 0 ? row.n / total : 0, label: String(row.n) });
    }
  }
  const y = { field: 'stratum', type: 'nominal', sort: strata, title: null, axis: { labelLimit: 200 } };
  const yOffset = { field: 'series', type: 'nominal', sort: series };
  const x = { field: 'share', type: 'quantitative', title: 'share of the set (traffic: share of production)', axis: { format: '.0%' }, scale: { domain: [0, Math.max(0.05, ...rows.map((row) => row.share)) * 1.12] } };
  return finishChartSpec(
    {
      width: 480,
      height: { step: 14 },
      data: { values: rows },
      encoding: { y, yOffset },
      layer: [
        { mark: { type: 'bar', height: { band: 0.9 } }, encoding: { x, color: { field: 'series', type: 'nominal', sort: series, title: null } } },
        { mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 }, encoding: { x: { field: 'share', type: 'quantitative' }, text: { field: 'label' } } },
      ],
    },
    { text: 'How each allocation spends the annotation budget', subtitle: 'labels: items per stratum (traffic: share of production)' },
  );
}
