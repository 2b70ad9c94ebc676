import { nonInferiorityFromScores, type NonInferiorityCheck } from '../bootstrap/gate.js';
import { holmAdjust } from '../bootstrap/holm.js';
import { tInterval } from '../bootstrap/t-interval.js';
import { outcomeRates } from '../costs/rates.js';
import { emptyOutcomeCounts, type OutcomeCounts } from '../costs/tally.js';
import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import { alignModels, type AlignedScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { studentTCdf } from '../distributions/index.js';
import { formatNumber } from '../report/table.js';
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
  /** Items (mean) or slots (rate) behind the estimate. */
  n: number;
  passed: boolean;
  reason: string;
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
  /** The first failed check: bars in the order given, then overall, then strata; null for a finalist. */
  firstReason: BarCheck | ComparisonCheck | null;
  bars: BarCheck[];
  /** Empty for the best candidate (it is the reference). */
  comparisons: ComparisonCheck[];
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
  /** What one Holm family is: the overall check and every stratum check of one candidate. */
  family: string;
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
  return { margin, confidenceLevel };
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

function barCheck(requirement: Requirement, k: number, aligned: AlignedScores, counts: Map<string, OutcomeCounts>[], confidenceLevel: number): BarCheck {
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
  } else {
    const rate = outcomeRates(counts[k].get(scope) ?? emptyOutcomeCounts(), { confidenceLevel })[metric];
    estimate = rate.estimate;
    confidenceInterval = rate.confidenceInterval;
    n = rate.denominator;
  }
  const passed = Number.isFinite(estimate) && (operator === '<=' ? estimate <= threshold : estimate >= threshold);
  const level = `${+(confidenceLevel * 100).toFixed(4)}%`;
  const where = `${scope}.${metric} = ${formatNumber(estimate, 3)} (${level} interval ${formatNumber(confidenceInterval[0], 3)} to ${formatNumber(confidenceInterval[1], 3)}, n ${formatNumber(n)})`;
  const reason = Number.isNaN(estimate) ? `${scope}.${metric} is undefined (no slots in its denominator): the bar ${requirement.text} cannot be met` : passed ? `${where} meets ${requirement.text}` : `${where} fails the bar ${requirement.text}`;
  return { kind: 'bar', requirement: requirement.text, scope, metric, operator, threshold, estimate, confidenceInterval, n, passed, reason };
}

/**
 * How many slots (outcomes in the rate's denominator) would have to change for a rate bar to flip:
 * with x = estimate · n slots counted and the bar at t · n, a passing `<=` bar fails at
 * ⌊t·n⌋ + 1 slots, a failing one passes at ⌊t·n⌋; a `>=` bar fails below ⌈t·n⌉ and passes at it.
 * Infinity for a mean bar or an undefined rate.
 */
