import { InputError } from '../data/errors.js';
import { gateVerdict, type GateVerdict } from '../gate/verdict.js';
import type { PairedScores } from '../data/pairing.js';
import { lookAlpha, alphaSpent } from './alpha-spending.js';
import type { GateLook, GateState } from './gate-state.js';
import { autoSequenceMethod } from './monitor.js';
import { createSequence, type SequenceMethod } from './sequence.js';
import { scoreRangeOf } from './score-range.js';
import { monitorUnits } from './units.js';
import { shuffledUnits } from './shuffled-units.js';
import type { Seed } from '../random/index.js';

/** The settings of `sequentialGate`. */
export interface SequentialGateOptions {
  /** Largest acceptable drop of candidate − baseline (≥ 0), in score units. */
  margin: number;
  /** 1 − α, where α bounds the chance that ANY look ever passes a candidate worse than −margin; default 0.95. */
  confidenceLevel?: number;
  /** [low, high] of the scores; omitted → [0, 1], checked. */
  scoreRange?: readonly [number, number];
  /** The state so far (null for the first look). */
  state: GateState | null;
  /** Where the state came from, for messages. */
  stateSource?: string;
  /** A name for this look (a commit id). */
  label?: string;
  /** Units are whole clusters (documents). */
  cluster?: boolean;
  /** The sequence behind the bound: 'auto' (default; autoSequenceMethod, as monitor), 'agrapa', 'empirical-bernstein' or 'betting'. */
  sequence?: SequenceMethod | 'auto';
  /** Seed of the units' random order (shuffledUnits); default '0'. Recorded in the look. */
  seed?: Seed;
}

export interface SequentialGateResult {
  /** The design: α spent over looks, each look an anytime-valid one-sided bound. */
  method: 'alpha-spending';
  /** The sequence that gave this look's bound (with 'auto', the one autoSequenceMethod chose). */
  methodUsed: SequenceMethod;
  /** 'auto' or the sequence asked for. */
  methodRequested: SequenceMethod | 'auto';
  /** Why that sequence. */
  methodReason: string;
  /** pass (lowerBound > −margin), fail (upperBound < −margin: a drop beyond the margin shown) or inconclusive (gateVerdict). */
  verdict: GateVerdict;
  /** verdict === 'pass'. */
  passed: boolean;
  baseline: string;
  candidate: string;
  margin: number;
  confidenceLevel: number;
  scoreRange: [number, number];
  cluster: boolean;
  /** Seed of the random order the units were read in (as a string). */
  seed: string;
  /** Always 'seeded-permutation': units sorted by id, then shuffled by the seed (never the table's order). */
  order: 'seeded-permutation';
  /** This look's number k (1 for the first commit that looks). */
  look: number;
  /** α_k = α / (k(k+1)): this look's share of the budget. */
  alpha: number;
  /** α · k/(k+1): spent by all looks so far, this one included. */
  alphaSpent: number;
  items: number;
  units: number;
  /** mean(candidate − baseline). */
  estimate: number;
  /** One-sided lower confidence bound at level 1 − α_k (the sequence's, all of α_k on the lower side). */
  lowerBound: number;
  /**
   * One-sided upper confidence bound at level 1 − α_k from a second anytime-valid sequence (all of
   * α_k on the upper side), NaN when not needed: the look passed, or the running mean is not below −margin. A separate α_k per look on this
   * side keeps the chance that any look ever shows a drop that is not there ≤ α too.
   */
  upperBound: number;
  /** The state to save: the old looks plus this one. */
  state: GateState;
  warnings: string[];
}

/**
 * A CI gate that may run on every commit against the same baseline and still fails a regressing
 * candidate with error at most α over ALL the commits that ever look.
 *
 * Design (alpha spending + an anytime-valid bound): look k (the k-th run recorded in the state
 * file) tests H0: mean(candidate − baseline) ≤ −margin at level α_k = α/(k(k+1)), passing when the
 * one-sided lower bound of an anytime-valid sequence at level 1 − α_k is above −margin (by default the
 * aGRAPA betting sequence with bets on the upper side only, as `monitor` chooses it; PrPl-EB or the
 * hedged betting sequence by name). Any valid level-(1 − α_k) bound will do, so the sequence may differ
 * between looks; each look records the one it used. Each look alone errs
 * with probability ≤ α_k whatever happened before, so P(some look passes a regression) ≤ Σ α_k = α
 * (union bound). A plain gate at α on every commit errs α per commit: over 20 regressing commits
 * up to 1 − 0.95^20 = 64%. The price: later looks need stronger evidence (α_10 = α/110).
 * Every run spends its α_k, pass or fail, so the state must be kept and never reset between commits.
 * Units are the paired items (or whole clusters), read in a seeded random order (shuffledUnits:
 * sorted by id, then shuffled by `seed`), never in the table's order: a table sorted by score would
 * make the bound depend on the sort. The same units and seed give the same bound whatever the row
 * order of the file. A new seed at a new look is allowed: each run spends its own α_k, so rerunning
 * with other seeds until one passes is paid for like any other look.
 * Reference: Waudby-Smith & Ramdas 2024 (the lower bounds); Lan & DeMets 1983 (spending α over looks).
 * @param paired candidate (as A) and baseline (as B) aligned, A − B.
 * @param options margin, confidenceLevel, scoreRange, state, label, cluster, sequence, seed.
 * @returns whether this look passes, its α_k, the bound, and the new state (this look appended).
 * @throws {InputError} when the state's baseline, margin, level, score range or cluster setting differ
 *   from this run's (a changed design would reset the budget), or scores leave the range.
 * @example sequentialGate(paired, { margin: 0.02, state: null }).alpha // => 0.025 (first look: α/2)
 */
