import type { PairedScores } from '../data/pairing.js';
import { EmpiricalBernsteinSequence } from './empirical-bernstein.js';
import { createSequence, type AnytimeSequence, type SequenceMethod } from './sequence.js';
import { scoreRangeOf } from './score-range.js';
import { monitorUnits, type Arrival, type MonitorUnits } from './units.js';
import { unitsStillNeeded, unitsStillNeededByRate } from './units-still-needed.js';
import { decisionHalfWidth, sequentialVerdict, type SequentialVerdict } from './verdict.js';

/** The settings of `monitorComparison`. */
export interface MonitorOptions {
  /** When each item was labelled; omitted → the table's order, no batches. */
  arrival?: Arrival;
  /** [low, high] of the scores; omitted → [0, 1], checked (see scoreRangeOf). */
  scoreRange?: readonly [number, number];
  /** 1 − α of the overall sequence, in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** The smallest gap you would act on (> 0): enables the 'equivalent' verdict (|gap| < mde/2). */
  mde?: number;
  /** Monitor whole clusters (documents): each unit is a cluster's mean difference. */
  cluster?: boolean;
  /** Also a sequence per stratum, each at level 1 − α/K (Bonferroni over the K strata). */
  perStratum?: boolean;
  /** Without batches: look after every `every` units (and after the last); default 20. */
  every?: number;
  /**
   * 'auto' (default; see autoSequenceMethod: aGRAPA), 'agrapa', 'empirical-bernstein' (closed form,
   * O(1) a unit) or 'betting' (hedged plug-in bets; O(grid) a unit).
   */
  method?: SequenceMethod | 'auto';
  /** The cap c on the bets, in (0, 1); default 1/2 (empirical-Bernstein), 3/4 (betting) or 0.99 (aGRAPA). */
  truncation?: number;
}

/** One sequence's state at a look. */
export interface SequenceLook {
  units: number;
  items: number;
  /** Plain mean of the units' A − B so far (NaN with none). */
  estimate: number;
  /** The anytime-valid [lower, upper] for mean(A − B). */
  interval: [number, number];
  verdict: SequentialVerdict;
  /** With 'continue': further units (items, or clusters) the current variance implies a verdict needs (Infinity: none in sight); null otherwise. */
  unitsStillNeeded: number | null;
  /** unitsStillNeeded × the items per unit so far (equal to it for item units). */
  itemsStillNeeded: number | null;
}

/** One look: the overall sequence, and each stratum's with perStratum. */
export interface MonitorLook extends SequenceLook {
  look: number;
  /** The batch just completed, or null when looks follow a count. */
  batch: number | null;
  strata: Array<SequenceLook & { stratum: string }> | null;
}

/** The first look at which a sequence reached a verdict. */
export interface MonitorDecision {
  look: number;
  units: number;
  items: number;
  verdict: SequentialVerdict;
}

export interface MonitorResult {
  /** The sequence used (with 'auto', the one autoSequenceMethod chose). */
  method: SequenceMethod;
  /** The same as `method`, under the name gate --sequential and size --sequential use too. */
  methodUsed: SequenceMethod;
  /** 'auto' or the method asked for. */
  methodRequested: SequenceMethod | 'auto';
  /** Why that sequence. */
  methodReason: string;
  a: string;
  b: string;
  source: string;
  confidenceLevel: number;
  /** Level of each stratum's sequence: 1 − α/K. */
  stratumConfidenceLevel: number | null;
  scoreRange: [number, number];
  differenceRange: [number, number];
  mde: number | null;
  unit: 'item' | 'cluster';
  /** How looks were scheduled: after each batch, or every `every` units. */
  schedule: { kind: 'batch' } | { kind: 'every'; every: number };
  truncation: number;
  units: number;
  items: number;
  looks: MonitorLook[];
  /** The first look that resolved the overall comparison, or null. */
  decision: MonitorDecision | null;
  /** Per stratum, the first look that resolved it (null inside when it did not); null without perStratum. */
  stratumDecisions: Array<{ stratum: string; decision: MonitorDecision | null }> | null;
  warnings: string[];
}

