import type { DesignFile } from '../data/design-file.js';
import type { AgreementAudit } from './audit.js';
import { designDifference, type DesignDifferenceResult } from './design-difference.js';
import { gateVerdict, type GateVerdict } from '../gate/verdict.js';

/** Settings of {@link designGate}. */
export interface DesignGateOptions {
  /** The model to protect; must be design.a or design.b. */
  baseline: string;
  /** The model that must not be worse; the other of design.a / design.b. */
  candidate: string;
  /** Largest acceptable drop of candidate − baseline (≥ 0). */
  margin: number;
  /** One-sided confidence level of the lower bound, in (0.5, 1); default 0.95. */
  confidenceLevel?: number;
}

/** The non-inferiority check on a select design. */
export interface DesignGateResult {
  baseline: string;
  candidate: string;
  margin: number;
  /** One-sided level of {@link DesignGateResult.lowerBound}. */
  confidenceLevel: number;
  /** The two-sided level whose lower end is the bound: 2·confidenceLevel − 1. */
  twoSidedLevel: number;
  estimator: DesignDifferenceResult['estimator'];
  /** Estimated pool mean of candidate − baseline. */
  estimate: number;
  /** estimate − z_{confidenceLevel}·SE; NaN when the SE cannot be estimated. */
  lowerBound: number;
  /** estimate + z_{confidenceLevel}·SE, the upper end of the same interval; NaN when the SE cannot be estimated. */
  upperBound: number;
  standardError: number;
  poolStandardError: number;
  lambda: number | null;
  nClusters: number | null;
  /** Per cell: items, labelled, mean candidate − baseline. */
  cells: DesignDifferenceResult['cells'];
  audit: AgreementAudit;
  /** The audit found agreeing items that scored differently ("same output ⇒ same score" failed). */
  assumptionFailed: boolean;
  /** pass (lowerBound > −margin), fail (upperBound < −margin) or inconclusive (neither, or no finite bound): gateVerdict. */
  verdict: GateVerdict;
  /** verdict === 'pass'. */
  passed: boolean;
  warnings: string[];
}

/**
 * Non-inferiority gate on the design `benchplan select` wrote: passes when the one-sided lower
 * confidence bound of the pool's candidate − baseline is above −margin, fails when the upper bound
 * (estimate + z·SE) is below it, and is inconclusive otherwise (gateVerdict). The estimator and its
 * variance are compare --design's ({@link designDifference}); the one-sided bound at level
 * 1 − α is estimate − z_{1−α}·SE, which is the lower end of the two-sided interval at level
 * 1 − 2α (z_{1−(2α)/2} = z_{1−α}). With a failed audit the estimate still holds (the agreeing
 * cells come from the audit), and the result says the assumption failed.
 * Reference: Wellek (2010), Testing Statistical Hypotheses of Equivalence and Noninferiority, ch. 2.
 * @param design the parsed design file.
 * @param difference design.a − design.b for each labelled item.
 * @param options see {@link DesignGateOptions}.
 * @example designGate(design, diffs, { baseline: 'alpha', candidate: 'beta', margin: 0.05 }).passed
 */
export function designGate(design: DesignFile, difference: ReadonlyMap<string, number>, options: DesignGateOptions): DesignGateResult {
  const { baseline, candidate, margin } = options;
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0.5 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0.5, 1) (got ${confidenceLevel})`);
  if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`margin must be a finite number ≥ 0 (got ${margin})`);
  const models = [design.a, design.b];
  if (baseline === candidate || !models.includes(baseline) || !models.includes(candidate)) {
    throw new RangeError(`baseline and candidate must be the design's two models ${design.a} and ${design.b} (got ${baseline}, ${candidate})`);
  }
  // 2·0.95 − 1 is 0.8999999999999999 in binary: the two-sided level the user's one-sided level means,
  // rounded to 15 significant digits (below a double's precision), so 0.95 gives 0.9 in the JSON and text.
  const twoSidedLevel = Number((2 * confidenceLevel - 1).toPrecision(15));
  const r = designDifference(design, difference, twoSidedLevel);
  const sign = candidate === design.a ? 1 : -1;
  const estimate = sign === 1 ? r.estimate : 0 - r.estimate;
  const lowerBound = sign === 1 ? r.interval[0] : 0 - r.interval[1];
  const upperBound = sign === 1 ? r.interval[1] : 0 - r.interval[0];
  const verdict = gateVerdict({ lowerBound, upperBound, threshold: -margin, valid: Number.isFinite(lowerBound) && Number.isFinite(upperBound) });
  return {
    baseline,
    candidate,
    margin,
    confidenceLevel,
    twoSidedLevel,
    estimator: r.estimator,
    estimate,
    lowerBound,
    upperBound,
    standardError: r.standardError,
    poolStandardError: r.poolStandardError,
    lambda: r.lambda,
    nClusters: r.nClusters,
    cells: r.cells.map((c) => ({ ...c, mean: sign === 1 ? c.mean : 0 - c.mean })),
    audit: r.audit,
    assumptionFailed: r.audit.assumptionFailed,
    verdict,
    passed: verdict === 'pass',
    warnings: r.warnings,
  };
}
