import { ppiMean, type PpiMeanResult } from './ppi-mean.js';
import { stratifiedPpiMean, type StratifiedPpiResult } from './stratified-ppi.js';
import { labelledSubsetCheck, type LabelledSubsetCheck } from './subset-check.js';

/** One item of a judged comparison: the judge's scores for A and B, human scores when labelled. */
export interface JudgedItem {
  item: string;
  /** '' without strata. */
  stratum: string;
  judgeA: number;
  judgeB: number;
  /** Both human scores, or neither (unlabelled). */
  humanA?: number;
  humanB?: number;
}

/** Options of {@link judgedComparison}. */
export interface JudgedComparisonOptions {
  confidenceLevel?: number;
  /** Fix λ in [0, 1]; default tuned per stratum. */
  lambda?: number;
  /** Per-stratum PPI combined by item shares (default: when any stratum is named). */
  stratified?: boolean;
  /** Skip the randomness check (the caller knows the labels were drawn at random). Default false. */
  assumeRandom?: boolean;
  /** p-value below which the labelled subset is refused as not random; default 0.001. */
  randomnessThreshold?: number;
  /**
   * Production traffic share of each stratum (summing to 1): the strata's PPI++ estimates are
   * combined with these instead of the strata's shares of the judged items. Implies stratified.
   * Every stratum of the items needs one; a stratum with traffic > 0 needs items.
   */
  weights?: ReadonlyArray<{ stratum: string; weight: number }>;
}

/** PPI++ on the paired difference A − B, with the labels-only interval beside it. */
export interface JudgedComparisonResult extends Omit<StratifiedPpiResult, 'strata' | 'warnings'> {
  stratified: boolean;
  /** items: strata weighted by their shares of the judged items; traffic: by the weights given. */
  weighting: 'items' | 'traffic';
  /** λ per stratum (one entry, stratum '', when not stratified). */
  strata: Array<{ stratum: string; weight: number; nLabelled: number; nUnlabelled: number; lambda: number; estimate: number; confidenceInterval: [number, number] }>;
  /** The check that the labelled items look like a random subset (null with assumeRandom). */
  randomness: LabelledSubsetCheck | null;
  warnings: string[];
}

/** The labelled subset is not a random sample: PPI would be biased. */
export class NotRandomSubsetError extends RangeError {
  readonly check: LabelledSubsetCheck;
  /** The stratum whose check failed (stratified PPI checks each stratum), or undefined. */
  readonly stratum: string | undefined;
  constructor(check: LabelledSubsetCheck, stratum?: string) {
    super(
      `the labelled items do not look like a random sample of the judged items${stratum !== undefined ? ` in stratum "${stratum}"` : ''}: the judge's mean A − B is ${check.labelledMean.toFixed(4)} on them and ${check.unlabelledMean.toFixed(4)} on the rest (z = ${check.z.toFixed(2)}, p = ${check.pValue.toExponential(2)} < ${Number(check.threshold.toPrecision(3))}${stratum !== undefined ? ', Bonferroni over the strata' : ''}); PPI needs labels on a uniformly random subset (or known inclusion probabilities: label the list from benchplan select and use --design)`,
    );
    this.name = 'NotRandomSubsetError';
    this.check = check;
    this.stratum = stratum;
  }
}

/**
 * Judge-assisted comparison of two candidates: prediction-powered inference on the paired
 * difference. For each item the judge gives f = judgeA − judgeB; on a random subset humans give
 * Y = humanA − humanB. PPI++ ({@link ppiMean}) estimates the mean of Y over all items; with strata,
 * stratified PPI ({@link stratifiedPpiMean}) with weights = each stratum's share of the items, or,
 * given `weights`, each stratum's share of production traffic: θ̂ = Σ_h T_h θ̂_h with each θ̂_h
 * PPI++ with its own tuned λ_h, SE² = Σ_h T_h² SE_h² (Fisch et al. 2024, StratPPI reweighted to
 * the target distribution; the humans-only interval beside it is reweighted the same way).
 * Before estimating, the labelled subset is checked for randomness ({@link labelledSubsetCheck} on
 * f; within each stratum, Bonferroni-corrected, when stratified, since strata may be labelled at
 * different rates): a subset picked by disagreement or judge confidence is refused.
 * Reference: Boyeau, Angelopoulos, Yosef, Malik & Jordan (2024), "AutoEval Done Right" (PPI++ for
 * model evaluation); Fisch et al. (2024) for the stratified form.
 * @param items every judged item; labelled ones carry both human scores.
 * @returns see {@link JudgedComparisonResult}.
 * @throws {NotRandomSubsetError} when the labelled subset fails the randomness check;
 *   {@link RangeError} when fewer than 2 items in all are labelled or none is unlabelled, or a
 *   human score is given for only one candidate. Strata with fewer than 3 labels are pooled with a
 *   neighbour (stratifiedPpiMean; collapsedStrata and a warning say which), never refused.
 * @example judgedComparison(items, { confidenceLevel: 0.95 }).effectiveLabels // => labels a humans-only interval would need
 */
