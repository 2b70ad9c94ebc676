/** A gate's three outcomes: no regression shown (`pass`), a regression beyond the margin shown (`fail`), or neither (`inconclusive`). */
export type GateVerdict = 'pass' | 'fail' | 'inconclusive';

/** Every gate verdict, in the order of their exit codes. */
export const GATE_VERDICTS: readonly GateVerdict[] = ['pass', 'fail', 'inconclusive'];

/** The CLI's exit status for each verdict (2 stays bad input): 0 pass, 1 fail, 3 inconclusive. */
export const VERDICT_EXIT_CODES: Readonly<Record<GateVerdict, number>> = { pass: 0, fail: 1, inconclusive: 3 };

/** The bounds one check of a gate produced. */
export interface VerdictBounds {
  /** One-sided lower confidence bound of candidate − baseline (NaN when it could not be computed). */
  lowerBound: number;
  /** One-sided upper confidence bound of candidate − baseline at the same level (NaN when not computed or not computable). */
  upperBound: number;
  /** −margin. */
  threshold: number;
  /**
   * Whether the method's validity condition holds (enough units, bounds that are not degenerate,
   * no skew refusal); default true. When false the verdict is `inconclusive` whatever the bounds say.
   */
  valid?: boolean;
}

/**
 * The verdict of one non-inferiority check from its two one-sided bounds: the one decision rule
 * every gate path (plain, per stratum, clusters, design, judge, sequential) applies.
 *
 *   pass          valid and lowerBound > −margin   (H0: δ ≤ −margin rejected: no drop beyond the margin)
 *   fail          valid and upperBound < −margin   (H0': δ ≥ −margin rejected: a drop beyond the margin is shown)
 *   inconclusive  otherwise (the interval straddles −margin, a bound is NaN, or the method's condition fails)
 *
 * Each one-sided bound has level 1 − α, so [lowerBound, upperBound] is the two-sided 1 − 2α interval:
 * a wrong `pass` (true δ ≤ −margin) and a wrong `fail` (true δ ≥ −margin) each happen with chance ≤ α,
 * and they cannot both hold. This is the two one-sided tests reading of a non-inferiority margin
 * (Schuirmann 1987; Wellek 2010, ch. 2); the three outcomes are those of statgate's SHIP/BLOCK/INCONCLUSIVE.
 * @param bounds lowerBound, upperBound, threshold (−margin), valid.
 * @returns 'pass', 'fail' or 'inconclusive'.
 * @example gateVerdict({ lowerBound: -0.01, upperBound: 0.03, threshold: -0.02 }) // => 'pass'
 * @example gateVerdict({ lowerBound: -0.07, upperBound: 0, threshold: -0.02 }) // => 'inconclusive'
 * @example gateVerdict({ lowerBound: -0.2, upperBound: -0.05, threshold: -0.02 }) // => 'fail'
 */
export function gateVerdict(bounds: VerdictBounds): GateVerdict {
  const { lowerBound, upperBound, threshold } = bounds;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) throw new RangeError(`threshold must be a finite number (got ${String(threshold)})`);
  if (bounds.valid === false) return 'inconclusive';
  if (lowerBound > threshold) return 'pass';
  if (upperBound < threshold) return 'fail';
  return 'inconclusive';
}

/**
 * The verdict of several checks that must all pass (the overall set and every stratum): pass only
 * when every check passes (the intersection–union test, Berger 1982: the chance of passing a real
 * regression stays ≤ α with no adjustment); fail when any check shows a drop beyond the margin;
 * inconclusive otherwise. Note that a `fail` is claimed per check at level α each, so with K checks the
 * chance that some check shows a drop that is not there is at most K·α.
 * @param verdicts one per check (at least one).
 * @example combineVerdicts(['pass', 'inconclusive', 'pass']) // => 'inconclusive'
 * @example combineVerdicts(['pass', 'inconclusive', 'fail']) // => 'fail'
 */
export function combineVerdicts(verdicts: readonly GateVerdict[]): GateVerdict {
  if (verdicts.length === 0) throw new RangeError('combineVerdicts needs at least one verdict (got none)');
  if (verdicts.includes('fail')) return 'fail';
  if (verdicts.includes('inconclusive')) return 'inconclusive';
  return 'pass';
}

/**
 * The exit status a verdict maps to, with `inconclusive` read as `pass` or `fail` for teams that
 * want two outcomes (`--inconclusive pass|fail`), or kept (exit 3) when `inconclusiveAs` is null.
 * @example verdictExitCode('inconclusive', 'fail') // => 1
 * @example verdictExitCode('inconclusive', null) // => 3
 */
export function verdictExitCode(verdict: GateVerdict, inconclusiveAs: 'pass' | 'fail' | null = null): number {
  if (!GATE_VERDICTS.includes(verdict)) throw new RangeError(`verdict must be one of ${GATE_VERDICTS.join(', ')} (got ${String(verdict)})`);
  return VERDICT_EXIT_CODES[verdict === 'inconclusive' && inconclusiveAs !== null ? inconclusiveAs : verdict];
}