export function sequentialGate(paired: PairedScores, options: SequentialGateOptions): SequentialGateResult {
  const margin = options.margin;
  if (!(margin >= 0 && Number.isFinite(margin))) throw new RangeError(`margin must be a finite number ≥ 0 (got ${margin})`);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const cluster = Boolean(options.cluster);
  const { scoreRange, differenceRange } = scoreRangeOf(paired, options.scoreRange);
  const prior = options.state;
  const source = options.stateSource ?? '<state>';
  if (prior) {
    const same: Array<[string, unknown, unknown]> = [
      ['baseline', prior.baseline, paired.b],
      ['margin', prior.margin, margin],
      ['confidenceLevel', prior.confidenceLevel, confidenceLevel],
      ['scoreRange', prior.scoreRange.join(','), scoreRange.join(',')],
      ['cluster', prior.cluster, cluster],
    ];
    for (const [field, was, now] of same) {
      if (was !== now) {
        throw new InputError(`this run's ${field} is ${JSON.stringify(now)} but the state file's looks used ${JSON.stringify(was)}: a sequential gate keeps one design for all its looks (start a new state file for a new design)`, {
          file: source,
          field,
          value: was,
        });
      }
    }
  }
  const look = (prior?.looks.length ?? 0) + 1;
  const alpha = lookAlpha(1 - confidenceLevel, look);
  const seed = String(options.seed ?? 0);
  const units = shuffledUnits(monitorUnits(paired, undefined, cluster), seed);
  const methodRequested = options.sequence ?? 'auto';
  const choice = methodRequested === 'auto' ? autoSequenceMethod(units) : { method: methodRequested, reason: 'asked for' };
  const seq = createSequence(choice.method, { range: differenceRange, confidenceLevel: 1 - alpha, bound: 'lower' });
  for (const v of units.values) seq.push(v);
  const lowerBound = seq.lower;
  let upperBound = NaN;
  // The upper sequence is run only when the running mean is below −margin: a fail needs the upper
  // bound below −margin, which a sequence holding its own mean cannot reach otherwise (and it halves the work of a look that does not pass).
  if (!(lowerBound > -margin) && units.values.length > 0 && seq.mean < -margin) {
    const upperSeq = createSequence(choice.method, { range: differenceRange, confidenceLevel: 1 - alpha, bound: 'upper' });
    for (const v of units.values) upperSeq.push(v);
    upperBound = upperSeq.upper;
  }
  const verdict = gateVerdict({ lowerBound, upperBound, threshold: -margin, valid: units.values.length > 0 });
  const passed = verdict === 'pass';
  const items = units.items.reduce((s, x) => s + x, 0);
  const entry: GateLook = {
    look,
    candidate: paired.a,
    label: options.label ?? null,
    items,
    units: units.values.length,
    estimate: Number.isFinite(seq.mean) ? seq.mean : null,
    lowerBound,
    alpha,
    passed,
    verdict,
    upperBound: Number.isFinite(upperBound) ? upperBound : null,
    sequence: choice.method,
    seed,
  };
  const state: GateState = {
    format: 'benchplan-sequential-gate',
    version: 1,
    spending: 'alpha/(k(k+1))',
    baseline: paired.b,
    margin,
    confidenceLevel,
    scoreRange,
    cluster,
    looks: [...(prior?.looks ?? []), entry],
  };
  const warnings: string[] = [];
  if (verdict === 'inconclusive' && seq.mean > -margin) {
    warnings.push(`the estimate ${seq.mean.toFixed(4)} is above −margin but the evidence is not yet enough at this look's level α_${look} = ${alpha.toPrecision(3)}: more items (or a wider margin) would pass a candidate that is truly no worse`);
  }
  return {
    method: 'alpha-spending',
    methodUsed: choice.method,
    methodRequested,
    methodReason: choice.reason,
    verdict,
    passed,
    baseline: paired.b,
    candidate: paired.a,
    margin,
    confidenceLevel,
    scoreRange,
    cluster,
    seed,
    order: 'seeded-permutation',
    look,
    alpha,
    alphaSpent: alphaSpent(1 - confidenceLevel, look),
    items,
    units: units.values.length,
    estimate: seq.mean,
    lowerBound,
    upperBound,
    state,
    warnings,
  };
}
