import type { CostPolicy } from '../data/policy.js';
import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../data/outcomes.js';
import { addRational, decimalRational, multiplyRational, rationalText, type Rational } from './rational.js';
import { lineCrossings, type Crossing, type CostLine, type PairCrossing, type RankingInterval } from './crossings.js';
import { outcomeRates, type OutcomeRates } from './rates.js';
import type { OutcomeCounts, OutcomeTally } from './tally.js';

/** One model's cost at the policy's rates, with the counts behind it. */
export interface ModelCost {
  model: string;
  /** Expected cost per document: total cost / number of distinct documents. */
  costPerDocument: number;
  /** Σ cost(kind) × count(kind) over every outcome. */
  totalCost: number;
  /** The vector: outcomes of each kind (the scalar ranks; the vector is what a person signs off on). */
  counts: OutcomeCounts;
  /** costPerDocument as a line in the swept cost x: intercept + slope · x (per document). */
  line: { intercept: number; slope: number };
  /** Recall, precision and hallucination rate with Wilson intervals. */
  rates: OutcomeRates;
}

export interface CostSweepOptions {
  /** Coverage of the Wilson intervals; default 0.95. */
  confidenceLevel?: number;
  /** The policy's file, for error messages. */
  policySource?: string;
}

/** A cost sweep: the ranking at the policy's rates and how it moves with the swept cost. */
export interface CostSweepResult {
  /** The scores file. */
  source: string;
  /** The policy's owner and decision date: every ranking below depends on them. */
  owner: string;
  decided: string;
  /** The policy's costs per outcome kind. */
  policyCosts: Partial<Record<OutcomeKind, number>>;
  /** The swept outcome kind and its value in the policy. */
  vary: OutcomeKind;
  policyValue: number;
  band: [number, number];
  /** Distinct documents (the denominator of costPerDocument), and where they come from. */
  documents: number;
  documentsFrom: 'cluster' | 'item';
  items: number;
  /** Model names, lowest cost per document first, at the policy's costs. */
  ranking: string[];
  /** Per model, in ranking order. */
  costs: ModelCost[];
  /** Every crossing inside the domain [0, ∞) of the swept cost, by value. */
  crossings: Crossing[];
  crossingsInBand: Crossing[];
  /** `data`: no crossing inside the band; `assumption`: the rate inside the band decides. */
  verdict: 'data' | 'assumption';
  /** The ranking on each interval between crossings. */
  intervals: RankingInterval[];
  /** Every pair of models with where their lines tie (also crossings at negative values). */
  pairs: PairCrossing[];
  /** The stretch of the swept cost around the policy's value on which `ranking` holds. */
  rankingHolds: [number, number];
  /** With verdict `data`: how far below and above the band the band's ranking holds; else null. */
  holdsBeyondBand: [number, number] | null;
  /** The distinct leaders over the band, in order of the swept cost. */
  leadersInBand: string[];
  confidenceLevel: number;
  warnings: string[];
}

/**
 * The cost lines of every model in total cost units (not per document), so crossings are one
 * division of sums of count × cost: exact whenever counts and costs are whole numbers. The same sums
 * in exact rationals of the decimal costs ride along in `exact`, so a crossing's `fraction` is exact
 * for decimal costs too (2.5, 0.1).
 * intercept = Σ_{kind ≠ vary} cost(kind) · count(kind); slope = count(vary).
 * @throws {RangeError} when a kind a model produced has no cost (checkPolicyCovers says which).
 * @example totalCostLines(tally, { miss: 1, fabrication: 8, wrong_span: 2 }, 'fabrication')[0] // => { model: 'alpha', intercept: 55, slope: 6, exact: { intercept: '55', slope: '6' } } on examples/scores.csv
 */
export function totalCostLines(tally: OutcomeTally, costs: Partial<Record<OutcomeKind, number>>, vary: OutcomeKind): CostLine[] {
  return tally.models.map((model, m) => {
    let intercept = 0;
    let exactIntercept: Rational = { numerator: 0n, denominator: 1n };
    for (const kind of OUTCOME_KINDS) {
      if (kind === vary) continue;
      const count = tally.counts[m][kind];
      if (count === 0) continue;
      const cost = costs[kind];
      if (cost === undefined) throw new RangeError(`no cost for "${kind}", which ${model} produced ${count} times (see checkPolicyCovers)`);
      intercept += cost * count;
      exactIntercept = addRational(exactIntercept, multiplyRational(decimalRational(cost), decimalRational(count)));
    }
    const slope = tally.counts[m][vary];
    return { model, intercept, slope, exact: { intercept: rationalText(exactIntercept), slope: rationalText(decimalRational(slope)) } };
  });
}

/**
 * Throws when some model has an outcome whose kind the policy gives no cost: a missing cost is
 * never silently 0 (a fabrication costed at nothing would rank the most inventive model first).
 * @throws {InputError} `POLICY: costs.KIND: N outcomes (model: n, …) are KIND but the policy gives it no cost`.
 */
