import { normalQuantile } from '../distributions/index.js';

/** One pool item under a Poisson (active) design. */
export interface PoissonRow {
  /** Its inclusion probability π_i in (0, 1]. */
  inclusionProbability: number;
  /** Its labelled A − B when drawn and labelled; undefined when not drawn. */
  difference?: number;
  /** The judge's predicted A − B, for every item when a judge is used; undefined otherwise. */
  prediction?: number;
  /** The item's cluster (document); give it on every row or none. */
  cluster?: string;
}

/** Options of {@link poissonDifferenceEstimate}. */
export interface PoissonEstimateOptions {
  confidenceLevel?: number;
  /** 'population' (default): the pool is itself a sample, add its variance V₁; 'pool': the pool's own mean. */
  estimand?: 'population' | 'pool';
  /** Weight of the judge's predictions: a number in [0, 1], or 'tuned' (default when every row has a prediction). */
  lambda?: number | 'tuned';
}

/** The pool's mean difference from a Poisson sample, with or without a judge. */
export interface PoissonDifferenceResult {
  estimate: number;
  standardError: number;
  estimand: 'population' | 'pool';
  /** SE of the pool's own mean (the sampling error alone). */
  poolStandardError: number;
  confidenceInterval: [number, number];
  confidenceLevel: number;
  /** 0 without predictions (plain Horvitz–Thompson). */
  lambda: number;
  lambdaTuned: boolean;
  poolSize: number;
  labelled: number;
  /** Clusters among the labelled items when clusters were given, else null. */
  nClusters: number | null;
  warnings: string[];
}

/**
 * Inverse-probability (Horvitz–Thompson) estimate of a finite pool's mean paired difference from
 * a Poisson sample, optionally with a judge's predictions as a control variate (active inference):
 *   θ̂ = (1/N) Σ_i [ λ ĝ_i + (y_i − λ ĝ_i) ξ_i / π_i ],
 *   Var̂ = (1/N²) Σ_i ξ_i (1 − π_i) (y_i − λ ĝ_i)² / π_i²,
 * where ξ_i = 1 for labelled items. That is the pool's own mean ('pool'); for the population the
 * pool stands for ('population', default) the pool's spread is added as a two-phase design does,
 *   V₁ = (1/N²) Σ_i ξ_i (y_i − θ̂)² / π_i,
 * or with clusters, V₁ = C/(C − 1) Σ_c z_c² / N², z_c = Σ_{labelled i in c} (y_i − θ̂)/π_i.
 * With λ = 0 (no judge) it is the HT estimator; the tuned λ
 * minimises Var̂: λ = Σ w y ĝ / Σ w ĝ², w = ξ (1 − π) / π², clipped to [0, 1]. Normal interval.
 * Reference: Horvitz & Thompson (1952); Särndal et al. (1992) §2.8 (Poisson sampling variance);
 * Zrnic & Candès (2024) "Active Statistical Inference" for the predictor-corrected form. For a
 * fixed λ, R `svytotal(~r, svydesign(ids = ~1, probs = ~pi, pps = poisson_sampling(pi)))` with
 * r = y − λĝ gives the 'pool' SE × N (tests/reference/selection).
 * @param rows every pool item (labelled or not) with its π; predictions on all or none.
 * @returns see {@link PoissonDifferenceResult}.
 * @throws {RangeError} for an empty pool, π outside (0, 1], a non-finite value, predictions on only some rows, or λ outside [0, 1].
 * Cost O(N).
 * @example poissonDifferenceEstimate([{ inclusionProbability: 0.5, difference: 1 }, { inclusionProbability: 0.5 }]).estimate // => 1
 */
