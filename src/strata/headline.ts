import { normalQuantile } from '../distributions/index.js';
import { stratifiedVariance } from '../sizing/index.js';
import { StratumRangeError } from './errors.js';
import { HEADLINE_INTERVAL_METHODS, weightedProportionInterval, type HeadlineIntervalMethod } from './proportion-interval.js';

/** A stratum's weight in the headline: its share of production traffic. */
export interface StratumWeight {
  stratum: string;
  weight: number;
}

/** What the headline needs of each stratum's scores (a `StratumScore` fits). */
export interface StratumSummary {
  stratum: string;
  n: number;
  mean: number;
  /** Sample sd (n − 1). */
  sd: number;
  /** Every item scores 0 or 1 (StratumScore sets it; absent counts as false). */
  binary?: boolean;
  /** Every item scores in [0, 1] (absent counts as false). */
  withinUnit?: boolean;
}

/** Settings of reweightedHeadline. */
export interface ReweightedHeadlineOptions {
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** 'auto' (default): 'beta-smoothed' when every item scores 0/1, else 'wald'; or 'beta-smoothed', 'beta', 'logit' (scores in [0, 1]), 'wald'. */
  intervalMethod?: HeadlineIntervalMethod;
}

/** The traffic-reweighted headline. */
export interface ReweightedHeadline {
  /** Σ W_h · ȳ_h: the expected score on production traffic. NaN when a weighted stratum has no items. */
  estimate: number;
  /** √(Σ W_h² s_h² / n_h); NaN when a weighted stratum has fewer than two items. */
  standardError: number;
  /** By `method`: Wald estimate ± z · standardError, z = Φ⁻¹(1 − α/2); or the logit / beta interval inside [0, 1]. */
  interval: [number, number];
  /** The interval method used: 'wald', 'logit', 'beta' or 'beta-smoothed'. */
  method: 'wald' | 'logit' | 'beta' | 'beta-smoothed';
  /** Why that method (what `auto` saw, or a fallback). */
  methodReason: string;
  /** The weights used, in the order given: print them next to the number. */
  weights: StratumWeight[];
  confidenceLevel: number;
  warnings: string[];
}

/**
 * The frequency-reweighted headline of a stratified (enriched) set: per-stratum means put back
 * together with production traffic shares, so the single number estimates the production
 * score again. The plain mean of an enriched set is not an accuracy (it averages over a mix
 * no user sends); this is, with the weights written next to it.
 *
 * Formulas: estimate = Σ_h W_h ȳ_h; Var = Σ_h W_h² s_h² / n_h with s_h² the sample variance
 * (divisor n_h − 1) of stratum h's scores ({@link stratifiedVariance}); interval = estimate ±
 * Φ⁻¹(1 − α/2) · √Var. This is exactly R survey's estimator, by construction:
 * `svymean(~score, svydesign(ids = ~1, strata = ~stratum, weights = ~w, data = d))` with
 * w_i = W_h / n_h for an item of stratum h (each stratum's weights sum to its traffic share),
 * and `confint(...)` for the interval. survey's Horvitz–Thompson ratio gives Σ w_i y_i / Σ w_i
 * = Σ W_h ȳ_h; its linearisation with strata and no `fpc` (sampling with replacement) gives
 * Σ_h n_h/(n_h − 1) Σ_i (z_hi − z̄_h)² with z_hi = w_i (y_i − ȳ_w), which is Σ W_h² s_h² / n_h.
 * Reference: Cochran (1977) §5.2–5.3 (stratified mean and its variance, no fpc); Lumley (2010),
 * Complex Surveys, §2.2.
 * The interval, by `intervalMethod`: 'wald' is the normal interval above (survey's `confint`, which
 * runs past 1 for a headline near 1); 'beta' and 'logit' are R survey's
 * `svyciprop(~score, design, method = "beta" | "logit")`, inside [0, 1]; 'beta-smoothed' (the default
 * for 0/1 scores) is Korn–Graubard with Jeffreys-smoothed stratum variances, which keeps its coverage
 * when a heavy stratum scores (nearly) all 1 (see
 * {@link weightedProportionInterval}, df = n − H, with a Clopper–Pearson fallback at Kish's effective
 * size when every stratum is constant).
 *
 * @param strata per-stratum n, mean and sd (from {@link stratumScores}).
 * @param weights one weight per stratum, finite, ≥ 0, summing to 1 (traffic shares).
 * @param options.confidenceLevel in (0, 1); default 0.95.
 * @returns estimate, standard error, interval, the weights, and warnings for strata that make it
 *   NaN (a weighted stratum with no items, or one item) or that it leaves out (weight 0).
 * @throws {StratumRangeError} for a stratum with items but no weight (it is not in the strata
 *   file); {RangeError} for a bad weight, weights not summing to 1, or a bad confidence level;
 *   {TypeError} for a stratum named twice.
 * @example reweightedHeadline(
 *   [{ stratum: 'routine', n: 4, mean: 0.9, sd: 0.1 }, { stratum: 'rare', n: 4, mean: 0.5, sd: 0.2 }],
 *   [{ stratum: 'routine', weight: 0.75 }, { stratum: 'rare', weight: 0.25 }]).estimate // => 0.8
 */
