import { createRng } from '../random/xoshiro.js';
import { labelContribution, labelSamplingProbabilities, type SamplingItem } from './sampling.js';
import { newLabelSequence, pushContribution, sequenceBounds, type LabelSequenceState } from './sequence.js';

/** One item of the pool the loop draws from. */
export interface LabelPoolItem {
  /** Unique item id. */
  id: string;
  /** Whether the two candidates' outputs are identical. */
  same: boolean;
  /** The judge's predicted difference judge(candidate) − judge(baseline), in [−(hi − lo), hi − lo]; absent: 0. */
  judge?: number;
  /** Optional stratum: residuals are learned per stratum. */
  stratum?: string;
}

/** The loop's settings. */
export interface LabelLoopOptions {
  /** m ≥ 0, the non-inferiority margin on the score scale. */
  margin: number;
  /** 1 − α for each one-sided bound, in (0, 1); default 0.95 (as the gate's). */
  confidence?: number;
  /** Draws per proposed batch, a whole number ≥ 1; default 20. */
  batchSize?: number;
  /** The most distinct items a human labels, a whole number ≥ 1. */
  budget: number;
  /** Integer seed: same seed and same answers give the same proposals. */
  seed: number;
  /** [lo, hi] of one human score; default [0, 1]. */
  scoreRange?: [number, number];
  /** Share of the sampling mass on agreeing items (the audit), in (0, 1); default 0.05. */
  auditFloor?: number;
  /**
   * Treat an unlabelled agreeing item's human difference as 0 when bounding the contributions
   * (the bets may then be larger); default false. The estimate stays unbiased either way; only
   * validity rests on it. An audited agreeing item with a non-zero difference turns it off for
   * every later batch and adds a warning.
   */
  assumeSameScore?: boolean;
  /** Share of the disagreeing items' mass spread uniformly, in (0, 1]; default 0.1. */
  uniformShare?: number;
  /**
   * Recalibrate the judge before each batch (default false): on disagreeing items the control variate
   * becomes a + b·g, with a, b the least-squares fit of y on g over the disagreeing items labelled
   * before the batch (from 10 of them on; b clipped to [0, 2], a + b·g to the judge's range). Still
   * predictable, so the estimate stays unbiased and the sequence valid; a biased or weak judge then
   * costs less.
   */
  calibrateJudge?: boolean;
  /** Grid points for the confidence sequence's bounds, a whole number in [10, 100000]; default 400. */
  gridSize?: number;
  /** c in (0, 1): the largest share of capital one bet risks; default 0.9. */
  truncation?: number;
}

/** One draw of a batch. */
export interface LabelDraw {
  /** 1-based index of the draw over the whole loop. */
  draw: number;
  id: string;
  /** π_t(item): the chance this draw had of picking this item. */
  probability: number;
  /** Whether the item already had (or gets earlier in this batch) a human label: no new label needed. */
  reused: boolean;
}

/** A human's scores of both candidates' outputs for one item, each in scoreRange. */
export interface LabelAnswer {
  id: string;
  baseline: number;
  candidate: number;
}

/** A proposed batch waiting for answers. */
export interface PendingLabelBatch {
  /** 1-based batch number. */
  batch: number;
  draws: LabelDraw[];
  toLabel: string[];
  /** Pool indices of the draws, in order. */
  items: number[];
  /** Bounds on every contribution this batch's draws could have given (predictable). */
  zMin: number;
  zMax: number;
  /** The control variate this batch uses: its pool mean and its value for each draw (the judge, or its recalibration). */
  controlMean: number;
  controls: number[];
}

/** The resolved settings the state carries. */
export interface ResolvedLabelLoopOptions {
  margin: number;
  confidence: number;
  batchSize: number;
  budget: number;
  seed: number;
  scoreRange: [number, number];
  auditFloor: number;
  assumeSameScore: boolean;
  uniformShare: number;
  gridSize: number;
  truncation: number;
  calibrateJudge: boolean;
}