/**
 * Watches a paired comparison as labels arrive: after every look, the running estimate of
 * mean(A − B), an anytime-valid confidence sequence for it, and a verdict ('a-better',
 * 'b-better', 'equivalent' within ±mde/2, or 'continue' with the further items the current variance
 * implies). Peeking is free: the sequence covers the true mean at every look at once, so stopping
 * at the first verdict keeps the error rate at α, however many looks.
 *
 * Sequence: by default (auto) the aGRAPA betting sequence (AgrapaBettingSequence); by name PrPl-EB
 * (see confidenceSequence) or the hedged-capital betting sequence (HedgedBettingSequence); over
 * units in annotation order, bounded by the
 * difference range [low − high, high − low] of the scores, running intersection on.
 * Strata: stratum k's sequence uses only its units, at level 1 − α/K, so P(any stratum's sequence
 * misses its mean at any look) ≤ Σ α/K = α (union bound); the overall sequence is a separate
 * statement at level 1 − α. Clusters: a unit is a whole cluster, arriving with its last item.
 * Validity needs units in an order that does not depend on their scores (shuffle the pool
 * before annotating); the mean must be the same throughout (no drift in what gets labelled).
 *
 * Reference: Waudby-Smith & Ramdas, JRSSB 2024 (all three sequences); Howard et al., Ann. Statist. 2021
 * (why a fixed-n interval read at many looks is not valid, and confidence sequences are).
 * Cost: O(units + looks × strata × 512 log) (the projection).
 * @param paired two models' aligned scores, A − B.
 * @param options see MonitorOptions.
 * @returns looks, the first decision, per-stratum decisions, settings echoed, warnings.
 * @throws {InputError} for scores outside the score range; {RangeError} for bad settings, perStratum
 *   without strata, cluster without clusters.
 * @example monitorComparison(pairScores(loadScores('examples/monitor.csv'), 'candidate', 'current'), { every: 40 }).decision
 * // => { look: 2, units: 80, items: 80, verdict: 'a-better' }
 */