export function reweightedHeadline(strata: readonly StratumSummary[], weights: readonly StratumWeight[], options: ReweightedHeadlineOptions = {}): ReweightedHeadline {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const intervalMethod = options.intervalMethod ?? 'auto';
  if (!HEADLINE_INTERVAL_METHODS.includes(intervalMethod)) throw new RangeError(`intervalMethod must be one of ${HEADLINE_INTERVAL_METHODS.join(', ')} (got ${String(intervalMethod)})`);
  const byName = new Map<string, StratumSummary>();
  for (const s of strata) {
    if (byName.has(s.stratum)) throw new TypeError(`reweightedHeadline: stratum "${s.stratum}" appears twice in the scores`);
    byName.set(s.stratum, s);
  }
  const weighted = new Set<string>();
  let sum = 0;
  for (const w of weights) {
    if (weighted.has(w.stratum)) throw new TypeError(`reweightedHeadline: stratum "${w.stratum}" has two weights`);
    weighted.add(w.stratum);
    if (!Number.isFinite(w.weight) || w.weight < 0) throw new StratumRangeError(w.stratum, 'weight must be a finite number ≥ 0', w.weight);
    sum += w.weight;
  }
  if (weights.length === 0 || Math.abs(sum - 1) > 1e-6) throw new RangeError(`the headline's weights must sum to 1 (got ${sum})`);
  for (const s of strata) {
    if (s.n > 0 && !weighted.has(s.stratum)) {
      throw new StratumRangeError(s.stratum, `has ${s.n} item${s.n === 1 ? '' : 's'} in the scores but no traffic share: add it to the strata file`);
    }
  }

  const warnings: string[] = [];
  const w: number[] = [];
  const variances: number[] = [];
  const counts: number[] = [];
  let estimate = 0;
  for (const { stratum, weight } of weights) {
    const s = byName.get(stratum);
    const n = s?.n ?? 0;
    if (n === 0) {
      if (weight > 0) warnings.push(`stratum "${stratum}" has traffic share ${weight} but no items in the scores, so the reweighted headline is NaN`);
      else warnings.push(`stratum "${stratum}" has no items and traffic share 0: it does not enter the headline`);
      estimate += weight > 0 ? NaN : 0;
      w.push(weight);
      variances.push(0);
      counts.push(0);
      continue;
    }
    if (weight === 0) warnings.push(`stratum "${stratum}" has traffic share 0: its ${n} items do not enter the headline`);
    else if (n === 1) warnings.push(`stratum "${stratum}" has one item: the headline's standard error and interval are NaN (each weighted stratum needs at least two)`);
    if (weight > 0) estimate += weight * s!.mean;
    w.push(weight);
    variances.push(n > 1 ? s!.sd * s!.sd : NaN);
    counts.push(n);
  }
  let variance = stratifiedVariance(w, variances, counts);
  // An empty weighted stratum: stratifiedVariance says +Infinity (no estimator); the estimate is
  // NaN, so the standard error is too.
  if (Number.isNaN(estimate)) variance = NaN;
  const standardError = Math.sqrt(variance);
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  let interval: [number, number] = [estimate - z * standardError, estimate + z * standardError];
  const withItems = strata.filter((s) => s.n > 0);
  const binary = withItems.length > 0 && withItems.every((s) => s.binary === true);
  const withinUnit = withItems.length > 0 && withItems.every((s) => s.withinUnit === true);
  let method: ReweightedHeadline['method'] = 'wald';
  let methodReason = intervalMethod === 'wald' ? 'asked for: the normal interval, R survey confint(svymean(...))' : 'auto: the scores are not all 0/1, so the normal interval';
  if (Number.isFinite(estimate) && (intervalMethod === 'beta' || intervalMethod === 'beta-smoothed' || intervalMethod === 'logit' || (intervalMethod === 'auto' && binary))) {
    if (!withinUnit) throw new RangeError(`the ${intervalMethod} headline interval needs every score in [0, 1]`);
    const asked = intervalMethod === 'auto' ? 'beta-smoothed' : intervalMethod;
    let items = 0;
    let kish = 0;
    const strataCounts: Array<{ weight: number; n: number; successes: number }> = [];
    for (let k = 0; k < weights.length; k++) {
      items += counts[k];
      if (counts[k] > 0) {
        kish += (w[k] * w[k]) / counts[k];
        strataCounts.push({ weight: w[k], n: counts[k], successes: counts[k] * byName.get(weights[k].stratum)!.mean });
      }
    }
    const p = weightedProportionInterval({ estimate, variance, items, strata: withItems.length, kishSize: 1 / kish, confidenceLevel, strataCounts }, asked);
    interval = p.interval;
    method = p.method;
    warnings.push(...p.warnings);
    methodReason =
      method !== asked
        ? `${asked} is undefined at zero variance: Clopper–Pearson at Kish's effective size`
        : intervalMethod === 'auto'
          ? 'auto: every score is 0/1, so the Korn–Graubard interval with Jeffreys-smoothed stratum variances, inside [0, 1]'
          : `asked for: svyciprop(method = "${method}")`;
  }
  return {
    estimate,
    standardError,
    interval,
    method,
    methodReason,
    weights: weights.map(({ stratum, weight }) => ({ stratum, weight })),
    confidenceLevel,
    warnings,
  };
}