/** Everything needed to continue the loop: plain JSON-serialisable data. */
export interface LabelLoopState {
  format: 'benchplan-label-loop/1';
  options: ResolvedLabelLoopOptions;
  pool: LabelPoolItem[];
  /** ḡ, the judge's mean over the pool (0 without a judge). */
  judgeMean: number;
  /** Human scores per pool item (null until answered). */
  baseline: Array<number | null>;
  candidate: Array<number | null>;
  /** Distinct items answered so far. */
  labelsUsed: number;
  /** Batches proposed so far. */
  batches: number;
  pending: PendingLabelBatch | null;
  /** Draws folded into the sequence. */
  draws: number;
  /** Whether assumeSameScore still holds (an audit found no agreeing item with a non-zero difference). */
  sameAssumptionActive: boolean;
  sequence: LabelSequenceState;
  warnings: string[];
}

/** What the loop says now. */
export interface LabelStatus {
  /** pass: candidate − baseline > −margin shown; fail: < −margin shown; inconclusive: budget spent; continue: label more. */
  verdict: 'pass' | 'fail' | 'inconclusive' | 'continue';
  /** Mean of the contributions Z (NaN before the first draw). */
  estimate: number;
  /** [lower, upper]: each a one-sided bound at confidenceLevel, valid at every look at once. */
  confidenceInterval: [number, number];
  confidenceLevel: number;
  labelsUsed: number;
  draws: number;
  budget: number;
  margin: number;
  /** When inconclusive/continue: rough further labels that would decide it (null once decided). */
  labelsNeeded: number | null;
  reason: string;
  /** Standard deviation of the contributions so far (NaN before two draws). */
  standardError: number;
  warnings: string[];
}

const FORMAT = 'benchplan-label-loop/1';

/**
 * Starts a labelling loop over a pool: checks the pool and options, and returns the state the
 * other functions carry forward. Nothing is drawn yet.
 *
 * The construction (derived in docs/label-method.md and bench/label-loop-study.txt). The target is
 * θ = (1/N) Σ_i y_i, y_i = human(candidate_i) − human(baseline_i). At draw t an item I is drawn
 * with replacement from a predictable distribution π_t over all N items (labelSamplingProbabilities,
 * fixed within a batch); its contribution is the control-variate inverse-probability estimate
 *   Z_t = ḡ + (y_I − g_I) / (N π_t(I)),   ḡ = (1/N) Σ_i g_i,
 * so E[Z_t | past] = ḡ + (1/N) Σ_i (y_i − g_i) = θ whatever π_t (every π_t(i) > 0). An item drawn
 * again reuses its label. Z_t − θ is a martingale difference sequence with predictable bounds
 * [zMin_t, zMax_t] (over every item, the label if known, else the whole scale), so for each candidate
 * value m the capital K⁺_t(m) = Π (1 + λ⁺_s(m)(Z_s − m)), λ⁺ ≥ 0 predictable with
 * 1 + λ⁺(Z − m) > 0, is a nonnegative supermartingale whenever θ ≤ m, and by Ville's inequality
 * P(∃t: K⁺_t(m) ≥ 1/α) ≤ α (K⁻ with λ⁻ ≤ 0 likewise for θ ≥ m). The loop says
 *   pass  when every grid value m ≤ −margin is rejected by K⁺ (θ > −margin),
 *   fail  when every m ≥ −margin is rejected by K⁻ (θ < −margin),
 * so a wrong pass and a wrong fail each have chance ≤ α however often one looks; bets are aGRAPA
 * (src/label/sequence.ts). It also intersects with the bounds that hold for sure: every unlabelled item
 * anywhere on its scale. Budget spent without either: inconclusive.
 * Reference: T. Zrnic & E. J. Candès, "Active statistical inference", ICML 2024 (the
 * inverse-probability control-variate estimator under adaptive sampling); I. Waudby-Smith &
 * A. Ramdas, "Estimating means of bounded random variables by betting", JRSSB 86(1), 2024 (capital
 * processes, predictable bets, Ville's inequality, aGRAPA bets).
 * @param pool the items (ids unique; judge within ±(hi − lo)).
 * @param options margin, budget, seed and the optional settings.
 * @returns the initial state.
 * @throws {RangeError} for a bad option, an empty pool, a duplicate id or a judge value outside its range.
 * @throws {TypeError} for an item of the wrong shape.
 * @example startLabelLoop([{ id: 'a', same: false }, { id: 'b', same: true }], { margin: 0.05, budget: 10, seed: 1 }).labelsUsed // => 0
 */