export function judgedComparison(items: readonly JudgedItem[], options: JudgedComparisonOptions = {}): JudgedComparisonResult {
  const groups = new Map<string, { y: number[]; f: number[]; fu: number[] }>();
  const order: string[] = [];
  const labelledF: number[] = [];
  const unlabelledF: number[] = [];
  for (const it of items) {
    if ((it.humanA === undefined) !== (it.humanB === undefined)) throw new RangeError(`item ${it.item}: a human score for one candidate only`);
    let g = groups.get(it.stratum);
    if (!g) {
      g = { y: [], f: [], fu: [] };
      groups.set(it.stratum, g);
      order.push(it.stratum);
    }
    const f = it.judgeA - it.judgeB;
    if (it.humanA !== undefined && it.humanB !== undefined) {
      g.y.push(it.humanA - it.humanB);
      g.f.push(f);
      labelledF.push(f);
    } else {
      g.fu.push(f);
      unlabelledF.push(f);
    }
  }
  if (labelledF.length < 2) throw new RangeError(`PPI needs at least 2 items with human scores for both candidates (got ${labelledF.length})`);
  if (unlabelledF.length < 1) throw new RangeError('every item has human scores: nothing for the judge to add; use compare without --judge');
  const traffic = options.weights;
  if (traffic !== undefined) {
    if (options.stratified === false) throw new RangeError('traffic weights need the stratified estimate');
    if (order.length === 1 && order[0] === '') throw new RangeError('traffic weights need strata: the items have no stratum');
    const given = new Map<string, number>();
    let sum = 0;
    for (const w of traffic) {
      if (given.has(w.stratum)) throw new RangeError(`stratum "${w.stratum}" has two weights`);
      if (!(Number.isFinite(w.weight) && w.weight >= 0)) throw new RangeError(`stratum "${w.stratum}": weight must be a finite number ≥ 0 (got ${w.weight})`);
      if (w.weight > 0 && !groups.has(w.stratum)) throw new RangeError(`stratum "${w.stratum}" has traffic share ${w.weight} but no judged item, so the estimate cannot cover it`);
      given.set(w.stratum, w.weight);
      sum += w.weight;
    }
    if (Math.abs(sum - 1) > 1e-6) throw new RangeError(`the traffic weights must sum to 1 (got ${sum})`);
    const missing = order.find((name) => !given.has(name));
    if (missing !== undefined) throw new RangeError(`stratum "${missing}" has judged items but no traffic share`);
  }
  const trafficOf = new Map((traffic ?? []).map((w) => [w.stratum, w.weight]));
  const stratified = traffic !== undefined || (options.stratified ?? (order.length > 1 || order[0] !== ''));
  let randomness: LabelledSubsetCheck | null = null;
  let worstStratum: string | undefined;
  if (!options.assumeRandom) {
    const threshold = options.randomnessThreshold ?? 0.001;
    if (!stratified) randomness = labelledSubsetCheck(labelledF, unlabelledF, threshold);
    else {
      // Strata may be labelled at different rates (stratified PPI allows it): check within each
      // stratum, Bonferroni over the strata checked, and report the most extreme.
      const checkable = order.map((name) => ({ name, ...(groups.get(name) as { f: number[]; fu: number[] }) })).filter((g) => g.f.length >= 2 && g.fu.length >= 2);
      for (const g of checkable) {
        const c = labelledSubsetCheck(g.f, g.fu, threshold / checkable.length);
        if (randomness === null || c.pValue < randomness.pValue) {
          randomness = c;
          worstStratum = g.name;
        }
      }
    }
    if (randomness?.rejected) throw new NotRandomSubsetError(randomness, worstStratum);
  }
  const ppiOptions = { confidenceLevel: options.confidenceLevel, lambda: options.lambda };
  let r: PpiMeanResult | StratifiedPpiResult;
  let strata: JudgedComparisonResult['strata'];
  if (stratified) {
    const s = stratifiedPpiMean(
      order.map((name) => {
        const g = groups.get(name) as { y: number[]; f: number[]; fu: number[] };
        return { stratum: name, weight: traffic !== undefined ? (trafficOf.get(name) as number) : g.y.length + g.fu.length, labels: g.y, predictions: g.f, unlabelledPredictions: g.fu };
      }),
      ppiOptions,
    );
    r = s;
    strata = s.strata.map((x) => ({ stratum: x.stratum, weight: x.weight, nLabelled: x.nLabelled, nUnlabelled: x.nUnlabelled, lambda: x.lambda, estimate: x.estimate, confidenceInterval: x.confidenceInterval }));
  } else {
    const y: number[] = [];
    const f: number[] = [];
    const fu: number[] = [];
    for (const g of groups.values()) {
      y.push(...g.y);
      f.push(...g.f);
      fu.push(...g.fu);
    }
    const p = ppiMean(y, f, fu, ppiOptions);
    r = p;
    strata = [{ stratum: '', weight: 1, nLabelled: p.nLabelled, nUnlabelled: p.nUnlabelled, lambda: p.lambda, estimate: p.estimate, confidenceInterval: p.confidenceInterval }];
  }
  return {
    estimate: r.estimate,
    standardError: r.standardError,
    confidenceInterval: r.confidenceInterval,
    confidenceLevel: r.confidenceLevel,
    classicalEstimate: r.classicalEstimate,
    classicalStandardError: r.classicalStandardError,
    classicalInterval: r.classicalInterval,
    nLabelled: r.nLabelled,
    nUnlabelled: r.nUnlabelled,
    effectiveLabels: r.effectiveLabels,
    df: 'df' in r ? r.df : Infinity,
    collapsedStrata: 'collapsedStrata' in r ? r.collapsedStrata : [],
    noInterval: 'noInterval' in r ? r.noInterval : r.standardError > 0 ? null : (r.warnings[0] ?? 'the standard error is 0: the interval is undefined'),
    stratified,
    weighting: traffic !== undefined ? 'traffic' : 'items',
    strata,
    randomness,
    warnings: r.warnings,
  };
}
