import type { TopLevelSpec } from 'vega-lite';
import { formatNumber } from '../report/table.js';
import { finishChartSpec, finiteOrNull, requireChartField } from './theme.js';

/** The headline's weights: by stratum name, or as a list. */
export type HeadlineWeights = Readonly<Record<string, number>> | ReadonlyArray<{ stratum: string; weight: number }>;

/** One model's per-stratum scores and reweighted headline, as `benchplan headline` reports them. */
export interface StratumScoresModel {
  model: string;
  strata: ReadonlyArray<{ stratum: string; n?: number; mean: number; interval?: readonly [number, number]; confidenceInterval?: readonly [number, number] }>;
  headline?: { estimate: number; interval?: readonly [number, number]; confidenceInterval?: readonly [number, number]; weights?: HeadlineWeights };
  /** The plain mean over the (enriched) set: a ranking aid, never an accuracy. */
  rawMean?: number;
}

/** A headline result: `{ models: [...] }`. */
export interface StratumScoresInput {
  models: readonly StratumScoresModel[];
  confidenceLevel?: number;
}

export const STRATUM_SCORES_HEADLINE_ROW = 'headline (traffic-weighted)';
export const STRATUM_SCORES_RAW_MEAN_ROW = 'plain mean (ranking aid)';

function weightText(weights: HeadlineWeights | undefined): string {
  if (weights === undefined) return '';
  const pairs: Array<[string, number]> = isWeightList(weights) ? weights.map((w) => [w.stratum, w.weight]) : Object.entries(weights);
  return pairs.map(([stratum, weight]) => `${stratum} ${formatNumber(weight)}`).join(', ');
}

function isWeightList(weights: HeadlineWeights): weights is ReadonlyArray<{ stratum: string; weight: number }> {
  return Array.isArray(weights);
}

/**
 * Per-stratum scores with intervals, one colour per model, and below them the
 * traffic-reweighted headline (Σ traffic_h · mean_h) with its interval, and the plain mean of
 * the enriched set marked as a ranking aid. The per-stratum rows are the primary output; the
 * headline's weights are printed in the subtitle, next to it.
 * @param result a headline result `{ models: [{ model, strata: [{stratum, mean, interval}], headline, rawMean }] }`.
 * @returns a vega-lite spec.
 * @throws {TypeError} when there is no model or a stratum row lacks its mean.
 * @example stratumScoresSpec({ models: [{ model: 'alpha', strata: [{ stratum: 'routine', mean: 0.9, interval: [0.85, 0.95] }] }] })
 */
export function stratumScoresSpec(result: StratumScoresInput): TopLevelSpec {
  requireChartField('stratumScoresSpec', Array.isArray(result.models) && result.models.length > 0, 'needs at least one model', result.models);
  const rows: Array<{ row: string; model: string; mean: number | null; low: number | null; high: number | null; kind: string }> = [];
  const order: string[] = [];
  const seen = new Set<string>();
  const addRow = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      order.push(name);
    }
  };
  let weights = '';
  for (const [k, model] of result.models.entries()) {
    requireChartField('stratumScoresSpec', typeof model.model === 'string' && Array.isArray(model.strata), `models[${k}] needs a model name and strata`, model);
    for (const stratum of model.strata) {
      requireChartField('stratumScoresSpec', typeof stratum.mean === 'number', `models[${k}] stratum "${stratum.stratum}" needs a mean`, stratum.mean);
      addRow(stratum.stratum);
      rows.push({ row: stratum.stratum, model: model.model, mean: finiteOrNull(stratum.mean), low: finiteOrNull((stratum.interval ?? stratum.confidenceInterval)?.[0]), high: finiteOrNull((stratum.interval ?? stratum.confidenceInterval)?.[1]), kind: 'per stratum' });
    }
  }
  for (const model of result.models) {
    if (model.headline) {
      addRow(STRATUM_SCORES_HEADLINE_ROW);
      rows.push({ row: STRATUM_SCORES_HEADLINE_ROW, model: model.model, mean: finiteOrNull(model.headline.estimate), low: finiteOrNull((model.headline.interval ?? model.headline.confidenceInterval)?.[0]), high: finiteOrNull((model.headline.interval ?? model.headline.confidenceInterval)?.[1]), kind: 'headline' });
      if (!weights) weights = weightText(model.headline.weights);
    }
  }
  for (const model of result.models) {
    if (model.rawMean !== undefined) {
      addRow(STRATUM_SCORES_RAW_MEAN_ROW);
      rows.push({ row: STRATUM_SCORES_RAW_MEAN_ROW, model: model.model, mean: finiteOrNull(model.rawMean), low: null, high: null, kind: 'ranking aid' });
    }
  }
  const models = result.models.map((m) => m.model);
  const y = { field: 'row', type: 'nominal', sort: order, title: null, axis: { labelLimit: 240 } };
  const yOffset = { field: 'model', type: 'nominal', sort: models };
  const color = { field: 'model', type: 'nominal', sort: models, title: null };
  const x = { field: 'mean', type: 'quantitative', title: 'mean score', scale: { zero: false } };
  const level = result.confidenceLevel ?? 0.95;
  return finishChartSpec(
    {
      width: 480,
      height: { step: 12 },
      data: { values: rows },
      encoding: { y, yOffset },
      layer: [
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'low', type: 'quantitative', title: 'mean score' }, x2: { field: 'high' }, color } },
        {
          mark: { type: 'point', filled: true, size: 50, opacity: 1 },
          encoding: {
            x,
            color,
            shape: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['per stratum', 'headline', 'ranking aid'], range: ['circle', 'diamond', 'triangle-up'] } },
          },
        },
      ],
    },
    {
      text: 'Scores by stratum, and the traffic-weighted headline',
      subtitle: [
        `bars: ${Math.round(level * 1000) / 10}% intervals; per-stratum scores are the primary output`,
        ...(weights ? [`headline weights (traffic shares): ${weights}`] : []),
      ],
    },
  );
}