export function startLabelLoop(pool: readonly LabelPoolItem[], options: LabelLoopOptions): LabelLoopState {
  const opts = resolveOptions(options);
  const width = opts.scoreRange[1] - opts.scoreRange[0];
  if (!Array.isArray(pool) || pool.length === 0) throw new RangeError('the pool must hold at least one item');
  const seen = new Map<string, number>();
  const items: LabelPoolItem[] = [];
  let sumJudge = 0;
  pool.forEach((item, k) => {
    if (item === null || typeof item !== 'object') throw new TypeError(`pool item ${k + 1} must be an object (got ${String(item)})`);
    const { id, same, judge, stratum } = item;
    if (typeof id !== 'string' || id.length === 0) throw new TypeError(`pool item ${k + 1}: id must be a non-empty string (got ${JSON.stringify(id)})`);
    const before = seen.get(id);
    if (before !== undefined) throw new RangeError(`pool item ${k + 1}: id "${id}" repeats item ${before + 1}`);
    seen.set(id, k);
    if (typeof same !== 'boolean') throw new TypeError(`pool item "${id}": same must be true or false (got ${JSON.stringify(same)})`);
    if (judge !== undefined && !(typeof judge === 'number' && Number.isFinite(judge) && Math.abs(judge) <= width)) {
      throw new RangeError(`pool item "${id}": judge must be a number in [${-width}, ${width}] (got ${String(judge)})`);
    }
    if (stratum !== undefined && typeof stratum !== 'string') throw new TypeError(`pool item "${id}": stratum must be a string (got ${JSON.stringify(stratum)})`);
    const copy: LabelPoolItem = { id, same };
    if (judge !== undefined) copy.judge = judge;
    if (stratum !== undefined) copy.stratum = stratum;
    items.push(copy);
    sumJudge += judge ?? 0;
  });
  const judgeMean = sumJudge / items.length;
  return {
    format: FORMAT,
    options: opts,
    pool: items,
    judgeMean,
    baseline: new Array<number | null>(items.length).fill(null),
    candidate: new Array<number | null>(items.length).fill(null),
    labelsUsed: 0,
    batches: 0,
    pending: null,
    draws: 0,
    sameAssumptionActive: opts.assumeSameScore,
    sequence: newLabelSequence(width, opts.gridSize, -opts.margin, judgeMean),
    warnings: [],
  };
}

/**
 * Proposes the next batch: up to batchSize draws from π (seeded stream `seed:label:batch`), stopping
 * early when one more new item would exceed the budget. Draws of items already labelled are
 * `reused`; when every draw is reused the batch is folded in at once. While a batch waits for
 * answers, the same batch is returned again; once decided or out of budget, an empty one.
 * Pure: the same state gives the same batch.
 * @param state the loop's state (not modified).
 * @returns the new state, the draws, and the ids a human must label (each once).
 * @throws {TypeError} when the state is not a label-loop state.
 * @example
 * const s = startLabelLoop([{ id: 'a', same: false }], { margin: 0, budget: 1, seed: 1, batchSize: 3 });
 * proposeLabelBatch(s).toLabel // => ["a"]
 */
