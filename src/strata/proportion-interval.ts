import { betaQuantile, studentTQuantile } from '../distributions/index.js';

/**
 * How the per-stratum and headline intervals of `headline` (and the report) are computed:
 * - `auto` (default): per stratum, Wilson when the stratum's scores are all 0/1, else Wald; headline,
 *   `beta-smoothed` when every score is 0/1, else Wald (chosen by bench/coverage.mjs: svyciprop's
 *   beta and logit cover 0.53–0.87 when a heavy stratum scores near 1, beta-smoothed ≥ 0.946).
 * - `wald`: mean ± z · SE, R survey `confint(svymean(...))`: what benchplan printed before (it can run past 0 and 1).
 * - `wilson` (per stratum): the Wilson score interval of successes / n (scores in [0, 1]).
 * - `logit` (headline): svyciprop(method = "logit"): expit(logit p̂ ± t(n − H) · SE / (p̂ (1 − p̂))).
 * - `beta` (headline): svyciprop(method = "beta"), Korn & Graubard (1998).
 * - `beta-smoothed` (headline): Korn–Graubard with Jeffreys-smoothed stratum variances (see weightedProportionInterval).
 */
export type StratumIntervalMethod = 'auto' | 'wald' | 'wilson';
/** See StratumIntervalMethod. */
export type HeadlineIntervalMethod = 'auto' | 'wald' | 'logit' | 'beta' | 'beta-smoothed';
/** Every per-stratum interval method, in the order the CLI lists them. */
export const STRATUM_INTERVAL_METHODS: readonly StratumIntervalMethod[] = ['auto', 'wilson', 'wald'];
/** Every headline interval method, in the order the CLI lists them. */
export const HEADLINE_INTERVAL_METHODS: readonly HeadlineIntervalMethod[] = ['auto', 'beta-smoothed', 'beta', 'logit', 'wald'];

/** The headline of scores in [0, 1], as a design-based proportion. */
export interface WeightedProportionInput {
  /** p̂ = Σ W_h ȳ_h, in [0, 1]. */
  estimate: number;
  /** V̂ = Σ W_h² s_h² / n_h (the stratified variance, no fpc). */
  variance: number;
  /** Items in the design (every listed stratum with items). */
  items: number;
  /** Strata with items. */
  strata: number;
  /** Kish's effective sample size 1 / Σ_h W_h² / n_h (for the zero-variance fallback). */
  kishSize: number;
  confidenceLevel: number;
  /** Per stratum with items: weight W_h, items n_h and successes x_h = n_h ȳ_h (needed by beta-smoothed). */
  strataCounts?: ReadonlyArray<{ weight: number; n: number; successes: number }>;
}

/** An interval that stays inside [0, 1]. */
export interface WeightedProportionInterval {
  interval: [number, number];
  /** The method actually used ('beta' when a logit or beta interval falls back for zero variance). */
  method: 'logit' | 'beta' | 'beta-smoothed';
  /** The effective sample size the beta interval used (NaN for logit). */
  effectiveSize: number;
  warnings: string[];
}

/**
 * A confidence interval for a traffic-reweighted proportion (the headline of 0/1 or [0, 1] scores)
 * that stays inside [0, 1], as R survey's `svyciprop` computes it on the stratified design
 * `svydesign(ids = ~1, strata = ~stratum, weights = ~W_h/n_h)`, with df = degf = n − H:
 * - `logit`: expit(logit p̂ ± t(df, 1 − α/2) · √V̂ / (p̂ (1 − p̂))) (the delta method on the logit scale;
 *   survey's `logit` fits a quasibinomial svyglm with the same result to its IRLS tolerance, and its
 *   `xlogit` is this formula).
 * - `beta` (Korn & Graubard 1998, Survey Methodology 24(2):193–201): the effective size
 *   n* = p̂ (1 − p̂) / V̂ · (t(n − 1, α/2) / t(df, α/2))², then Clopper–Pearson at x* = n* p̂:
 *   [qbeta(α/2, x*, n* − x* + 1), qbeta(1 − α/2, x* + 1, n* − x*)], 0 when p̂ = 0 and 1 when p̂ = 1.
 * - `beta-smoothed`: the same Clopper–Pearson at x* = n* p̂, but n* from Jeffreys-smoothed stratum
 *   shares p̃_h = (x_h + ½) / (n_h + 1): n* = p̃ (1 − p̃) / Ṽ · (t(n − 1, α/2) / t(df, α/2))², p̃ = Σ W_h p̃_h,
 *   Ṽ = Σ W_h² p̃_h (1 − p̃_h) / n_h. A heavy stratum that scores 6/6 or 79/80 has s_h² = 0 or nearly,
 *   so V̂ (and svyciprop's beta and logit) understate the variance exactly where a headline sits near
 *   1; p̃_h keeps it positive. Never degenerate (p̃_h is inside (0, 1)). Coverage in bench/coverage.mjs;
 *   with a 4-item stratum carrying 30% of traffic it covers 0.916 ± 0.004 to 0.985
 *   (bench/strata-small-study.txt, cells B1–B3): below 0.95 when that stratum sits near 0.5.
 * When V̂ = 0 (every stratum constant: all pass, or none) the logit and beta formulas are 0/0; benchplan then uses
 * the beta interval at Kish's effective size n* = 1 / Σ_h W_h² / n_h (with x* = n* p̂), so an all-pass
 * headline gets [(α/2)^(1/n*), 1] instead of the point [1, 1]; a warning says so. (svyciprop returns NaN there.)
 * @param input the estimate, its variance, the design's item and stratum counts, Kish's size, the level.
 * @param method 'logit', 'beta' or 'beta-smoothed'.
 * @returns the interval, the method used, the effective size, warnings.
 * @throws {RangeError} for an estimate outside [0, 1].
 * @example weightedProportionInterval({ estimate: 1, variance: 0, items: 10, strata: 1, kishSize: 10, confidenceLevel: 0.95 }, 'beta').interval // => [0.6915028921812392, 1] (= 0.025^(1/10), Clopper–Pearson for 10/10)
 */
