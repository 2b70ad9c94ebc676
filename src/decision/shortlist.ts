import { nonInferiorityFromScores, type NonInferiorityCheck } from '../gate/gate.js';
import { holmAdjust } from '../paired/holm.js';
import { bootstrapMeanDifference } from '../bootstrap/index.js';
import { chooseIntervalMethod } from '../paired/index.js';
import type { Seed } from '../random/seed.js';
import { tInterval } from '../paired/t-interval.js';
import { outcomeRates } from '../costs/rates.js';
import { emptyOutcomeCounts, type OutcomeCounts } from '../costs/tally.js';
import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import { alignModels, type AlignedScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { studentTCdf } from '../distributions/index.js';
import { formatNumber } from '../report/table.js';
import type { CostPolicy } from '../data/policy.js';
import { costScopes, type CostScope } from './cost-scopes.js';
import type { Requirement } from './requirement.js';

/** Settings of a shortlist. */
export interface ShortlistOptions {
  /**
   * How much worse than the best (in score units, ≥ 0) a candidate may be and still count as
   * "not worse": 0.05 on 0/1 scores is five points. Default 0.
   */
  margin?: number;
  /** Absolute bars (parseRequirement); every one must be met. Default none. */
  requirements?: readonly Requirement[];
  /** One-sided level of each check in (0, 1); default 0.95 (family-wise α = 0.05 per candidate, Holm). */
  confidenceLevel?: number;
  /** Check every stratum too (default: when the table has a stratum column). */
  perStratum?: boolean;
  /** Treat the table's clusters (documents) as the unit: clustered SE with G − 1 df. */
  cluster?: boolean;
  /** Leave out items some candidate did not score, instead of failing. */
  dropUnpaired?: boolean;
  /** The candidates to consider, in this order; default every model in the table. */
  models?: readonly string[];
  /**
   * A cost policy (owner, decided, costs): adds cost bars (`SCOPE.cost<=X`) and the check that a
   * candidate's expected cost per document is not higher than the cheapest's by more than
   * costMargin, overall and per stratum (costScopes' attribution rule). Needs an outcome column.
   */
  policy?: Pick<CostPolicy, 'owner' | 'decided' | 'costs'>;
  /** How much more per document than the cheapest (in the policy's cost units, ≥ 0) a finalist may cost. Default 0. */
  costMargin?: number;
  /** The policy's file, named in errors. */
  policySource?: string;
  /**
   * Resamples of the bootstrap that gives the overall cost gap `benchplan sweep`'s interval
   * (sweepInterval); default 9999, 0 skips it. Nothing else in the shortlist is random.
   */
  nResamples?: number;
  /** Seed of that bootstrap; default 0 (sweep's default, so the two print the same interval). */
  seed?: Seed;
}

/** One absolute bar on one candidate. */
export interface BarCheck {
  kind: 'bar';
  requirement: string;
  scope: string;
  metric: Requirement['metric'];
  operator: Requirement['operator'];
  threshold: number;
  /** The point estimate the bar is judged on. */
  estimate: number;
  /** Two-sided interval at confidenceLevel: t for a mean, Wilson for a rate. */
  confidenceInterval: [number, number];
  /** Items (mean), slots (rate) or documents (cost) behind the estimate. */
  n: number;
  passed: boolean;
  reason: string;
}

/**
 * One check that the candidate's expected cost per document is not higher than the cheapest
 * candidate's by more than the cost margin (the policy's units).
 */
export interface CostComparisonCheck {
  kind: 'costComparison';
  /** `overall` or the stratum's name. */
  scope: string;
  /** The cheapest candidate overall, the reference of every cost check. */
  reference: string;
  /** Documents in the scope (the unit: costScopes). */
  n: number;
  /** mean over the scope's documents of cost(candidate) − cost(cheapest): > 0 is costlier. */
  estimate: number;
  /** One-sided lower confidence bound at confidenceLevel: [lower, +∞). */
  confidenceInterval: [number, number];
  /**
   * Two-sided Student t interval at confidenceLevel over the scope's documents: overall, the
   * interval of `benchplan sweep --method t`'s cost gap (bootstrapMeanDifference, method t).
   */
  twoSidedInterval: [number, number];
  standardError: number;
  df: number;
  /**
   * Overall only (null for a stratum, or with nResamples 0): the interval `benchplan sweep` prints
   * for this gap with the same seed, resamples and level: its `auto` rule (Student t below 100
   * documents, BCa from 100; chooseIntervalMethod) over the paired per-document costs, drawn by
   * bootstrapMeanDifference on the index path as sweepUncertainty draws it. Shown beside the
   * verdict; the verdict rests on the t test.
   */
  sweepInterval: { method: 't' | 'bca'; confidenceInterval: [number, number]; nResamples: number; seed: string } | null;
  /** +costMargin: the candidate is eliminated when the gap is shown above it. */
  threshold: number;
  /** One-sided p of H0: gap ≤ costMargin (the candidate is within the margin). */
  pValue: number;
  adjustedPValue: number;
  holmConfidenceLevel: number;
  /** The one-sided lower bound at holmConfidenceLevel: when the check eliminates, it lies above costMargin. */
  holmLowerBound: number;
  worse: boolean;
  passed: boolean;
  reason: string;
}

/** A candidate's expected cost per document in one scope, with its two-sided t interval. */
export interface ScopeCost {
  scope: string;
  documents: number;
  estimate: number;
  confidenceInterval: [number, number];
}

/** One check that the candidate is not worse than the best by more than the margin. */
export interface ComparisonCheck {
  kind: 'comparison';
  /** `overall` or the stratum's name. */
  scope: string;
  n: number;
  nClusters: number | null;
  /** mean(candidate − best) over the scope's items. */
  estimate: number;
  /** One-sided upper confidence bound of candidate − best at confidenceLevel: (−∞, upper]. */
  confidenceInterval: [number, number];
  standardError: number;
  df: number;
  /** −margin: the candidate is eliminated when candidate − best is shown to lie below it. */
  threshold: number;
  /** One-sided p of H0: candidate − best ≥ −margin (the candidate is within the margin). */
  pValue: number;
  /** Holm-adjusted over this candidate's checks (R `p.adjust(method = "holm")`). */
  adjustedPValue: number;
  /**
   * Holm's level for this check: 1 − α / k, k = how many of the candidate's checks have a p-value
   * at least this one's (its divisor in Holm's step-down).
   */
  holmConfidenceLevel: number;
  /**
   * The one-sided upper bound of candidate − best at holmConfidenceLevel (the gate's bound at that
   * level): when the check eliminates the candidate, this bound lies below −margin.
   */
  holmUpperBound: number;
  /** Shown worse than the best by more than the margin: adjustedPValue < α. */
  worse: boolean;
  passed: boolean;
  reason: string;
}

/** One candidate's verdict. */
export interface ShortlistCandidate {
  model: string;
  /** Mean score over the common items. */
  mean: number;
  shortlisted: boolean;
  /**
   * The first failed check: bars in the order given, then the score checks (overall, then strata),
   * then the cost checks (overall, then strata); null for a finalist.
   */
  firstReason: BarCheck | ComparisonCheck | CostComparisonCheck | null;
  bars: BarCheck[];
  /** Empty for the best candidate (it is the reference). */
  comparisons: ComparisonCheck[];
  /** With a policy: expected cost per document overall and per stratum; else empty. */
  costs: ScopeCost[];
  /** With a policy, against the cheapest (empty for the cheapest, and without a policy). */
  costComparisons: CostComparisonCheck[];
  warnings: string[];
}

/** Which candidates clear the bar, with every number behind each verdict and the settings used. */
export interface ShortlistResult {
  /** The candidate with the highest mean score over the common items (first in table order on ties). */
  best: string;
  finalists: string[];
  eliminated: string[];
  candidates: ShortlistCandidate[];
  margin: number;
  confidenceLevel: number;
  /** 1 − confidenceLevel. */
  alpha: number;
  /** `t`: paired Student t bounds from nonInferiorityFromScores (ttest_rel). */
  method: 't';
  multiplicity: 'holm';
  /** What one Holm family is: the overall check and every stratum check of one candidate (score and cost). */
  family: string;
  /** The policy's owner, decision date and prices when a policy was given, else null. */
  policy: { owner: string; decided: string; costs: CostPolicy['costs'] } | null;
  /** The cost margin (policy units per document); null without a policy. */
  costMargin: number | null;
  /** The candidate with the lowest expected cost per document (first in order on ties); null without a policy. */
  cheapest: string | null;
  /** The attribution rule behind per-stratum costs; null without a policy. */
  costRule: string | null;
  /** The bootstrap of the overall cost gaps' sweepInterval (null without a policy). */
  costBootstrap: { nResamples: number; seed: string } | null;
  requirements: string[];
  perStratum: boolean;
  clustered: boolean;
  /** Common items. */
  n: number;
  dropped: number;
  warnings: string[];
}

function checkSettings(options: ShortlistOptions) {
  const margin = options.margin ?? 0;
  if (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0) throw new RangeError(`margin must be a finite number ≥ 0 (got ${String(margin)})`);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (typeof confidenceLevel !== 'number' || !(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be a number in (0, 1) (got ${String(confidenceLevel)})`);
  const costMargin = options.costMargin ?? 0;
  if (typeof costMargin !== 'number' || !Number.isFinite(costMargin) || costMargin < 0) throw new RangeError(`costMargin must be a finite number ≥ 0 (got ${String(costMargin)})`);
  return { margin, confidenceLevel, costMargin };
}

/** The rule costScopes applies, in words (echoed in the result). */
export const COST_RULE =
  "an item's cost is its outcome's price and counts in the item's stratum; a stratum's expected cost per document is the mean, over the documents with an item in it, of the cost of those items; overall it is the total cost over all documents (sweep's cost per document)";

function mean(values: ArrayLike<number>): number {
  let t = 0;
  for (let i = 0; i < values.length; i++) t += values[i];
  return t / values.length;
}

function costOf(scope: CostScope, k: number, confidenceLevel: number): ScopeCost {
  const values = scope.values[k];
  const n = values.length;
  return { scope: scope.scope, documents: n, estimate: mean(values), confidenceInterval: n >= 2 ? tInterval(Array.from(values), { confidenceLevel }).confidenceInterval : [NaN, NaN] };
}

/** Outcome counts per model and scope (`overall` and each stratum), each repeat weighing 1 / repeats. */
function outcomeCounts(table: ScoresTable, aligned: AlignedScores): Map<string, OutcomeCounts>[] {
  const position = new Map<number, number>();
  aligned.items.forEach((id) => position.set(table.items.indexOf(id), position.size));
  const modelPosition = new Map(aligned.models.map((m, k) => [table.models.indexOf(m), k]));
  const out = aligned.models.map(() => new Map<string, OutcomeCounts>());
  for (let r = 0; r < table.rowCount; r++) {
    const k = modelPosition.get(table.model[r]);
    const i = position.get(table.item[r]);
    if (k === undefined || i === undefined || table.outcome[r] < 0) continue;
    const weight = 1 / aligned.repeats[k][i];
    const kind = OUTCOME_KINDS[table.outcome[r]];
    const scopes = ['overall', ...(aligned.stratum === null ? [] : [aligned.strata[aligned.stratum[i]]])];
    for (const scope of scopes) {
      let counts = out[k].get(scope);
      if (counts === undefined) out[k].set(scope, (counts = emptyOutcomeCounts()));
      counts[kind] += weight;
    }
  }
  return out;
}

function barCheck(requirement: Requirement, k: number, aligned: AlignedScores, counts: Map<string, OutcomeCounts>[], confidenceLevel: number, costs: ScopeCost[]): BarCheck {
  const { scope, metric, operator, threshold } = requirement;
  let estimate: number;
  let confidenceInterval: [number, number];
  let n: number;
  if (metric === 'mean') {
    const values: number[] = [];
    const scores = aligned.scores[k];
    for (let i = 0; i < scores.length; i++) if (scope === 'overall' || aligned.strata[aligned.stratum![i]] === scope) values.push(scores[i]);
    n = values.length;
    estimate = values.reduce((a, x) => a + x, 0) / n;
    confidenceInterval = n >= 2 ? tInterval(values, { confidenceLevel }).confidenceInterval : [NaN, NaN];
  } else if (metric === 'cost') {
    const c = costs.find((x) => x.scope === scope);
    estimate = c?.estimate ?? NaN;
    confidenceInterval = c?.confidenceInterval ?? [NaN, NaN];
    n = c?.documents ?? 0;
  } else {
    const rate = outcomeRates(counts[k].get(scope) ?? emptyOutcomeCounts(), { confidenceLevel })[metric];
    estimate = rate.estimate;
    confidenceInterval = rate.confidenceInterval;
    n = rate.denominator;
  }
  const passed = Number.isFinite(estimate) && (operator === '<=' ? estimate <= threshold : estimate >= threshold);
  const level = `${+(confidenceLevel * 100).toFixed(4)}%`;
  const where = `${scope}.${metric} = ${formatNumber(estimate, 3)} (${level} interval ${formatNumber(confidenceInterval[0], 3)} to ${formatNumber(confidenceInterval[1], 3)}, n ${formatNumber(n)})`;
  const reason = Number.isNaN(estimate) ? `${scope}.${metric} is undefined (no ${metric === 'cost' ? 'documents' : 'slots in its denominator'}): the bar ${requirement.text} cannot be met` : passed ? `${where} meets ${requirement.text}` : `${where} fails the bar ${requirement.text}`;
  return { kind: 'bar', requirement: requirement.text, scope, metric, operator, threshold, estimate, confidenceInterval, n, passed, reason };
}

/**
 * How many slots (outcomes in the rate's denominator) would have to change for a rate bar to flip:
 * with x = estimate · n slots counted and the bar at t · n, a passing `<=` bar fails at
 * ⌊t·n⌋ + 1 slots, a failing one passes at ⌊t·n⌋; a `>=` bar fails below ⌈t·n⌉ and passes at it.
 * Infinity for a mean or cost bar or an undefined rate.
 */
function slotsToFlip(b: BarCheck): number {
  if (b.metric === 'mean' || b.metric === 'cost' || !Number.isFinite(b.estimate) || b.n === 0) return Infinity;
  const count = b.estimate * b.n;
  const limit = b.threshold * b.n;
  const eps = 1e-9;
  let slots: number;
  if (b.operator === '<=') slots = b.passed ? Math.floor(limit + eps) + 1 - count : count - Math.floor(limit + eps);
  else slots = b.passed ? count - (Math.ceil(limit - eps) - 1) : Math.ceil(limit - eps) - count;
  // count is estimate · n, a whole number up to rounding (or a share of repeats): round off the noise.
  return Math.round(slots * 1e6) / 1e6;
}

function comparisonCheck(check: NonInferiorityCheck, margin: number): Omit<ComparisonCheck, 'adjustedPValue' | 'holmConfidenceLevel' | 'holmUpperBound' | 'worse' | 'passed' | 'reason'> {
  // The gate bounds best − candidate from below; its negation bounds candidate − best from above.
  const units = check.nClusters ?? check.n;
  const df = units - 1;
  const excess = check.estimate - margin; // (best − candidate) − margin: > 0 means worse than the margin
  let pValue: number;
  if (Number.isNaN(check.lowerBound) || !(df > 0)) pValue = NaN;
  else if (check.standardError === 0) pValue = excess > 0 ? 0 : 1;
  else pValue = studentTCdf(-excess / check.standardError, df);
  return {
    kind: 'comparison',
    scope: check.stratum ?? 'overall',
    n: check.n,
    nClusters: check.nClusters,
    estimate: check.estimate === 0 ? 0 : -check.estimate,
    confidenceInterval: [-Infinity, check.lowerBound === 0 ? 0 : -check.lowerBound],
    standardError: check.standardError,
    df,
    threshold: -margin,
    pValue,
  };
}

/**
 * The cost check of candidate k against the cheapest on one scope: the one-sided paired t test of
 * H0: mean(cost_k − cost_cheapest) ≤ costMargin over the scope's documents (nonInferiorityFromScores
 * with method t, whose lower bound of cost_k − cost_cheapest is the bound here), and the
 * two-sided t interval at confidenceLevel beside it.
 */
function costComparisonCheck(scope: CostScope, k: number, cheapest: number, costMargin: number, confidenceLevel: number, models: readonly string[], sweep: { nResamples: number; seed: string }) {
  const candidate = scope.values[k];
  const baseline = scope.values[cheapest];
  const at = (level: number) => nonInferiorityFromScores({ candidate, baseline }, { margin: 0, method: 't', confidenceLevel: level }).overall;
  const check = at(confidenceLevel);
  const n = candidate.length;
  const df = n - 1;
  const excess = check.estimate - costMargin;
  let pValue: number;
  if (Number.isNaN(check.lowerBound) || !(df > 0)) pValue = NaN;
  else if (check.standardError === 0) pValue = excess > 0 ? 0 : 1;
  else pValue = studentTCdf(-excess / check.standardError, df);
  const differences = Array.from(candidate, (x, d) => x - baseline[d]);
  const twoSidedInterval: [number, number] = n >= 2 ? tInterval(differences, { confidenceLevel }).confidenceInterval : [NaN, NaN];
  let sweepInterval: CostComparisonCheck['sweepInterval'] = null;
  if (scope.scope === 'overall' && sweep.nResamples > 0 && n >= 2) {
    // sweepUncertainty's gap, step by step: auto picks t or BCa from the differences, then the index path.
    const used = chooseIntervalMethod({ differences: Float64Array.from(differences) }).methodUsed === 'bca' ? 'bca' : 't';
    const boot = bootstrapMeanDifference(candidate, baseline, { nResamples: sweep.nResamples, seed: sweep.seed, confidenceLevel, method: used, resamplePath: 'indices' });
    sweepInterval = { method: used, confidenceInterval: boot.confidenceInterval, nResamples: sweep.nResamples, seed: sweep.seed };
  }
  return {
    kind: 'costComparison' as const,
    scope: scope.scope,
    reference: models[cheapest],
    n,
    estimate: check.estimate,
    confidenceInterval: [check.lowerBound, Infinity] as [number, number],
    twoSidedInterval,
    sweepInterval,
    standardError: check.standardError,
    df,
    threshold: costMargin,
    pValue,
    boundAt: (level: number) => at(level).lowerBound,
  };
}

/**
 * The shortlist (seeds/004, last section: "the eval narrows the field to the candidates that clear
 * the bar"): a candidate is a finalist when it meets every absolute bar and is not shown to be
 * worse than the best candidate by more than the margin, overall or in any stratum.
 *
 * Bars are judged on point estimates (the interval is reported beside them). The best is the
 * candidate with the highest mean score over the items every candidate scored. For every other
 * candidate c and every scope s (overall, then each stratum), δ_s = mean_s(c − best) is tested:
 * H0: δ_s ≥ −margin (c is within the margin) against H1: δ_s < −margin, with the paired t bound
 * of nonInferiorityFromScores on best − c (one-sided, at confidenceLevel): p_s =
 * P(T_df ≥ (mean(best − c) − margin) / SE), df = n − 1 (G − 1 clusters). The candidate's
 * 1 + H p-values are Holm-adjusted (holmAdjust, as R `p.adjust(p, "holm")`), and c is eliminated
 * by the first scope whose adjusted p is < α = 1 − confidenceLevel. Holm controls, for each
 * candidate that is in truth within the margin everywhere, the chance of eliminating it at ≤ α
 * under any dependence between its checks. A candidate closer to the best than the data can tell
 * apart stays in: the shortlist never separates what the benchmark cannot (seeds/000's caution).
 *
 * With a cost policy (options.policy, the exchange rate `benchplan sweep` uses), bars may be on
 * `cost` (expected cost per document, judged on the estimate, t interval over documents beside
 * it), and every candidate but the cheapest (lowest expected cost per document overall) is also
 * checked on cost in each scope: γ_s = mean over the scope's documents of cost(c) − cost(cheapest),
 * H0: γ_s ≤ costMargin against H1: γ_s > costMargin, p_s = P(T_df ≥ (γ_s − costMargin) / SE),
 * df = D_s − 1 documents (costScopes: an item's cost counts in its own stratum; a stratum's
 * documents are those with an item in it). The cost p-values join the same Holm family as the
 * score checks. Overall, γ and its two-sided interval are `benchplan sweep --method t`'s cost gap.
 *
 * Reference: Holm (1979); Wellek (2010) ch. 2 for the one-sided shifted-null t test (scipy
 * `ttest_rel(best, c + margin, alternative='greater')`, R `t.test(best, c, paired = TRUE,
 * mu = margin, alternative = "greater")`).
 * @param table a scores table (a stratum column for per-stratum checks and stratum bars; an
 *   outcome column for rate bars).
 * @param options margin, requirements, confidenceLevel, perStratum, cluster, dropUnpaired, models,
 *   policy, costMargin, policySource, nResamples and seed (of the overall cost gaps' sweep interval).
 * @returns best, finalists, eliminated, per-candidate checks with the first reason, costs and cost
 *   checks with a policy, the settings (the policy's owner, date and prices echoed).
 * @throws {InputError} for a bar naming a stratum the table lacks, a rate bar without outcomes,
 *   a cost bar without a policy, a policy without outcomes or missing a price, fewer than two
 *   candidates, unpaired items (without dropUnpaired). @throws {RangeError} for bad settings.
 * @example shortlist(table, { margin: 0.05 }).finalists // => ['alpha'] on examples/scores.csv
 */
export function shortlist(table: ScoresTable, options: ShortlistOptions = {}): ShortlistResult {
  const { margin, confidenceLevel, costMargin } = checkSettings(options);
  const nResamples = options.nResamples ?? 9999;
  if (!Number.isInteger(nResamples) || nResamples < 0) throw new RangeError(`nResamples must be a whole number ≥ 0 (got ${String(nResamples)})`);
  const seed = String(options.seed ?? 0);
  const alpha = 1 - confidenceLevel;
  const models = options.models ?? table.models;
  if (models.length < 2) throw new InputError(`a shortlist needs at least two candidates (got ${models.length})`, { file: table.source });
  const requirements = options.requirements ?? [];
  const perStratum = options.perStratum ?? table.hasStratum;
  const policy = options.policy ?? null;
  if (perStratum && !table.hasStratum) throw new InputError('has no stratum column for per-stratum checks', { file: table.source });
  if (options.cluster && !table.hasCluster) throw new InputError('has no cluster column to treat as the unit', { file: table.source });
  if (policy !== null && !table.hasOutcome) throw new InputError('has no "outcome" column: a cost policy prices outcomes', { file: table.source });
  for (const r of requirements) {
    if (r.scope !== 'overall' && !table.strata.includes(r.scope)) {
      throw new InputError(`the bar names stratum "${r.scope}", which is not in the scores (strata: ${table.strata.join(', ') || 'none'})`, { file: '--require', value: r.text });
    }
    if (r.metric === 'cost' && policy === null) throw new InputError('the bar on cost needs a cost policy (--policy)', { file: '--require', value: r.text });
    if (r.metric !== 'mean' && !table.hasOutcome) throw new InputError(`the bar on ${r.metric} needs an outcome column in the scores`, { file: '--require', value: r.text });
  }
  const aligned = alignModels(table, models, { dropUnpaired: options.dropUnpaired ?? false });
  const n = aligned.items.length;
  const means = aligned.scores.map((s) => s.reduce((a, x) => a + x, 0) / n);
  let bestIndex = 0;
  for (let k = 1; k < means.length; k++) if (means[k] > means[bestIndex]) bestIndex = k;
  const counts = requirements.some((r) => r.metric !== 'mean' && r.metric !== 'cost') ? outcomeCounts(table, aligned) : aligned.models.map(() => new Map<string, OutcomeCounts>());
  const scopes = policy === null ? [] : costScopes(table, aligned, policy, options.policySource);
  const costScopesChecked = perStratum ? scopes : scopes.slice(0, 1);
  const modelCosts = aligned.models.map((_, k) => scopes.map((scope) => costOf(scope, k, confidenceLevel)));
  let cheapestIndex = -1;
  if (policy !== null) {
    cheapestIndex = 0;
    for (let k = 1; k < aligned.models.length; k++) if (modelCosts[k][0].estimate < modelCosts[cheapestIndex][0].estimate) cheapestIndex = k;
  }
  const warnings: string[] = [];
  if (aligned.dropped > 0) warnings.push(`${aligned.dropped} item${aligned.dropped === 1 ? '' : 's'} not scored by every candidate left out`);
  const level = `${+(confidenceLevel * 100).toFixed(4)}%`;
  const holmLevel = (divisor: number) => `${+((1 - alpha / divisor) * 100).toFixed(4)}%`;

  const candidates: ShortlistCandidate[] = aligned.models.map((model, k) => {
    const bars = requirements.map((r) => barCheck(r, k, aligned, counts, confidenceLevel, modelCosts[k]));
    const candidateWarnings: string[] = [];
    // Every check of this candidate (score, then cost) is one Holm family: its p-value and its bound at any level.
    const family: Array<{ pValue: number; boundAt: (level: number) => number }> = [];
    let rawScores: ReturnType<typeof comparisonCheck>[] = [];
    if (k !== bestIndex) {
      const data = { candidate: aligned.scores[bestIndex], baseline: aligned.scores[k], stratum: perStratum ? aligned.stratum : null, strataNames: aligned.strata, cluster: options.cluster ? aligned.cluster : null, clusterNames: aligned.clusters };
      const names = { baseline: model, candidate: aligned.models[bestIndex] };
      const cache = new Map<number, ReturnType<typeof nonInferiorityFromScores>>();
      const gateAt = (at: number) => {
        let gate = cache.get(at);
        if (gate === undefined) cache.set(at, (gate = nonInferiorityFromScores(data, { margin, method: 't', confidenceLevel: at, perStratum }, names)));
        return gate;
      };
      const gate = gateAt(confidenceLevel);
      candidateWarnings.push(...gate.warnings);
      rawScores = [gate.overall, ...gate.strata].map((c) => comparisonCheck(c, margin));
      rawScores.forEach((c, j) => family.push({ pValue: c.pValue, boundAt: (at) => -[gateAt(at).overall, ...gateAt(at).strata][j].lowerBound }));
    }
    let rawCosts: Array<ReturnType<typeof costComparisonCheck>> = [];
    if (policy !== null && k !== cheapestIndex) {
      rawCosts = costScopesChecked.map((scope) => costComparisonCheck(scope, k, cheapestIndex, costMargin, confidenceLevel, aligned.models, { nResamples, seed }));
      rawCosts.forEach((c) => family.push({ pValue: c.pValue, boundAt: c.boundAt }));
    }
    const adjusted = holmAdjust(family.map((c) => c.pValue));
    // Holm's divisor of each check: how many p-values are at least its own (ties as holmAdjust orders them).
    const present = family.map((c, j) => [c.pValue, j] as const).filter(([p]) => !Number.isNaN(p));
    const order = [...present].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, j]) => j);
    const divisor = family.map((_, j) => (order.includes(j) ? order.length - order.indexOf(j) : 1));
    const comparisons: ComparisonCheck[] = rawScores.map((c, j) => {
      const adjustedPValue = adjusted[j];
      const worse = adjustedPValue < alpha;
      const holmConfidenceLevel = 1 - alpha / divisor[j];
      const bound = family[j].boundAt(holmConfidenceLevel);
      const holmUpperBound = bound === 0 ? 0 : bound;
      const interval = worse ? `upper bound ${formatNumber(holmUpperBound, 3)} at Holm's level ${holmLevel(divisor[j])}` : `${level} upper bound ${formatNumber(c.confidenceInterval[1], 3)}`;
      const what = `${c.scope}: ${model} − ${aligned.models[bestIndex]} = ${formatNumber(c.estimate, 3)} (${interval}, n ${c.n})`;
      let reason: string;
      if (Number.isNaN(c.pValue)) reason = `${what}: too few ${c.nClusters === null ? 'items' : 'clusters'} to tell`;
      else if (worse) reason = `${what} is worse than the best by more than the margin ${formatNumber(margin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)} < ${formatNumber(alpha)})`;
      else reason = `${what} is not shown worse than −${formatNumber(margin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)})`;
      return { ...c, adjustedPValue, holmConfidenceLevel, holmUpperBound, worse, passed: !worse, reason };
    });
    const costComparisons: CostComparisonCheck[] = rawCosts.map(({ boundAt, ...c }, i) => {
      const j = rawScores.length + i;
      const adjustedPValue = adjusted[j];
      const worse = adjustedPValue < alpha;
      const holmConfidenceLevel = 1 - alpha / divisor[j];
      const holmLowerBound = boundAt(holmConfidenceLevel);
      const interval = worse ? `lower bound ${formatNumber(holmLowerBound, 3)} at Holm's level ${holmLevel(divisor[j])}` : `${level} lower bound ${formatNumber(c.confidenceInterval[0], 3)}`;
      const what = `${c.scope}: cost per document ${model} − ${c.reference} = ${formatNumber(c.estimate, 3)} (${interval}, ${c.n} documents)`;
      let reason: string;
      if (Number.isNaN(c.pValue)) reason = `${what}: too few documents to tell`;
      else if (worse) reason = `${what} costs more than the cheapest by more than the cost margin ${formatNumber(costMargin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)} < ${formatNumber(alpha)})`;
      else reason = `${what} is not shown to cost more than +${formatNumber(costMargin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)})`;
      return { ...c, adjustedPValue, holmConfidenceLevel, holmLowerBound, worse, passed: !worse, reason };
    });
    for (const c of comparisons) if (Number.isNaN(c.pValue)) candidateWarnings.push(`${model}, ${c.scope}: too few units to compare with the best; this check cannot eliminate it`);
    for (const c of costComparisons) if (Number.isNaN(c.pValue)) candidateWarnings.push(`${model}, ${c.scope}: too few documents to compare its cost with the cheapest; this check cannot eliminate it`);
    // seeds/000: do not separate what is closer than about two slots on a small denominator.
    for (const b of bars) {
      const slots = slotsToFlip(b);
      if (slots <= 2) {
        candidateWarnings.push(`${model}: ${slots === 1 ? 'one slot' : `${formatNumber(slots)} slots`} would change the verdict on ${b.requirement} (${b.scope}.${b.metric} ${formatNumber(b.estimate, 3)} on ${formatNumber(b.n)} slots): too close to separate`);
      }
    }
    const failed = [...bars, ...comparisons, ...costComparisons].find((c) => !c.passed) ?? null;
    return { model, mean: means[k], shortlisted: failed === null, firstReason: failed, bars, comparisons, costs: modelCosts[k], costComparisons, warnings: candidateWarnings };
  });
  for (const c of candidates) warnings.push(...c.warnings.map((w) => (w.startsWith(`${c.model}`) ? w : `${c.model}: ${w}`)));
  const scoreFamily = perStratum ? 'the overall check and every stratum check' : 'the overall check';
  return {
    best: aligned.models[bestIndex],
    finalists: candidates.filter((c) => c.shortlisted).map((c) => c.model),
    eliminated: candidates.filter((c) => !c.shortlisted).map((c) => c.model),
    candidates,
    margin,
    confidenceLevel,
    alpha,
    method: 't',
    multiplicity: 'holm',
    family: `per candidate: ${scoreFamily}${policy === null ? '' : `, on the score and on the cost per document`}`,
    requirements: requirements.map((r) => r.text),
    perStratum,
    clustered: options.cluster ?? false,
    n,
    dropped: aligned.dropped,
    policy: policy === null ? null : { owner: policy.owner, decided: policy.decided, costs: { ...policy.costs } },
    costMargin: policy === null ? null : costMargin,
    cheapest: policy === null ? null : aligned.models[cheapestIndex],
    costRule: policy === null ? null : COST_RULE,
    costBootstrap: policy === null ? null : { nResamples, seed },
    warnings,
  };
}