export function checkPolicyCovers(tally: OutcomeTally, policy: CostPolicy, policySource?: string): void {
  for (const kind of OUTCOME_KINDS) {
    if (policy.costs[kind] !== undefined) continue;
    const by = tally.models.map((model, m) => [model, tally.counts[m][kind]] as const).filter(([, n]) => n > 0);
    if (by.length === 0) continue;
    const total = by.reduce((sum, [, n]) => sum + n, 0);
    throw new InputError(
      `costs.${kind}: ${formatCount(total)} outcome${total === 1 ? ' is' : 's are'} "${kind}" (${by.map(([model, n]) => `${model}: ${formatCount(n)}`).join(', ')}) but the policy gives "${kind}" no cost; add costs.${kind}`,
      policySource === undefined ? { value: kind } : { file: policySource, value: kind },
    );
  }
}

function formatCount(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/**
 * Cost-weighted scoring and the exchange-rate sweep, in one call: every model's counts (the
 * vector) and expected cost per document (the scalar) at the policy's costs, then the policy's
 * swept cost varied with the others fixed. Each model's cost is a line in the swept cost, so
 * the ranking changes only where two lines cross (see `lineCrossings`): the verdict is `data`
 * when no crossing lies inside the band and `assumption` when one does.
 *
 * costPerDocument = Σ_kind cost(kind) · count(kind) / D, D = distinct documents (`cluster`
 * column; each item is a document without one), never the number of outcomes.
 *
 * Reference: "Building a private benchmark", "Scoring when the errors are not the same error"
 * (`cost_and_counts`: report the scalar AND the vector).
 * O(rows) to tally (done before), O(m² log m) for m models here.
 * @param tally outcomes per model and document (`tallyOutcomes`).
 * @param policy the cost policy; its `sweep` says which cost to vary and the accepted band.
 * @param options confidenceLevel for the rates; policySource for messages.
 * @returns ranking, costs, crossings, verdict, intervals and the owner, echoing the policy.
 * @throws {InputError} when the policy has no sweep, or gives no cost to a kind the models produced.
 * @example costSweep(tallyOutcomes(loadScores('examples/scores.csv')), loadPolicy('examples/policy.yaml')).crossings[0].value // => 13.8
 */
export function costSweep(tally: OutcomeTally, policy: CostPolicy, options: CostSweepOptions = {}): CostSweepResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const where = options.policySource === undefined ? {} : { file: options.policySource };
  if (!policy.sweep) throw new InputError('sweep: the policy has no sweep section: add sweep: { vary: KIND, band: [LOW, HIGH] }', where);
  const { vary, band } = policy.sweep;
  const policyValue = policy.costs[vary];
  if (policyValue === undefined) throw new InputError(`sweep.vary: the swept cost needs a value in costs too`, { ...where, value: vary });
  checkPolicyCovers(tally, policy, options.policySource);

  const D = tally.documents.length;
  const lines = totalCostLines(tally, policy.costs, vary);
  const sweep = lineCrossings(lines, { band, at: policyValue });
  const byModel = new Map(tally.models.map((model, m) => [model, m]));
  const costs: ModelCost[] = sweep.ranking.map((model) => {
    const m = byModel.get(model) as number;
    const line = lines[m];
    const totalCost = line.intercept + policyValue * line.slope;
    return {
      model,
      costPerDocument: totalCost / D,
      totalCost,
      counts: tally.counts[m],
      line: { intercept: line.intercept / D, slope: line.slope / D },
      rates: outcomeRates(tally.counts[m], { confidenceLevel }),
    };
  });
  const warnings = [...tally.warnings, ...sweep.warnings];
  if (lines.every((line) => line.slope === 0)) warnings.push(`no model has a "${vary}" outcome: the swept cost changes nothing`);
  if (tally.models.length < 2) warnings.push('only one model: there is nothing to rank it against');
  return {
    source: tally.source,
    owner: policy.owner,
    decided: policy.decided,
    policyCosts: Object.fromEntries(OUTCOME_KINDS.filter((kind) => policy.costs[kind] !== undefined).map((kind) => [kind, policy.costs[kind]])),
    vary,
    policyValue,
    band: [band[0], band[1]],
    documents: D,
    documentsFrom: tally.documentsFrom,
    items: tally.items,
    ranking: sweep.ranking,
    costs,
    crossings: sweep.crossings,
    crossingsInBand: sweep.crossingsInBand,
    verdict: sweep.verdict,
    intervals: sweep.intervals,
    pairs: sweep.pairs,
    rankingHolds: sweep.rankingHolds,
    holdsBeyondBand: sweep.holdsBeyondBand,
    leadersInBand: sweep.leadersInBand,
    confidenceLevel,
    warnings,
  };
}