export function proposeLabelBatch(state: LabelLoopState): { state: LabelLoopState; draws: LabelDraw[]; toLabel: string[] } {
  checkState(state);
  if (state.pending !== null) return { state, draws: state.pending.draws.map((d) => ({ ...d })), toLabel: [...state.pending.toLabel] };
  const status = labelLoopStatus(state);
  if (status.verdict !== 'continue') return { state, draws: [], toLabel: [] };
  const opts = state.options;
  const width = opts.scoreRange[1] - opts.scoreRange[0];
  const n = state.pool.length;
  const labels = differences(state);
  const control = controlVariate(state, labels);
  const controlMean = control.reduce((a, b) => a + b, 0) / n;
  const samplingItems: SamplingItem[] = state.pool.map((it, i) => ({ same: it.same, judge: control[i], stratum: it.stratum ?? '', label: labels[i] }));
  const pi = labelSamplingProbabilities(samplingItems, { width, auditFloor: opts.auditFloor, uniformShare: opts.uniformShare });
  let zMin = Infinity;
  let zMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const g = samplingItems[i].judge;
    const y = labels[i];
    const assumedZero = state.sameAssumptionActive && state.pool[i].same;
    const lo = y ?? (assumedZero ? 0 : -width);
    const hi = y ?? (assumedZero ? 0 : width);
    const scale = n * pi[i];
    zMin = Math.min(zMin, controlMean + (lo - g) / scale);
    zMax = Math.max(zMax, controlMean + (hi - g) / scale);
  }
  const cumulative = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += pi[i];
    cumulative[i] = acc;
  }
  const batch = state.batches + 1;
  const rng = createRng(opts.seed, 'label', batch);
  const draws: LabelDraw[] = [];
  const itemsDrawn: number[] = [];
  const toLabel: string[] = [];
  const asked = new Set<number>();
  for (let k = 0; k < opts.batchSize; k++) {
    const i = pick(cumulative, rng.nextFloat() * acc);
    const reused = labels[i] !== null || asked.has(i);
    if (!reused) {
      if (state.labelsUsed + toLabel.length >= opts.budget) break;
      asked.add(i);
      toLabel.push(state.pool[i].id);
    }
    draws.push({ draw: state.draws + draws.length + 1, id: state.pool[i].id, probability: pi[i], reused });
    itemsDrawn.push(i);
  }
  const pending: PendingLabelBatch = { batch, draws, toLabel, items: itemsDrawn, zMin, zMax, controlMean, controls: itemsDrawn.map((i) => control[i]) };
  let next: LabelLoopState = { ...state, batches: batch, pending };
  if (toLabel.length === 0) next = foldPending(next);
  return { state: next, draws: draws.map((d) => ({ ...d })), toLabel: [...toLabel] };
}

/**
 * Records human answers for items of the pending batch; once every item of the batch is answered,
 * folds the batch's draws into the sequence in draw order. All answers are checked before any is
 * taken: nothing is half-recorded.
 * @param state the loop's state (not modified).
 * @param answers one per item, baseline and candidate scores in scoreRange.
 * @returns the new state.
 * @throws {RangeError} for an id not asked for in the pending batch, a second answer for an item, or a score outside scoreRange (the message names the id, the field and the value).
 * @example
 * const s = proposeLabelBatch(startLabelLoop([{ id: 'a', same: false }], { margin: 0, budget: 1, seed: 1 })).state;
 * recordLabelAnswers(s, [{ id: 'a', baseline: 0, candidate: 1 }]).labelsUsed // => 1
 */
export function recordLabelAnswers(state: LabelLoopState, answers: readonly LabelAnswer[]): LabelLoopState {
  checkState(state);
  if (!Array.isArray(answers)) throw new TypeError(`answers must be an array (got ${typeof answers})`);
  const pending = state.pending;
  const index = new Map<string, number>();
  state.pool.forEach((it, i) => index.set(it.id, i));
  const [lo, hi] = state.options.scoreRange;
  const taken = new Set<number>();
  for (const answer of answers) {
    if (answer === null || typeof answer !== 'object') throw new TypeError(`each answer must be an object (got ${String(answer)})`);
    const { id } = answer;
    const i = typeof id === 'string' ? index.get(id) : undefined;
    if (i === undefined) throw new RangeError(`answer for item ${JSON.stringify(id)}: id is not in the pool`);
    if (state.baseline[i] !== null || taken.has(i)) throw new RangeError(`answer for item "${id}": the item already has an answer (a second answer is refused)`);
    if (pending === null || !pending.toLabel.includes(id)) {
      throw new RangeError(`answer for item "${id}": id was not asked for${pending === null ? ' (no batch is waiting for answers)' : ` in batch ${pending.batch}`}`);
    }
    for (const field of ['baseline', 'candidate'] as const) {
      const v = answer[field];
      if (!(typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi)) {
        throw new RangeError(`answer for item "${id}": ${field} must be a number in [${lo}, ${hi}] (got ${JSON.stringify(v) ?? String(v)})`);
      }
    }
    taken.add(i);
  }
  if (answers.length === 0) return state;
  const baseline = [...state.baseline];
  const candidate = [...state.candidate];
  for (const answer of answers) {
    const i = index.get(answer.id) as number;
    baseline[i] = answer.baseline;
    candidate[i] = answer.candidate;
  }
  let next: LabelLoopState = { ...state, baseline, candidate, labelsUsed: state.labelsUsed + answers.length };
  const p = next.pending as PendingLabelBatch;
  if (p.toLabel.every((id) => baseline[index.get(id) as number] !== null)) next = foldPending(next);
  return next;
}