export function monitorComparison(paired: PairedScores, options: MonitorOptions = {}): MonitorResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const mde = options.mde;
  if (mde !== undefined && !(mde > 0 && Number.isFinite(mde))) throw new RangeError(`mde must be a finite number > 0 (got ${mde})`);
  const every = options.every ?? 20;
  if (!(Number.isInteger(every) && every >= 1)) throw new RangeError(`every must be a whole number ≥ 1 (got ${every})`);
  if (options.perStratum && paired.stratum === null) throw new RangeError('perStratum needs a stratum column');
  const { scoreRange, differenceRange } = scoreRangeOf(paired, options.scoreRange);
  const units = monitorUnits(paired, options.arrival, Boolean(options.cluster));
  const methodRequested = options.method ?? 'auto';
  const choice = methodRequested === 'auto' ? autoSequenceMethod(units) : { method: methodRequested, reason: 'asked for' };
  const method = choice.method;
  const make = (level: number) => createSequence(method, { range: differenceRange, confidenceLevel: level, truncation: options.truncation });
  const overall = make(confidenceLevel);

  const strataNames = options.perStratum ? units.strata.filter((_, s) => units.stratum!.includes(s)) : [];
  const strataIndex = strataNames.map((name) => units.strata.indexOf(name));
  const K = strataNames.length;
  const stratumLevel = options.perStratum ? 1 - (1 - confidenceLevel) / K : null;
  const perStratum = strataNames.map(() => make(stratumLevel as number));
  const stratumItems = new Float64Array(units.strata.length);

  const snapshot = (seq: AnytimeSequence, items: number): SequenceLook => {
    const interval: [number, number] = seq.count === 0 ? [differenceRange[0], differenceRange[1]] : [seq.lower, seq.upper];
    const verdict = sequentialVerdict(interval, mde);
    let more: number | null = null;
    let moreItems: number | null = null;
    if (verdict === 'continue') {
      const target = decisionHalfWidth(seq.mean, mde);
      more =
        seq.count < 2
          ? Infinity
          : seq instanceof EmpiricalBernsteinSequence
            ? unitsStillNeeded(seq, target)
            : unitsStillNeededByRate(seq.count, (seq.upper - seq.lower) / 2, target);
      moreItems = Number.isFinite(more) ? Math.ceil(more * (items / seq.count)) : Infinity;
      if (seq.count < 2) moreItems = Infinity;
    }
    return { units: seq.count, items, estimate: seq.mean, interval, verdict, unitsStillNeeded: more, itemsStillNeeded: moreItems };
  };

  const looks: MonitorLook[] = [];
  const n = units.values.length;
  let items = 0;
  for (let k = 0; k < n; k++) {
    overall.push(units.values[k]);
    items += units.items[k];
    if (units.stratum !== null && K > 0) {
      const s = units.stratum[k];
      stratumItems[s] += units.items[k];
      perStratum[strataIndex.indexOf(s)].push(units.values[k]);
    }
    const isLook = k === n - 1 || (units.batch !== null ? units.batch[k] !== units.batch[k + 1] : (k + 1) % every === 0);
    if (!isLook) continue;
    looks.push({
      look: looks.length + 1,
      batch: units.batch === null ? null : units.batch[k],
      ...snapshot(overall, items),
      strata: K === 0 ? null : strataNames.map((stratum, j) => ({ stratum, ...snapshot(perStratum[j], stratumItems[strataIndex[j]]) })),
    });
  }

  const resolved = (v: SequentialVerdict) => v === 'a-better' || v === 'b-better' || v === 'equivalent';
  const first = (pick: (l: MonitorLook) => SequenceLook): MonitorDecision | null => {
    for (const l of looks) {
      const s = pick(l);
      if (resolved(s.verdict)) return { look: l.look, units: s.units, items: s.items, verdict: s.verdict };
    }
    return null;
  };
  const warnings: string[] = [];
  if (looks.some((l) => l.verdict === 'inconsistent')) {
    warnings.push('the running intersection of the sequence became empty: the differences do not look like draws with one mean (items labelled in an order that follows their scores, or the mix changed); no verdict can be trusted');
  }
  const outside = looks.find((l) => l.verdict !== 'inconsistent' && (l.estimate < l.interval[0] || l.estimate > l.interval[1]));
  if (outside) {
    warnings.push(
      `at look ${outside.look} the running mean ${outside.estimate.toPrecision(3)} lies outside the sequence [${outside.interval.map((x) => x.toPrecision(3)).join(', ')}]: the units' mean seems to drift with their order (sorted by stratum or difficulty?); shuffle before labelling, or give the true order in an order or batch column`,
    );
  }
  if (units.kind === 'cluster' && n < 20) warnings.push(`only ${n} complete clusters: the sequence cannot say much yet`);
  return {
    method,
    methodUsed: method,
    methodRequested,
    methodReason: choice.reason,
    a: paired.a,
    b: paired.b,
    source: paired.source,
    confidenceLevel,
    stratumConfidenceLevel: stratumLevel,
    scoreRange,
    differenceRange,
    mde: mde ?? null,
    unit: units.kind,
    schedule: units.batch !== null ? { kind: 'batch' } : { kind: 'every', every },
    truncation: overall.truncation,
    units: n,
    items,
    looks,
    decision: first((l) => l),
    stratumDecisions: K === 0 ? null : strataNames.map((stratum, j) => ({ stratum, decision: first((l) => l.strata![j]) })),
    warnings,
  };
}

/**
 * The sequence `--sequence auto` uses, in `monitor`, `gate --sequential` and `size --sequential`
 * alike: the aGRAPA betting sequence (AgrapaBettingSequence) for every kind of unit. In
 * bench/sequential.mjs at a true gap of 2 × mde it decided on the fewest items of the three sequences
 * for item-level 0/1 differences, for continuous scores with sd 0.16 and with sd 0.28, and (monitor's
 * example, --cluster) for document means, looking after every item and every 20. In a 100-run check
 * of the one-sided bound after 500 0/1 items or 100 continuous ones, at α/2 and α/110 (the levels of
 * gate's first and tenth looks), its bound was higher on average than empirical Bernstein's, so
 * `gate --sequential` passes a good candidate sooner with it. Every sequence keeps its error
 * rate at every look, so the choice is about power only. The reason names the kind of unit seen.
 * @example autoSequenceMethod({ kind: 'item', values: Float64Array.of(1, 0, -1) }).method // => 'agrapa'
 */
export function autoSequenceMethod(units: Pick<MonitorUnits, 'kind' | 'values'>): { method: SequenceMethod; reason: string } {
  const why = 'aGRAPA betting decided soonest in bench/sequential.mjs for 0/1 items, continuous scores and cluster means alike';
  if (units.kind === 'cluster') return { method: 'agrapa', reason: `cluster means: ${why}` };
  for (const v of units.values) if (v !== 0 && v !== 1 && v !== -1) return { method: 'agrapa', reason: `partial or continuous scores: ${why}` };
  return { method: 'agrapa', reason: `item-level differences of 0/1 scores: ${why}` };
}