export function poissonDifferenceEstimate(rows: readonly PoissonRow[], options: PoissonEstimateOptions = {}): PoissonDifferenceResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const N = rows.length;
  if (N === 0) throw new RangeError('the pool has no items');
  let withPrediction = 0;
  rows.forEach((r, i) => {
    if (!(r.inclusionProbability > 0 && r.inclusionProbability <= 1)) throw new RangeError(`row ${i}: inclusion probability must be in (0, 1] (got ${r.inclusionProbability})`);
    if (r.difference !== undefined && !Number.isFinite(r.difference)) throw new RangeError(`row ${i}: difference must be a finite number (got ${r.difference})`);
    if (r.prediction !== undefined) {
      if (!Number.isFinite(r.prediction)) throw new RangeError(`row ${i}: prediction must be a finite number (got ${r.prediction})`);
      withPrediction += 1;
    }
  });
  if (withPrediction !== 0 && withPrediction !== N) throw new RangeError(`predictions are needed on every row or none (got ${withPrediction} of ${N})`);
  const judged = withPrediction === N;
  const requested = options.lambda ?? (judged ? 'tuned' : 0);
  let lambda: number;
  if (!judged) {
    if (requested !== 0) throw new RangeError('a judge weight λ needs predictions on every row');
    lambda = 0;
  } else if (requested === 'tuned') {
    let num = 0;
    let den = 0;
    for (const r of rows) {
      if (r.difference === undefined) continue;
      const w = (1 - r.inclusionProbability) / r.inclusionProbability ** 2;
      num += w * r.difference * (r.prediction as number);
      den += w * (r.prediction as number) ** 2;
    }
    lambda = den > 0 ? Math.min(1, Math.max(0, num / den)) : 0;
  } else {
    if (!(requested >= 0 && requested <= 1)) throw new RangeError(`lambda must be in [0, 1] (got ${requested})`);
    lambda = requested;
  }
  let total = 0;
  let varianceTotal = 0;
  let labelled = 0;
  for (const r of rows) {
    const g = judged ? lambda * (r.prediction as number) : 0;
    total += g;
    if (r.difference === undefined) continue;
    labelled += 1;
    const residual = r.difference - g;
    total += residual / r.inclusionProbability;
    varianceTotal += ((1 - r.inclusionProbability) * residual * residual) / r.inclusionProbability ** 2;
  }
  const estimate = total / N;
  const warnings: string[] = [];
  if (labelled === 0) warnings.push('no item is labelled');
  const withCluster = rows.filter((r) => r.cluster !== undefined).length;
  if (withCluster !== 0 && withCluster !== N) throw new RangeError(`clusters are needed on every row or none (got ${withCluster} of ${N})`);
  let phase1 = 0;
  let nClusters: number | null = null;
  if (withCluster === N) {
    const z = new Map<string, number>();
    for (const r of rows) if (r.difference !== undefined) z.set(r.cluster as string, (z.get(r.cluster as string) ?? 0) + (r.difference - total / N) / r.inclusionProbability);
    nClusters = z.size;
    let sum = 0;
    for (const v of z.values()) sum += v * v;
    phase1 = nClusters > 1 ? (nClusters / (nClusters - 1)) * sum : NaN;
    if (nClusters < 2) warnings.push('the labelled items come from one cluster: the pool-level variance cannot be estimated');
  } else {
    for (const r of rows) if (r.difference !== undefined) phase1 += (r.difference - total / N) ** 2 / r.inclusionProbability;
  }
  const estimand = options.estimand ?? 'population';
  const poolStandardError = Math.sqrt(varianceTotal) / N;
  const standardError = estimand === 'pool' ? poolStandardError : Math.sqrt(varianceTotal + phase1) / N;
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  return {
    estimate,
    standardError,
    estimand,
    poolStandardError,
    confidenceInterval: labelled > 0 ? [estimate - z * standardError, estimate + z * standardError] : [NaN, NaN],
    confidenceLevel,
    lambda,
    lambdaTuned: judged && requested === 'tuned',
    poolSize: N,
    labelled,
    nClusters,
    warnings,
  };
}
