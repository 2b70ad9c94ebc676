import { bootstrapMeanDifference, bootstrapStatistic, type IntervalMethod } from '../bootstrap/index.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../data/outcomes.js';
import type { Seed } from '../random/seed.js';
import type { CostSweepResult } from './sweep.js';
import type { OutcomeTally } from './tally.js';

export interface SweepUncertaintyOptions {
  /** Resamples of documents; default 9999 (the bootstrap module's default). */
  nResamples?: number;
  /** Seed of the resampling; default 0. Every number below uses the same resamples. */
  seed?: Seed;
  /** Coverage of the intervals; default 0.95. */
  confidenceLevel?: number;
  /** Interval method for the cost gaps (src/bootstrap's); default 'bca'. Crossings always use 'percentile'. */
  method?: IntervalMethod;
}

/** How much one model's cost per document exceeds the leader's, with an interval. */
export interface CostGap {
  model: string;
  /** costPerDocument(model) − costPerDocument(leader) at the policy's costs. */
  difference: number;
  confidenceInterval: [number, number];
  standardError: number;
  /** Share of resamples in which this model is cheaper than the leader. */
  aheadOfLeaderProbability: number;
}

/** An in-band crossing with a bootstrap interval for where it lies. */
export interface CrossingInterval {
  models: [string, string];
  /** The crossing on the data as given. */
  value: number;
  /** Percentile interval of the resampled crossings; an end is ±Infinity (JSON null) when unbounded. */
  confidenceInterval: [number, number];
  /** Share of resamples in which the crossing falls inside the band (ends included). */
  inBandProbability: number;
  /**
   * Share of resamples in which the two lines' slopes tie or swap order, so the pair crosses
   * the other way round or not at all; when it is large the crossing is barely identified.
   */
  orientationFlips: number;
}

/** The paired bootstrap over documents of a cost sweep. */
export interface SweepUncertainty {
  /** Resampled unit: whole documents, every model's outcomes in a document kept together. */
  unit: 'document';
  documents: number;
  /** The leader (lowest cost) at the policy's costs. */
  leader: string;
  /** Share of resamples in which the leader is strictly the cheapest at the policy's costs (ties count as not ahead). */
  leaderAheadProbability: number;
  /** Every other model against the leader. */
  gaps: CostGap[];
  /** One per in-band crossing. */
  crossings: CrossingInterval[];
  method: IntervalMethod;
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  warnings: string[];
}

/** Per model and document: the cost at the policy's rates (fixed part + swept part). */
function documentCosts(tally: OutcomeTally, costs: Partial<Record<OutcomeKind, number>>, vary: OutcomeKind): { fixed: Float64Array[]; swept: Float64Array[] } {
  const K = OUTCOME_KINDS.length;
  const D = tally.documents.length;
  const fixed: Float64Array[] = [];
  const swept: Float64Array[] = [];
  for (const cells of tally.perDocument) {
    const f = new Float64Array(D);
    const s = new Float64Array(D);
    for (let d = 0; d < D; d++) {
      for (let k = 0; k < K; k++) {
        const count = cells[d * K + k];
        if (count === 0) continue;
        const kind = OUTCOME_KINDS[k];
        if (kind === vary) s[d] += count;
        else f[d] += (costs[kind] as number) * count;
      }
    }
    fixed.push(f);
    swept.push(s);
  }
  return { fixed, swept };
}

/** The mean of a 0/1 statistic over the resamples: θ̂ + bias, as a whole number of resamples / B. */
function shareOfResamples(n: number, indicator: (indices: Int32Array) => number, options: { nResamples: number; seed: Seed; confidenceLevel: number }): number {
  const result = bootstrapStatistic(n, indicator, { ...options, method: 'percentile' });
  const share = result.estimate + result.bias;
  return Math.round(share * result.nResamples) / result.nResamples;
}

/**
 * The uncertainty of a cost sweep, from a paired bootstrap over documents (src/bootstrap):
 * documents are drawn with replacement, each carrying every model's outcomes, so the models
 * stay paired and slots of one document stay together.
 *
 * - leaderAheadProbability = #{resamples where the leader's total cost < every other's} / B.
 * - gaps: `bootstrapMeanDifference` of per-document costs (model − leader), so the estimate is
 *   the difference in cost per document.
 * - crossing intervals: in each resample the pair's crossing x* = (A*_b − A*_a) / (B*_a − B*_b)
 *   (A the fixed part, B the count of the swept kind, both summed over the resampled documents);
 *   the percentile interval of x*. Resamples where B*_a = B*_b give x* = ±∞ by the sign of the
 *   numerator (the lines never meet), so an interval end can be unbounded.
 *
 * All statistics use the same seed, hence the same resamples.
 * Reference: Efron & Tibshirani (1993) ch. 6 and 13 (bootstrap of a ratio, percentile interval);
 * Field & Welsh (2007) on resampling whole clusters.
 * O(B × D × m) per statistic for B resamples, D documents, m models.
 * @param tally the outcomes per model and document.
 * @param sweep the sweep of the same tally (`costSweep`).
 * @param options nResamples, seed, confidenceLevel, method.
 * @returns the leader's probability of being ahead, gaps and crossing intervals, with the settings.
 * @example sweepUncertainty(tally, sweep, { seed: 0 }).leader // => 'alpha' on the bundled examples
 */