/**
 * The loop's verdict now, its interval, and what more labels would buy.
 *   pass          lower bound ≥ −margin (θ > −margin shown), or the sure bounds show it
 *   fail          upper bound ≤ −margin (θ < −margin shown), or the sure bounds show it
 *   inconclusive  neither, and the budget is spent (or the difference is known for sure and equals −margin)
 *   continue      neither, labels left
 * labelsNeeded (continue/inconclusive): draws T with T·(μ̂ + m)²/(2σ̂²) ≥ log(1/α) (the aGRAPA
 * capital's growth rate at −margin), turned into distinct new items under the current π, capped at
 * the unlabelled items; null when decided.
 * @param state the loop's state.
 * @returns the status (see LabelStatus).
 * @example labelLoopStatus(startLabelLoop([{ id: 'a', same: false }], { margin: 0, budget: 1, seed: 1 })).verdict // => "continue"
 */
export function labelLoopStatus(state: LabelLoopState): LabelStatus {
  checkState(state);
  const opts = state.options;
  const width = opts.scoreRange[1] - opts.scoreRange[0];
  const threshold = -opts.margin;
  const seq = state.sequence;
  const { lower: seqLower, upper: seqUpper } = sequenceBounds(seq, width);
  const { lower: sureLower, upper: sureUpper } = sureBounds(state);
  const lower = Math.max(seqLower, sureLower);
  const upper = Math.min(seqUpper, sureUpper);
  const estimate = seq.t === 0 ? NaN : seq.sumZ / seq.t;
  const sd = seq.t < 2 ? NaN : Math.sqrt(seq.sumSquares / seq.t);
  let verdict: LabelStatus['verdict'];
  let reason: string;
  const fmt = (x: number): string => String(Number(x.toPrecision(4)));
  // The sure bounds are sums of N floating-point differences: at θ = −margin exactly, rounding alone
  // could put them a hair on either side, so they decide only beyond a relative tolerance.
  const tolerance = 1e-9 * width;
  if (seqLower >= threshold || sureLower > threshold + tolerance) {
    verdict = 'pass';
    reason = `lower bound ${fmt(lower)} is above −margin ${fmt(threshold)}: no drop beyond the margin`;
  } else if (seqUpper <= threshold || sureUpper < threshold - tolerance) {
    verdict = 'fail';
    reason = `upper bound ${fmt(upper)} is below −margin ${fmt(threshold)}: a drop beyond the margin`;
  } else if (state.pending === null && (state.labelsUsed >= opts.budget || sureUpper - sureLower <= 2 * tolerance)) {
    verdict = 'inconclusive';
    reason =
      state.labelsUsed >= opts.budget
        ? `the budget of ${opts.budget} labels is spent and [${fmt(lower)}, ${fmt(upper)}] still contains −margin ${fmt(threshold)}`
        : `every item that could move the difference is labelled${state.sameAssumptionActive ? ' (agreeing items assumed to score the same)' : ''}, and it equals −margin ${fmt(threshold)}`;
  } else {
    verdict = 'continue';
    reason = `[${fmt(lower)}, ${fmt(upper)}] contains −margin ${fmt(threshold)}: label more`;
  }
  const labelsNeeded = verdict === 'continue' || verdict === 'inconclusive' ? estimateLabelsNeeded(state) : null;
  return {
    verdict,
    estimate,
    confidenceInterval: [lower, upper],
    confidenceLevel: opts.confidence,
    labelsUsed: state.labelsUsed,
    draws: state.draws,
    budget: opts.budget,
    margin: opts.margin,
    labelsNeeded,
    reason,
    standardError: seq.t < 2 ? NaN : sd / Math.sqrt(seq.t),
    warnings: [...state.warnings],
  };
}

/**
 * Runs the loop to a verdict with an oracle that answers every item asked for (studies, tests).
 * @param pool the items.
 * @param oracle the human: id → answer.
 * @param options as for startLabelLoop.
 * @returns the final status and the status after every batch.
 * @example runLabelLoop([{ id: 'a', same: false }], (id) => ({ id, baseline: 0, candidate: 1 }), { margin: 0.1, budget: 1, seed: 1 }).status.verdict // => "pass"
 */