function slotsToFlip(b: BarCheck): number {
  if (b.metric === 'mean' || !Number.isFinite(b.estimate) || b.n === 0) return Infinity;
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
 * Reference: Holm (1979); Wellek (2010) ch. 2 for the one-sided shifted-null t test (scipy
 * `ttest_rel(best, c + margin, alternative='greater')`, R `t.test(best, c, paired = TRUE,
 * mu = margin, alternative = "greater")`).
 * @param table a scores table (a stratum column for per-stratum checks and stratum bars; an
 *   outcome column for rate bars).
 * @param options margin, requirements, confidenceLevel, perStratum, cluster, dropUnpaired, models.
 * @returns best, finalists, eliminated, per-candidate checks with the first reason, settings.
 * @throws {InputError} for a bar naming a stratum the table lacks, a rate bar without outcomes,
 *   fewer than two candidates, unpaired items (without dropUnpaired). @throws {RangeError} for bad settings.
 * @example shortlist(table, { margin: 0.05 }).finalists // => ['alpha'] on examples/scores.csv
 */
export function shortlist(table: ScoresTable, options: ShortlistOptions = {}): ShortlistResult {
  const { margin, confidenceLevel } = checkSettings(options);
  const alpha = 1 - confidenceLevel;
  const models = options.models ?? table.models;
  if (models.length < 2) throw new InputError(`a shortlist needs at least two candidates (got ${models.length})`, { file: table.source });
  const requirements = options.requirements ?? [];
  const perStratum = options.perStratum ?? table.hasStratum;
  if (perStratum && !table.hasStratum) throw new InputError('has no stratum column for per-stratum checks', { file: table.source });
  if (options.cluster && !table.hasCluster) throw new InputError('has no cluster column to treat as the unit', { file: table.source });
  for (const r of requirements) {
    if (r.scope !== 'overall' && !table.strata.includes(r.scope)) {
      throw new InputError(`the bar names stratum "${r.scope}", which is not in the scores (strata: ${table.strata.join(', ') || 'none'})`, { file: '--require', value: r.text });
    }
    if (r.metric !== 'mean' && !table.hasOutcome) throw new InputError(`the bar on ${r.metric} needs an outcome column in the scores`, { file: '--require', value: r.text });
  }
  const aligned = alignModels(table, models, { dropUnpaired: options.dropUnpaired ?? false });
  const n = aligned.items.length;
  const means = aligned.scores.map((s) => s.reduce((a, x) => a + x, 0) / n);
  let bestIndex = 0;
  for (let k = 1; k < means.length; k++) if (means[k] > means[bestIndex]) bestIndex = k;
  const counts = requirements.some((r) => r.metric !== 'mean') ? outcomeCounts(table, aligned) : aligned.models.map(() => new Map<string, OutcomeCounts>());
  const warnings: string[] = [];
  if (aligned.dropped > 0) warnings.push(`${aligned.dropped} item${aligned.dropped === 1 ? '' : 's'} not scored by every candidate left out`);
  const level = `${+(confidenceLevel * 100).toFixed(4)}%`;

  const candidates: ShortlistCandidate[] = aligned.models.map((model, k) => {
    const bars = requirements.map((r) => barCheck(r, k, aligned, counts, confidenceLevel));
    let comparisons: ComparisonCheck[] = [];
    const candidateWarnings: string[] = [];
    if (k !== bestIndex) {
      const data = { candidate: aligned.scores[bestIndex], baseline: aligned.scores[k], stratum: perStratum ? aligned.stratum : null, strataNames: aligned.strata, cluster: options.cluster ? aligned.cluster : null, clusterNames: aligned.clusters };
      const names = { baseline: model, candidate: aligned.models[bestIndex] };
      const gateAt = (level: number) => nonInferiorityFromScores(data, { margin, method: 't', confidenceLevel: level, perStratum }, names);
      const gate = gateAt(confidenceLevel);
      candidateWarnings.push(...gate.warnings);
      const raw = [gate.overall, ...gate.strata].map((c) => comparisonCheck(c, margin));
      const adjusted = holmAdjust(raw.map((c) => c.pValue));
      // Holm's divisor of each check: how many p-values are at least its own (ties as holmAdjust orders them).
      const present = raw.map((c, j) => [c.pValue, j] as const).filter(([p]) => !Number.isNaN(p));
      const order = [...present].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, j]) => j);
      const divisor = raw.map((_, j) => (order.includes(j) ? order.length - order.indexOf(j) : 1));
      const atLevel = new Map<number, ReturnType<typeof gateAt>>();
      comparisons = raw.map((c, j) => {
        const adjustedPValue = adjusted[j];
        const worse = adjustedPValue < alpha;
        const holmConfidenceLevel = 1 - alpha / divisor[j];
        let holm = atLevel.get(divisor[j]);
        if (holm === undefined) atLevel.set(divisor[j], (holm = divisor[j] === 1 ? gate : gateAt(holmConfidenceLevel)));
        const bound = [holm.overall, ...holm.strata][j].lowerBound;
        const holmUpperBound = bound === 0 ? 0 : -bound;
        const interval = worse ? `upper bound ${formatNumber(holmUpperBound, 3)} at Holm's level ${+(holmConfidenceLevel * 100).toFixed(4)}%` : `${level} upper bound ${formatNumber(c.confidenceInterval[1], 3)}`;
        const what = `${c.scope}: ${model} − ${aligned.models[bestIndex]} = ${formatNumber(c.estimate, 3)} (${interval}, n ${c.n})`;
        let reason: string;
        if (Number.isNaN(c.pValue)) reason = `${what}: too few ${c.nClusters === null ? 'items' : 'clusters'} to tell`;
        else if (worse) reason = `${what} is worse than the best by more than the margin ${formatNumber(margin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)} < ${formatNumber(alpha)})`;
        else reason = `${what} is not shown worse than −${formatNumber(margin)} (Holm-adjusted p ${formatNumber(adjustedPValue, 3)})`;
        return { ...c, adjustedPValue, holmConfidenceLevel, holmUpperBound, worse, passed: !worse, reason };
      });
      for (const c of comparisons) if (Number.isNaN(c.pValue)) candidateWarnings.push(`${model}, ${c.scope}: too few units to compare with the best; this check cannot eliminate it`);
    }
    // seeds/000: do not separate what is closer than about two slots on a small denominator.
    for (const b of bars) {
      const slots = slotsToFlip(b);
      if (slots <= 2) {
        candidateWarnings.push(`${model}: ${slots === 1 ? 'one slot' : `${formatNumber(slots)} slots`} would change the verdict on ${b.requirement} (${b.scope}.${b.metric} ${formatNumber(b.estimate, 3)} on ${formatNumber(b.n)} slots): too close to separate`);
      }
    }
    const failed = [...bars, ...comparisons].find((c) => !c.passed) ?? null;
    return { model, mean: means[k], shortlisted: failed === null, firstReason: failed, bars, comparisons, warnings: candidateWarnings };
  });
  for (const c of candidates) warnings.push(...c.warnings.map((w) => (w.startsWith(`${c.model}`) ? w : `${c.model}: ${w}`)));
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
    family: perStratum ? 'per candidate: the overall check and every stratum check' : 'per candidate: the overall check',
    requirements: requirements.map((r) => r.text),
    perStratum,
    clustered: options.cluster ?? false,
    n,
    dropped: aligned.dropped,
    warnings,
  };
}
