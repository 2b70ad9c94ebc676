/** What the sampling rule needs to know about one pool item. */
export interface SamplingItem {
  /** Whether the two candidates' outputs are identical. */
  same: boolean;
  /** The judge's predicted difference g (0 when there is no judge). */
  judge: number;
  /** Stratum name ('' when none): residuals are learned per (same, stratum) group. */
  stratum: string;
  /** The human difference y when the item is labelled, else null. */
  label: number | null;
}

/** The settings of the sampling rule. */
export interface SamplingSettings {
  /** R = hi − lo, the width of the score scale. */
  width: number;
  /** a, the share of sampling mass on agreeing items (when there are both kinds), in (0, 1). */
  auditFloor: number;
  /** u, the share of the disagreeing items' mass spread uniformly over them, in (0, 1]. */
  uniformShare: number;
}

/** Prior pseudo-count of each group's residual calibration. */
const PRIOR_WEIGHT = 2;

/**
 * The sampling distribution π over all pool items for the next batch of draws of the labelling
 * loop: disagreements first, more mass where the judge's residual is expected largest, a fixed
 * share on agreeing items to audit "same output ⇒ same score", and a known floor on every item.
 *
 * Formula. Each item gets a prior residual second moment s0²(i) = max(R² − g_i², R²/10) for a
 * disagreeing item (a difference y ∈ [−R, R] whose expectation is the judge's g has variance at
 * most R² − g²: the judge is least sure where |g| is small), and s0² = R²/100 for an agreeing one.
 * Each group k (agreeing or not × stratum) learns how far off the prior is from its labelled
 * items j, with residuals r_j = y_j − g_j, shrunk to the prior by two pseudo-items:
 *   ŝ²(i) = s0²(i) · (2·s0²(i) + Σ_j r_j²) / (2·s0²(i) + Σ_j s0²(j)).
 * The
 * Neyman-type weight w_i = √ŝ²(i) minimises the variance of the inverse-probability contribution
 * (Var = (1/N²) Σ r_i²/π_i − (θ − ḡ)², smallest at π_i ∝ |r_i|). Agreeing items share mass a
 * uniformly (the audit); disagreeing items share 1 − a as (1 − u)·w_i/Σw + u/n_D. With only one
 * kind of item, it takes all the mass. Every π_i > 0 and depends only on the labels before the batch,
 * so it is predictable.
 * Reference: T. Zrnic & E. Candès, "Active statistical inference", ICML 2024 (sampling ∝ the
 * expected residual magnitude); Cochran (1977) §5.5 (Neyman allocation).
 * @param items the pool in its order.
 * @param settings width R, audit share a, uniform share u.
 * @returns π, one probability per item, summing to 1.
 * @example labelSamplingProbabilities([{ same: true, judge: 0, stratum: '', label: null }, { same: false, judge: 0, stratum: '', label: null }], { width: 1, auditFloor: 0.1, uniformShare: 0.1 }) // => [0.1, 0.9]
 */
export function labelSamplingProbabilities(items: readonly SamplingItem[], settings: SamplingSettings): number[] {
  const { width, auditFloor, uniformShare } = settings;
  const n = items.length;
  const r2 = width * width;
  const prior = new Float64Array(n);
  const groupObserved = new Map<string, number>();
  const groupPrior = new Map<string, number>();
  let nSame = 0;
  for (let i = 0; i < n; i++) {
    const it = items[i];
    prior[i] = it.same ? r2 / 100 : Math.max(r2 - it.judge * it.judge, r2 / 10);
    if (it.same) nSame++;
    if (it.label !== null) {
      const key = groupKey(it);
      const r = it.label - it.judge;
      groupObserved.set(key, (groupObserved.get(key) ?? 0) + r * r);
      groupPrior.set(key, (groupPrior.get(key) ?? 0) + prior[i]);
    }
  }
  const nDiff = n - nSame;
  const weights = new Float64Array(n);
  let sumWeightDiff = 0;
  for (let i = 0; i < n; i++) {
    const key = groupKey(items[i]);
    // Two pseudo-items at the prior: ρ = (2·s̄0² + Σ r²) / (2·s̄0² + Σ s0²) with s̄0² the item's own prior.
    const calibration = (PRIOR_WEIGHT * prior[i] + (groupObserved.get(key) ?? 0)) / (PRIOR_WEIGHT * prior[i] + (groupPrior.get(key) ?? 0));
    weights[i] = Math.sqrt(prior[i] * calibration);
    if (!items[i].same) sumWeightDiff += weights[i];
  }
  const massSame = nSame === 0 ? 0 : nDiff === 0 ? 1 : auditFloor;
  const massDiff = 1 - massSame;
  const pi = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    if (items[i].same) pi[i] = massSame / nSame;
    else pi[i] = massDiff * ((1 - uniformShare) * (weights[i] / sumWeightDiff) + uniformShare / nDiff);
  }
  return pi;
}

function groupKey(item: SamplingItem): string {
  return `${item.same ? 'same' : 'diff'}\u0000${item.stratum}`;
}

/**
 * One draw's contribution to the labelling loop's estimate: the control-variate inverse-probability
 * estimate Z = ḡ + (y − g)/(N π) of θ = (1/N) Σ y_i, unbiased given the past for any π with every
 * π_i > 0, because Σ_i π_i (ḡ + (y_i − g_i)/(N π_i)) = ḡ + (1/N) Σ_i (y_i − g_i) = θ.
 * Reference: Zrnic & Candès, "Active statistical inference", ICML 2024, eq. for the active IPW estimator
 * (their θ̂ with a predictor f as control variate); Horvitz & Thompson (1952).
 * @param judgeMean ḡ, the judge's mean over the pool.
 * @param difference y, the human difference of the drawn item.
 * @param judge g, the judge's difference for the drawn item.
 * @param poolSize N.
 * @param probability π of the drawn item, in (0, 1].
 * @returns Z.
 * @example labelContribution(0.1, 1, 0.5, 10, 0.25) // => 0.3
 */
export function labelContribution(judgeMean: number, difference: number, judge: number, poolSize: number, probability: number): number {
  return judgeMean + (difference - judge) / (poolSize * probability);
}