export function sweepUncertainty(tally: OutcomeTally, sweep: CostSweepResult, options: SweepUncertaintyOptions = {}): SweepUncertainty {
  const nResamples = options.nResamples ?? 9999;
  const seed = options.seed ?? 0;
  const confidenceLevel = options.confidenceLevel ?? sweep.confidenceLevel;
  const method = options.method ?? 'bca';
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${nResamples})`);
  const D = tally.documents.length;
  const x0 = sweep.policyValue;
  const { fixed, swept } = documentCosts(tally, sweep.policyCosts, sweep.vary);
  const index = new Map(tally.models.map((model, m) => [model, m]));
  const M = tally.models.length;
  const atPolicy = fixed.map((f, m) => Float64Array.from(f, (value, d) => value + x0 * swept[m][d]));
  const settings = { nResamples, seed, confidenceLevel };
  const warnings: string[] = [];
  if (D < 20) warnings.push(`only ${D} documents: bootstrap intervals over so few units are rough`);

  const leader = sweep.ranking[0];
  const l = index.get(leader) as number;
  const totals = new Float64Array(M);
  const leaderAheadProbability = shareOfResamples(
    D,
    (indices) => {
      totals.fill(0);
      for (let m = 0; m < M; m++) {
        const cost = atPolicy[m];
        let sum = 0;
        for (let k = 0; k < indices.length; k++) sum += cost[indices[k]];
        totals[m] = sum;
      }
      for (let m = 0; m < M; m++) if (m !== l && !(totals[l] < totals[m])) return 0;
      return 1;
    },
    settings,
  );

  const gaps: CostGap[] = [];
  for (const model of sweep.ranking.slice(1)) {
    const m = index.get(model) as number;
    const result = bootstrapMeanDifference(atPolicy[m], atPolicy[l], { ...settings, method });
    const aheadOfLeaderProbability = shareOfResamples(
      D,
      (indices) => {
        let diff = 0;
        for (let k = 0; k < indices.length; k++) diff += atPolicy[m][indices[k]] - atPolicy[l][indices[k]];
        return diff < 0 ? 1 : 0;
      },
      settings,
    );
    gaps.push({ model, difference: result.estimate, confidenceInterval: result.confidenceInterval, standardError: result.standardError, aheadOfLeaderProbability });
    for (const w of result.warnings) warnings.push(`${model} − ${leader}: ${w}`);
  }

  const crossings: CrossingInterval[] = [];
  for (const crossing of sweep.crossingsInBand) {
    const a = index.get(crossing.models[0]) as number;
    const b = index.get(crossing.models[1]) as number;
    // Per document: the pair's difference in fixed cost and in swept count.
    const dFixed = Float64Array.from(fixed[b], (value, d) => value - fixed[a][d]);
    const dSwept = Float64Array.from(swept[a], (value, d) => value - swept[b][d]);
    let slopeSign = 0;
    for (let d = 0; d < D; d++) slopeSign += dSwept[d];
    slopeSign = Math.sign(slopeSign);
    const sums = (indices: Int32Array): [number, number] => {
      let numerator = 0;
      let denominator = 0;
      for (let k = 0; k < indices.length; k++) {
        numerator += dFixed[indices[k]];
        denominator += dSwept[indices[k]];
      }
      return [numerator, denominator];
    };
    const crossingOf = ([numerator, denominator]: [number, number]): number => {
      if (denominator !== 0) return numerator / denominator;
      return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity;
    };
    const interval = bootstrapStatistic(D, (indices) => crossingOf(sums(indices)), { ...settings, method: 'percentile' });
    const [low, high] = sweep.band;
    const inBandProbability = shareOfResamples(
      D,
      (indices) => {
        const value = crossingOf(sums(indices));
        return value >= low && value <= high ? 1 : 0;
      },
      settings,
    );
    const orientationFlips = shareOfResamples(D, (indices) => (Math.sign(sums(indices)[1]) === slopeSign ? 0 : 1), settings);
    if (orientationFlips > (1 - confidenceLevel) / 2) {
      warnings.push(`${crossing.models[0]}/${crossing.models[1]}: in ${(orientationFlips * 100).toFixed(1)}% of resamples the lines tie in slope or cross the other way round: the crossing is barely identified`);
    }
    crossings.push({ models: crossing.models, value: crossing.value, confidenceInterval: interval.confidenceInterval, inBandProbability, orientationFlips });
  }
  return { unit: 'document', documents: D, leader, leaderAheadProbability, gaps, crossings, method, confidenceLevel, nResamples, seed: String(seed), warnings };
}