export function weightedProportionInterval(input: WeightedProportionInput, method: 'logit' | 'beta' | 'beta-smoothed'): WeightedProportionInterval {
  const { estimate: p, variance, items, strata, kishSize, confidenceLevel } = input;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`a proportion interval needs an estimate in [0, 1] (got ${p})`);
  const alpha = 1 - confidenceLevel;
  const df = items - strata;
  const warnings: string[] = [];
  if (!(df > 0)) return { interval: [NaN, NaN], method, effectiveSize: NaN, warnings };
  if (method === 'beta-smoothed') {
    if (!input.strataCounts) throw new TypeError('beta-smoothed needs strataCounts');
    let centre = 0;
    let smoothedVariance = 0;
    for (const { weight, n, successes } of input.strataCounts) {
      if (!(n > 0)) continue;
      const share = (successes + 0.5) / (n + 1);
      centre += weight * share;
      smoothedVariance += (weight * weight * share * (1 - share)) / n;
    }
    const ratio = studentTQuantile(alpha / 2, items - 1) / studentTQuantile(alpha / 2, df);
    const size = ((centre * (1 - centre)) / smoothedVariance) * ratio * ratio;
    return { interval: clopperPearson(p, size, alpha), method, effectiveSize: size, warnings };
  }
  if (!(variance >= 0)) return { interval: [NaN, NaN], method, effectiveSize: NaN, warnings };
  if (variance === 0) {
    warnings.push(
      `the headline's variance is 0 (every stratum scores the same on every item), so the ${method} interval is undefined; it is the Clopper–Pearson interval at Kish's effective size ${round(kishSize)} instead`,
    );
    return { interval: clopperPearson(p, kishSize, alpha), method: 'beta', effectiveSize: kishSize, warnings };
  }
  if (method === 'logit') {
    const q = studentTQuantile(1 - alpha / 2, df);
    const centre = Math.log(p / (1 - p));
    const half = (q * Math.sqrt(variance)) / (p * (1 - p));
    return { interval: [expit(centre - half), expit(centre + half)], method, effectiveSize: NaN, warnings };
  }
  const ratio = studentTQuantile(alpha / 2, items - 1) / studentTQuantile(alpha / 2, df);
  const size = ((p * (1 - p)) / variance) * ratio * ratio;
  return { interval: clopperPearson(p, size, alpha), method, effectiveSize: size, warnings };
}

/**
 * Clopper–Pearson at a (possibly fractional) size n and x = n p: [qbeta(α/2, x, n − x + 1), qbeta(1 − α/2, x + 1, n − x)], 0 at p = 0 and 1 at p = 1.
 * Reference: Korn & Graubard (1998); R survey svyciprop(method = "beta") once n is the effective size.
 * @param p the estimate in [0, 1]. @param n the (effective) size > 0. @param alpha 1 − level.
 * @returns [lower, upper].
 * @example clopperPearson(1, 10, 0.05) // => [0.6915028921812392, 1]
 */
export function clopperPearson(p: number, n: number, alpha: number): [number, number] {
  const x = n * p;
  const low = p === 0 ? 0 : betaQuantile(alpha / 2, x, n - x + 1);
  const high = p === 1 ? 1 : betaQuantile(1 - alpha / 2, x + 1, n - x);
  return [low, high];
}

function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function round(x: number): string {
  return String(Math.round(x * 10) / 10);
}