export function runLabelLoop(pool: readonly LabelPoolItem[], oracle: (id: string) => LabelAnswer, options: LabelLoopOptions): { status: LabelStatus; history: LabelStatus[] } {
  let state = startLabelLoop(pool, options);
  const history: LabelStatus[] = [];
  for (;;) {
    const proposal = proposeLabelBatch(state);
    if (proposal.draws.length === 0) break;
    state = proposal.state;
    if (proposal.toLabel.length > 0) state = recordLabelAnswers(state, proposal.toLabel.map((id) => ({ ...oracle(id), id })));
    const status = labelLoopStatus(state);
    history.push(status);
    if (status.verdict !== 'continue') break;
  }
  return { status: labelLoopStatus(state), history };
}

function resolveOptions(options: LabelLoopOptions): ResolvedLabelLoopOptions {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object (got ${String(options)})`);
  const { margin, budget, seed } = options;
  if (!(typeof margin === 'number' && Number.isFinite(margin) && margin >= 0)) throw new RangeError(`margin must be a finite number ≥ 0 (got ${String(margin)})`);
  const confidence = options.confidence ?? 0.95;
  if (!(typeof confidence === 'number' && confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${String(confidence)})`);
  const batchSize = options.batchSize ?? 20;
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) throw new RangeError(`batchSize must be a whole number ≥ 1 (got ${String(batchSize)})`);
  if (!(Number.isInteger(budget) && budget >= 1)) throw new RangeError(`budget must be a whole number ≥ 1 (got ${String(budget)})`);
  if (!(Number.isSafeInteger(seed))) throw new RangeError(`seed must be an integer (got ${String(seed)})`);
  const range = options.scoreRange ?? [0, 1];
  if (!(Array.isArray(range) && range.length === 2 && Number.isFinite(range[0]) && Number.isFinite(range[1]) && range[1] > range[0])) {
    throw new RangeError(`scoreRange must be [lo, hi] with lo < hi, both finite (got ${JSON.stringify(range)})`);
  }
  if (margin > range[1] - range[0]) throw new RangeError(`margin must be at most the scale's width ${range[1] - range[0]} (got ${margin})`);
  const auditFloor = options.auditFloor ?? 0.05;
  if (!(typeof auditFloor === 'number' && auditFloor > 0 && auditFloor < 1)) throw new RangeError(`auditFloor must be in (0, 1) (got ${String(auditFloor)})`);
  const uniformShare = options.uniformShare ?? 0.1;
  if (!(typeof uniformShare === 'number' && uniformShare > 0 && uniformShare <= 1)) throw new RangeError(`uniformShare must be in (0, 1] (got ${String(uniformShare)})`);
  const gridSize = options.gridSize ?? 400;
  if (!(Number.isInteger(gridSize) && gridSize >= 10 && gridSize <= 100000)) throw new RangeError(`gridSize must be a whole number in [10, 100000] (got ${String(gridSize)})`);
  const truncation = options.truncation ?? 0.9;
  if (!(typeof truncation === 'number' && truncation > 0 && truncation < 1)) throw new RangeError(`truncation must be in (0, 1) (got ${String(truncation)})`);
  const assumeSameScore = options.assumeSameScore ?? false;
  if (typeof assumeSameScore !== 'boolean') throw new TypeError(`assumeSameScore must be true or false (got ${String(assumeSameScore)})`);
  const calibrateJudge = options.calibrateJudge ?? false;
  if (typeof calibrateJudge !== 'boolean') throw new TypeError(`calibrateJudge must be true or false (got ${String(calibrateJudge)})`);
  return { margin, confidence, batchSize, budget, seed, scoreRange: [range[0], range[1]], auditFloor, assumeSameScore, uniformShare, gridSize, truncation, calibrateJudge };
}

function checkState(state: LabelLoopState): void {
  if (state === null || typeof state !== 'object' || state.format !== FORMAT) throw new TypeError(`not a label-loop state (format ${JSON.stringify((state as { format?: unknown } | null)?.format)})`);
}

/** y_i = candidate − baseline for labelled items, null otherwise. */
function differences(state: LabelLoopState): Array<number | null> {
  return state.baseline.map((b, i) => (b === null ? null : (state.candidate[i] as number) - b));
}

