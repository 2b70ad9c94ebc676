import type { TopLevelSpec } from 'vega-lite';
import { CHART_COLORS, finishChartSpec, requireChartField } from './theme.js';

/** A rotation plan, as `benchplan rotate` reports it. */
export interface RotationPlanInput {
  retire: ReadonlyArray<{ item: string; stratum: string; reason: string }>;
  add: ReadonlyArray<{ item: string; stratum: string }>;
  strata: ReadonlyArray<{ stratum: string; before: number; after: number }>;
  /** Version ids for the bar labels, e.g. 2026Q3 → 2026Q4. */
  from?: string;
  to?: string;
}

/** A retirement reason as a legend entry: `retired: saturated`; a reason that says it all stays as it is. */
function retiredLabel(reason: string): string {
  return /^(retired|moved|left)\b/.test(reason) ? reason : `retired: ${reason}`;
}

/**
 * The rotation plan by stratum: for each stratum the current version (items kept, and the items
 * retired, by reason) above the next one (items kept, and the items added from the incident log).
 * A stratum whose next bar is shorter ran out of incidents to replace its retired items.
 * @param plan `{ retire: [{item, stratum, reason}], add: [{item, stratum}], strata: [{stratum, before, after}] }`.
 * @returns a vega-lite spec.
 * @throws {TypeError} when the plan has no strata, or retires more items from a stratum than it has.
 * @example rotationPlanSpec({ retire: [{ item: 'e1', stratum: 'routine', reason: 'saturated' }], add: [{ item: 'i1', stratum: 'routine' }], strata: [{ stratum: 'routine', before: 20, after: 20 }] })
 */
export function rotationPlanSpec(plan: RotationPlanInput): TopLevelSpec {
  requireChartField('rotationPlanSpec', Array.isArray(plan.strata) && plan.strata.length > 0, 'needs the strata counts before and after', plan.strata);
  const current = plan.from ? `now (${plan.from})` : 'now';
  const next = plan.to ? `next (${plan.to})` : 'next';
  const rows: Array<{ stratum: string; version: string; part: string; count: number }> = [];
  const reasons: string[] = [];
  for (const row of plan.retire) if (!reasons.includes(row.reason)) reasons.push(row.reason);
  for (const { stratum, before } of plan.strata) {
    const retired = plan.retire.filter((r) => r.stratum === stratum);
    const added = plan.add.filter((a) => a.stratum === stratum).length;
    const kept = before - retired.length;
    requireChartField('rotationPlanSpec', kept >= 0, `stratum "${stratum}" retires more items than it has`, { before, retired: retired.length });
    rows.push({ stratum, version: current, part: 'kept', count: kept });
    for (const reason of reasons) {
      const count = retired.filter((r) => r.reason === reason).length;
      if (count > 0) rows.push({ stratum, version: current, part: retiredLabel(reason), count });
    }
    rows.push({ stratum, version: next, part: 'kept', count: kept });
    if (added > 0) rows.push({ stratum, version: next, part: 'added from incidents', count: added });
  }
  const parts = ['kept', ...reasons.map(retiredLabel), 'added from incidents'];
  const retiredColors = ['#c2410c', '#e9a23b', '#9a9a9a', '#8e5bb8', '#c43c4e'];
  const range = ['#c9d6e3', ...reasons.map((_, k) => retiredColors[k % retiredColors.length]), CHART_COLORS.holds];
  const strata = plan.strata.map((s) => s.stratum);
  return finishChartSpec(
    {
      width: 480,
      height: { step: 16 },
      data: { values: rows },
      transform: [{ calculate: `indexof(${JSON.stringify(parts)}, datum.part)`, as: 'partOrder' }],
      mark: { type: 'bar', height: { band: 0.85 } },
      encoding: {
        y: { field: 'stratum', type: 'nominal', sort: strata, title: null, axis: { labelLimit: 200 } },
        yOffset: { field: 'version', type: 'nominal', sort: [current, next] },
        x: { field: 'count', type: 'quantitative', stack: 'zero', title: 'eval items' },
        color: { field: 'part', type: 'nominal', title: null, sort: parts, scale: { domain: parts, range } },
        order: { field: 'partOrder', type: 'quantitative' },
      },
    },
    {
      text: 'Rotation plan by stratum',
      subtitle: [`upper bar: ${current}, kept and retired items; lower bar: ${next}, kept and added items`, `${plan.retire.length} retired, ${plan.add.length} added`],
    },
  );
}
