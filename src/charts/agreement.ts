import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { CHART_COLORS, finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** Agreement for one clause type, as `benchplan agree` reports it. */
export interface AgreementChartType {
  type: string;
  /** Krippendorff's alpha (nominal). */
  krippendorffAlpha: number;
  /** Bootstrap interval for alpha, [low, high]. */
  alphaInterval?: readonly [number, number];
  belowThreshold?: boolean;
  items?: number;
  rawAgreement?: number;
}

/** An agreement result: `{ types: [...], threshold }`. */
export interface AgreementChartInput {
  types: readonly AgreementChartType[];
  /** The alpha below which a type is flagged (Krippendorff's 0.667 by default). */
  threshold?: number;
}

/**
 * Annotator agreement per clause type: Krippendorff's alpha as a bar with its bootstrap
 * interval, the threshold drawn across, and the types below it flagged. Agreement is a ceiling
 * on what a model score can mean on that type.
 * @param result `{ types: [{type, krippendorffAlpha, alphaInterval?, belowThreshold?}], threshold? }`.
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no type or alpha is missing.
 * @example agreementChartSpec({ types: [{ type: 'payment_terms', krippendorffAlpha: 0.94 }, { type: 'change_of_control', krippendorffAlpha: 0.61 }] })
 */
export function agreementChartSpec(result: AgreementChartInput): TopLevelSpec {
  requireChartField('agreementChartSpec', Array.isArray(result.types) && result.types.length > 0, 'needs at least one clause type', result.types);
  const threshold = result.threshold ?? 0.667;
  const rows = result.types.map((t, k) => {
    requireChartField('agreementChartSpec', typeof t.type === 'string' && typeof t.krippendorffAlpha === 'number', `types[${k}] needs a type and krippendorffAlpha`, t);
    const below = t.belowThreshold ?? t.krippendorffAlpha < threshold;
    return {
      type: t.type,
      alpha: finiteOrNull(t.krippendorffAlpha),
      low: finiteOrNull(t.alphaInterval?.[0]),
      high: finiteOrNull(t.alphaInterval?.[1]),
      status: below ? 'below threshold' : 'at or above threshold',
      label: `${formatNumber(t.krippendorffAlpha)}${t.items !== undefined ? ` (${t.items} items)` : ''}`,
    };
  });
  const low = Math.min(0, ...rows.flatMap((r) => [r.alpha ?? 0, r.low ?? 0]));
  const y = { field: 'type', type: 'nominal', sort: null, title: null, axis: { labelLimit: 220 } };
  const x = { field: 'alpha', type: 'quantitative', title: 'Krippendorff’s alpha (nominal)', scale: { domain: [low, 1] } };
  return finishChartSpec(
    {
      width: 480,
      height: Math.max(60, 34 * rows.length),
      data: { values: rows },
      layer: [
        {
          encoding: { y },
          layer: [
            {
              mark: { type: 'bar', height: { band: 0.6 }, opacity: 0.85 },
              encoding: {
                x,
                color: { field: 'status', type: 'nominal', title: null, scale: { domain: ['at or above threshold', 'below threshold'], range: [CHART_COLORS.holds, CHART_COLORS.flag] } },
              },
            },
            { mark: { type: 'rule', color: '#222', strokeWidth: 1.5 }, encoding: { x: { field: 'low', type: 'quantitative', title: x.title }, x2: { field: 'high' } } },
            { mark: { type: 'text', align: 'left', dx: 4, fontSize: 10, color: '#222' }, encoding: { x: { value: 0 }, text: { field: 'label' }, color: { value: 'white' } } },
          ],
        },
        {
          data: { values: [{ threshold, label: `threshold ${formatNumber(threshold)}` }] },
          layer: [
            { mark: { type: 'rule', color: CHART_COLORS.reference, strokeDash: [4, 3], strokeWidth: 1.5 }, encoding: { x: { field: 'threshold', type: 'quantitative', title: x.title } } },
            { mark: { type: 'text', align: 'right', baseline: 'bottom', dx: -3, fontSize: 10 }, encoding: { x: { field: 'threshold', type: 'quantitative', title: x.title }, y: { value: 0 }, text: { field: 'label' } } },
          ],
        },
      ],
    },
    {
      text: 'Annotator agreement by clause type',
      subtitle: ['bars: alpha; lines: bootstrap interval over items; types below the threshold cannot support small model differences'],
    },
  );
}