/** The bounds that hold for sure: labelled items at their value, every other anywhere on the scale (0 for agreeing ones under the assumption). */
function sureBounds(state: LabelLoopState): { lower: number; upper: number } {
  const width = state.options.scoreRange[1] - state.options.scoreRange[0];
  let lo = 0;
  let hi = 0;
  const n = state.pool.length;
  for (let i = 0; i < n; i++) {
    const b = state.baseline[i];
    if (b !== null) {
      const y = (state.candidate[i] as number) - b;
      lo += y;
      hi += y;
    } else if (!(state.sameAssumptionActive && state.pool[i].same)) {
      lo -= width;
      hi += width;
    }
  }
  return { lower: lo / n, upper: hi / n };
}

function foldPending(state: LabelLoopState): LabelLoopState {
  const p = state.pending as PendingLabelBatch;
  const opts = state.options;
  const n = state.pool.length;
  const sequence = structuredClone(state.sequence);
  const warnings = [...state.warnings];
  let active = state.sameAssumptionActive;
  const settings = { logThreshold: Math.log(1 / (1 - opts.confidence)), truncation: opts.truncation };
  p.items.forEach((i, k) => {
    const y = (state.candidate[i] as number) - (state.baseline[i] as number);
    const z = labelContribution(p.controlMean, y, p.controls[k], n, p.draws[k].probability);
    pushContribution(sequence, z, p.zMin, p.zMax, settings);
    if (active && state.pool[i].same && y !== 0) {
      active = false;
      warnings.push(`agreeing item "${state.pool[i].id}" has human difference ${y}: "same output ⇒ same score" does not hold, so later bets no longer assume it`);
    }
  });
  return { ...state, pending: null, sequence, draws: state.draws + p.items.length, sameAssumptionActive: active, warnings };
}

/** The control variate for the next batch: the judge, or (calibrateJudge) its least-squares recalibration on disagreeing items from the labels so far. */
function controlVariate(state: LabelLoopState, labels: ReadonlyArray<number | null>): number[] {
  const judge = state.pool.map((it) => it.judge ?? 0);
  if (!state.options.calibrateJudge) return judge;
  const width = state.options.scoreRange[1] - state.options.scoreRange[0];
  let k = 0;
  let sg = 0;
  let sy = 0;
  let sgg = 0;
  let sgy = 0;
  state.pool.forEach((it, i) => {
    const y = labels[i];
    if (it.same || y === null) return;
    k++;
    sg += judge[i];
    sy += y;
    sgg += judge[i] * judge[i];
    sgy += judge[i] * y;
  });
  if (k < 10) return judge;
  const varG = sgg / k - (sg / k) ** 2;
  const cov = sgy / k - (sg / k) * (sy / k);
  const slope = varG > 1e-12 ? Math.min(2, Math.max(0, cov / varG)) : 0;
  const intercept = sy / k - slope * (sg / k);
  return state.pool.map((it, i) => (it.same ? judge[i] : Math.min(width, Math.max(-width, intercept + slope * judge[i]))));
}

/** Index of the first cumulative value above u (binary search). */
function pick(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function estimateLabelsNeeded(state: LabelLoopState): number {
  const opts = state.options;
  const seq = state.sequence;
  const n = state.pool.length;
  const unlabelled = state.baseline.reduce<number>((k, b) => k + (b === null ? 1 : 0), 0);
  if (unlabelled === 0) return 0;
  const gap = seq.muHat + opts.margin;
  const logT = Math.log(1 / (1 - opts.confidence));
  const total = gap === 0 ? Infinity : (2 * seq.sigmaHat2 * logT) / (gap * gap);
  const more = Math.max(0, total - seq.t);
  if (!Number.isFinite(more)) return unlabelled;
  const width = opts.scoreRange[1] - opts.scoreRange[0];
  const labels = differences(state);
  const pi = labelSamplingProbabilities(
    state.pool.map((it, i) => ({ same: it.same, judge: it.judge ?? 0, stratum: it.stratum ?? '', label: labels[i] })),
    { width, auditFloor: opts.auditFloor, uniformShare: opts.uniformShare },
  );
  let expected = 0;
  for (let i = 0; i < n; i++) if (labels[i] === null) expected += 1 - Math.pow(1 - pi[i], more);
  return Math.min(unlabelled, Math.ceil(expected));
}
