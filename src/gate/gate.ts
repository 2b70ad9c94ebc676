import { InputError } from '../data/errors.js';
import { checkClustersWithinStrata, pairScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { normalQuantile } from '../distributions/index.js';
import type { Seed } from '../random/seed.js';
import { autoIntervalChoice, autoIntervalOnDifferences, ONE_SIDED_BOUNDED_T_LEVEL_FACTOR } from '../paired/auto-interval.js';
import type { AutoMethodUsed } from '../paired/choose-method.js';
import { centralSums, summarizeDifferences, type DifferenceSummary } from '../paired/difference-summary.js';
import { gateBlindSpot, type GateBlindSpot } from './blind-spot.js';
import { bootstrapMeanDifference } from '../bootstrap/mean.js';
import { exactScoreNonInferiority, exactScoreRejects } from '../paired/exact-score.js';
import { binaryPairedCounts, pairedCounts, pairedItemsNeeded, type PairedCounts } from '../paired/paired-proportion.js';
import { seedText } from '../bootstrap/settings.js';
import { cochranMinimumItems, skewnessFromSums } from '../paired/skewness.js';
import { checkScoreRangeShape, checkTableScoresInRange } from '../sequential/score-range.js';
import { INTERVAL_METHODS, type IntervalMethod } from '../bootstrap/types.js';
import { combineVerdicts, gateVerdict, type GateVerdict } from './verdict.js';

/** The gate's interval methods: `auto` (default, see chooseIntervalMethod) or a bootstrap / t method by name. */
export type GateMethod = IntervalMethod | 'auto';

/** Every gate method, default first. */
export const GATE_METHODS: readonly GateMethod[] = ['auto', ...INTERVAL_METHODS];

/**
 * A number in a reason: the same text as src/report/table.ts formatNumber(x, 3) (3 significant
 * digits below 1, fixed decimals above), kept here so the statistics layer does not import the
 * report layer (tests/gate/gate.test.ts checks the two agree).
 * @param x any number. @returns its text ('NaN', 'inf', '-inf' spelled out).
 * @example reasonNumber(-0.0649267) // => '-0.0649'
 */
export function reasonNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x)) return String(x);
  const magnitude = Math.abs(x);
  if (magnitude >= 1000) return x.toFixed(0);
  if (magnitude >= 1) return x.toFixed(Math.max(0, 2 - Math.floor(Math.log10(magnitude))) || 1);
  return Number(x.toPrecision(3)).toString();
}
const formatNumber = reasonNumber;

/** Settings of a non-inferiority gate. */
export interface NonInferiorityOptions {
  /**
   * The largest drop (candidate − baseline, in score units) that does not count as a regression,
   * ≥ 0: 0.02 on 0/1 scores is two points of accuracy. The gate passes when it can rule out a drop
   * larger than this.
   */
  margin: number;
  /**
   * Interval method: `auto` (default: chosen from the data by chooseIntervalMethod, and a bound
   * that is degenerate never passes), or `bca`, `percentile`, `basic`, `t` by name (as before auto).
   */
  method?: GateMethod;
  /** One-sided confidence level in (0, 1); default 0.95 (a 5% chance of passing a real regression). */
  confidenceLevel?: number;
  /** Bootstrap resamples; default 9999 (ignored by `t`). */
  nResamples?: number;
  /** Seed; default 0. Stratum h's check uses the stream `${seed}:stratum:${h}`. */
  seed?: Seed;
  /** Also check every stratum (intersection–union: every check must pass). */
  perStratum?: boolean;
  /**
   * With `auto`: [low, high], the range both models' scores can take (every score must lie in it).
   * Scores on a declared scale count as bounded: a skewed sample gets the betting bound, valid at
   * every n, instead of the skew refusal. Default: bounded only when every score lies in [0, 1].
   * Not used by the named methods (an error to give with one).
   */
  scoreRange?: readonly [number, number] | null;
  /** Called with the fraction of the work done (0 … 1). */
  onProgress?: ((fraction: number) => void) | null;
}

/** Paired per-item scores for the array form of the gate. */
export interface NonInferiorityData {
  candidate: ArrayLike<number>;
  baseline: ArrayLike<number>;
  /** Per item: cluster index (0 … G − 1), to resample whole clusters (documents). */
  cluster?: Int32Array | null;
  /** Per item: stratum index into `strataNames`, for `perStratum` and stratified resampling. */
  stratum?: Int32Array | null;
  strataNames?: readonly string[];
  /** Names of the cluster indices, for messages. */
  clusterNames?: readonly string[];
  /** Resample within strata for the overall check (stratum sizes fixed, as the set was built). */
  stratified?: boolean;
}

/** One check of the gate: the whole set, or one stratum. */
export interface NonInferiorityCheck {
  /** null for the whole set; else the stratum's name. */
  stratum: string | null;
  n: number;
  /** Clusters resampled, or null when items are resampled. */
  nClusters: number | null;
  /** mean(candidate − baseline). */
  estimate: number;
  /** The one-sided lower confidence bound of candidate − baseline (NaN when it cannot be computed). */
  lowerBound: number;
  /** [lowerBound, +∞): the one-sided interval. */
  confidenceInterval: [number, number];
  standardError: number;
  /** −margin: the bound must lie above it. */
  threshold: number;
  /**
   * The one-sided upper confidence bound of candidate − baseline at the same level, by the same
   * method (NaN when not computed: the check passed, or the method's condition does not hold).
   * Below −margin it shows a drop larger than the margin: verdict `fail`.
   */
  upperBound: number;
  /** pass (lowerBound > −margin), fail (upperBound < −margin) or inconclusive (neither, or no valid bound): gateVerdict. */
  verdict: GateVerdict;
  /** verdict === 'pass'. */
  passed: boolean;
  /** Why it passed, failed or is inconclusive, in words. */
  reason: string;
  /** With method `auto`: the interval used for this check and why (chooseIntervalMethod). */
  methodUsed?: AutoMethodUsed;
  methodReason?: string;
  /**
   * With method `auto`: true when the bounds are the ends of the two-sided t interval at the check's
   * level (bounded scores without strata or clusters: t's one-sided 1 − α/2 quantile, bench/comet-gate-rules.txt R4);
   * absent otherwise.
   */
  boundAtIntervalEnd?: boolean;
  /**
   * With method `auto`, when the check is inconclusive: about how many items (at the observed
   * discordance for 0/1 scores, at the observed spread otherwise) would decide it at this margin —
   * let it pass when the estimate is above −margin, show the drop (fail) when it is below; null when
   * no number would (the differences do not vary, or the estimate is exactly −margin) or the check
   * is already decided.
   */
  itemsNeeded?: number | null;
  /** With method `auto` on clustered data: the clusters behind itemsNeeded (at the observed items per cluster). */
  clustersNeeded?: number | null;
  /**
   * With method `auto` on 0/1 scores whose Tango bound clears −margin: the p-value of the exact
   * unconditional score test of H0: candidate − baseline ≤ −margin (exactScoreNonInferiority), which
   * must also be ≤ 1 − confidenceLevel for the check to pass; null when the bound did not clear;
   * absent when exactTestSkipped accepted the table (≥ 50 discordant items, at most half the items).
   */
  pValue?: number | null;
  /** Which test gave pValue: `exact-score` (Hsueh, Liu & Chen 2001, ordered by Tango's statistic). */
  pValueTest?: 'exact-score' | null;
  warnings: string[];
}

/** The gate's verdict with every number behind it and the settings that produced it. */
export interface NonInferiorityResult {
  baseline: string;
  candidate: string;
  margin: number;
  threshold: number;
  method: GateMethod;
  /** With method `auto`: the overall check's methodUsed and methodReason. */
  methodUsed?: AutoMethodUsed;
  methodReason?: string;
  confidenceLevel: number;
  /** Always `greater`: H1 is candidate − baseline > −margin. */
  alternative: 'greater';
  nResamples: number;
  seed: string;
  clustered: boolean;
  stratified: boolean;
  perStratum: boolean;
  /** Paired items. */
  n: number;
  /** Items left out because one model did not score them (with dropUnpaired). */
  dropped: number;
  /** Every check passed (verdict === 'pass'). */
  passed: boolean;
  /**
   * pass when every check passes, fail when any check shows a drop beyond the margin, inconclusive
   * otherwise (combineVerdicts: the intersection–union rule).
   */
  verdict: GateVerdict;
  /** Names of the inconclusive checks: `overall` and/or stratum names. */
  inconclusive: string[];
  overall: NonInferiorityCheck;
  /** Per-stratum checks (empty without perStratum), in the table's stratum order. */
  strata: NonInferiorityCheck[];
  /** Names of the checks that did not pass (failed or inconclusive): `overall` and/or stratum names. */
  failed: string[];
  /**
   * When the gate passes on a bounded scale (scores in [0, 1], or a declared scoreRange): the share
   * of items (clusters) a sample this size misses at least α of the time, and whether a regression
   * confined to it could reach the margin (gateBlindSpot); null when it cannot, or the gate did not
   * pass, or the scale is unbounded. A non-null value also adds a warning.
   */
  blindSpot: GateBlindSpot | null;
  warnings: string[];
}

/** Maps labels to 0 … G − 1 in order of first appearance (the engine wants dense indices). */
function dense(labels: ArrayLike<number>, names?: readonly string[]): { index: Int32Array; count: number; names: string[] } {
  const map = new Map<number, number>();
  const index = new Int32Array(labels.length);
  const dense: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    let k = map.get(labels[i]);
    if (k === undefined) {
      k = map.size;
      map.set(labels[i], k);
      dense.push(names?.[labels[i]] ?? `#${labels[i]}`);
    }
    index[i] = k;
  }
  return { index, count: map.size, names: dense };
}

function checkOne(
  candidate: Float64Array,
  baseline: Float64Array,
  cluster: Int32Array | null,
  strata: Int32Array | null,
  stratum: string | null,
  settings: { margin: number; method: GateMethod; confidenceLevel: number; nResamples: number; seed: string; scoreRange: readonly [number, number] | null },
  onProgress: ((fraction: number) => void) | null,
  names: { strata?: readonly string[]; clusters?: readonly string[] } = {},
): NonInferiorityCheck {
  if (settings.method === 'auto') return checkAuto(candidate, baseline, cluster, strata, stratum, settings, onProgress, names);
  const n = candidate.length;
  const threshold = -settings.margin;
  const clusters = cluster === null ? null : dense(cluster, names.clusters);
  const denseStrata = strata === null ? null : dense(strata, names.strata);
  let sum = 0;
  let constant = true;
  for (let i = 0; i < n; i++) {
    const d = candidate[i] - baseline[i];
    sum += d;
    if (i > 0 && d !== candidate[0] - baseline[0]) constant = false;
  }
  const estimate = n > 0 ? sum / n : NaN;
  const base = { stratum, n, nClusters: clusters === null ? null : clusters.count, estimate, threshold };
  const units = clusters === null ? n : clusters.count;
  if (units < 2) {
    const what = clusters === null ? 'item' : 'cluster';
    return { ...base, lowerBound: NaN, upperBound: NaN, confidenceInterval: [NaN, Infinity], standardError: NaN, verdict: 'inconclusive', passed: false, reason: `inconclusive: too few ${what}s (${units}) to bound the difference`, warnings: [] };
  }
  if (constant) {
    // A point mass: every resample (and every interval method) gives this one value, a degenerate
    // interval that says nothing about the items not scored: the method's condition does not hold.
    return {
      ...base,
      lowerBound: estimate,
      upperBound: estimate,
      confidenceInterval: [estimate, Infinity],
      standardError: 0,
      verdict: 'inconclusive',
      passed: false,
      reason: `inconclusive: every item differs by ${formatNumber(estimate)}, so the bootstrap sees no variation and its interval is degenerate (that one value); score items where the models can differ`,
      warnings: [`every ${stratum === null ? '' : `"${stratum}" `}item has the same difference (${formatNumber(estimate)}): the bootstrap sees no variation, so the bound is that value`],
    };
  }
  const interval = (alternative: 'greater' | 'less') =>
    bootstrapMeanDifference(candidate, baseline, {
      method: settings.method as IntervalMethod,
      confidenceLevel: settings.confidenceLevel,
      nResamples: settings.nResamples,
      seed: stratum === null ? settings.seed : `${settings.seed}:stratum:${stratum}`,
      alternative,
      cluster: clusters === null ? null : clusters.index,
      strata: denseStrata === null ? null : denseStrata.index,
      clusterNames: clusters === null ? null : clusters.names,
      strataNames: denseStrata === null ? null : denseStrata.names,
      onProgress,
    });
  const result = interval('greater');
  const lowerBound = result.confidenceInterval[0];
  // The upper bound decides between fail and inconclusive, so it is computed only when the check does not pass.
  const upper = lowerBound > threshold ? null : interval('less');
  const upperBound = upper === null ? NaN : upper.confidenceInterval[1];
  const verdict = gateVerdict({ lowerBound, upperBound, threshold, valid: !Number.isNaN(lowerBound) });
  let reason: string;
  if (Number.isNaN(lowerBound)) reason = 'inconclusive: the lower bound is undefined (see warnings)';
  else if (verdict === 'pass') reason = `the lower bound ${formatNumber(lowerBound)} is above ${formatNumber(threshold)}`;
  else if (verdict === 'fail') reason = `regression: the upper bound ${formatNumber(upperBound)} is below ${formatNumber(threshold)}: a drop larger than the margin is shown`;
  else if (estimate <= threshold) reason = `inconclusive: the estimate ${formatNumber(estimate)} is at or below ${formatNumber(threshold)}, but the upper bound ${formatNumber(upperBound)} is not below it: a drop larger than the margin is not yet shown (more items would narrow it)`;
  else reason = `inconclusive: cannot rule out a drop larger than the margin: the bound ${formatNumber(lowerBound)} is not above ${formatNumber(threshold)} (more items would narrow it)`;
  const warnings = upper === null ? result.warnings : [...result.warnings, ...upper.warnings.filter((w) => !result.warnings.includes(w))];
  return { ...base, lowerBound, upperBound, confidenceInterval: [lowerBound, Infinity], standardError: result.standardError, verdict, passed: verdict === 'pass', reason, warnings };
}

/**
 * One check under `--method auto`: the interval of autoPairedInterval (alternative `greater`); it
 * passes only when that bound is a real bound (finite, from data that vary, or a score interval)
 * and lies above −margin. Otherwise the upper bound (alternative `less`, same level) is computed and
 * the check fails when it lies below −margin (gateVerdict); with no valid bound (units < 2, no
 * spread, the skew refusal) it is inconclusive. An inconclusive check says how many items would
 * decide it: for 0/1 scores pairedItemsNeeded (the same proportions, more items; with no discordant
 * item the rule-of-three-type N > z²(1 − margin)/margin; for the fail side, on baseline − candidate
 * against +margin); otherwise N ≈ units · (arm / |estimate + margin|)², arm = z · SE (or the bound's
 * own distance from the estimate for betting and studentized bounds) shrinking as 1/√units (units:
 * items, or clusters).
 */
function checkAuto(
  candidate: Float64Array,
  baseline: Float64Array,
  cluster: Int32Array | null,
  strata: Int32Array | null,
  stratum: string | null,
  settings: { margin: number; confidenceLevel: number; nResamples: number; seed: string; scoreRange: readonly [number, number] | null },
  onProgress: ((fraction: number) => void) | null,
  names: { strata?: readonly string[]; clusters?: readonly string[] },
): NonInferiorityCheck {
  const n = candidate.length;
  const threshold = -settings.margin;
  const clusters = cluster === null ? null : dense(cluster, names.clusters);
  const denseStrata = strata === null ? null : dense(strata, names.strata);
  // 0/1 scores without clusters (the rule's tango, with or without strata): the paired table, counted
  // in one walk, is all the check reads; the estimate is (b − c)/n, exactly the sum of the ±1 differences
  // over n. Otherwise candidate − baseline once, in one walk with their sum and spread and whether the
  // scores lie in the range the rule checks (read by the auto rule, the t bound and lossSkew instead of
  // walking the items again). The scores are checked already.
  const table = clusters === null ? binaryPairedCounts(candidate, baseline) : null;
  const differences = table === null ? new Float64Array(n) : null;
  const summary = differences === null ? null : summarizeDifferences(candidate, baseline, differences, settings.scoreRange ?? [0, 1], true);
  const estimate = n === 0 ? NaN : table !== null ? (table.onlyA - table.onlyB) / n : (summary?.sum ?? NaN) / n;
  const base = { stratum, n, nClusters: clusters === null ? null : clusters.count, estimate, threshold };
  const units = clusters === null ? n : clusters.count;
  if (units < 2) {
    const what = clusters === null ? 'item' : 'cluster';
    return { ...base, lowerBound: NaN, upperBound: NaN, confidenceInterval: [NaN, Infinity], standardError: NaN, verdict: 'inconclusive', passed: false, reason: `inconclusive: too few ${what}s (${units}) to bound the difference`, itemsNeeded: null, clustersNeeded: null, warnings: [] };
  }
  const intervalOptions = (alternative: 'greater' | 'less') => ({
    confidenceLevel: settings.confidenceLevel,
    alternative,
    nResamples: settings.nResamples,
    seed: stratum === null ? settings.seed : `${settings.seed}:stratum:${stratum}`,
    cluster: clusters === null ? null : clusters.index,
    strata: denseStrata === null ? null : denseStrata.index,
    clusterNames: clusters === null ? null : clusters.names,
    strataNames: denseStrata === null ? null : denseStrata.names,
    scoreRange: settings.scoreRange,
    onProgress,
    // the check reads the bound and never McNemar's p-values (their exact sum is most of a 0/1 call at 10⁴ items)
    exactPValues: false,
  });
  const interval = (alternative: 'greater' | 'less') => {
    const options = intervalOptions(alternative);
    // 0/1: the choice made on the table already counted (tango), and no differences
    return table === null ? autoIntervalOnDifferences(candidate, baseline, differences, options, null, summary) : autoIntervalOnDifferences(candidate, baseline, null, options, autoIntervalChoice(candidate, baseline, options, undefined, table));
  };
  const r = interval('greater');
  // A constant difference has no interval (noInterval); the gate keeps reporting the point it would
  // have been as "the computed bound" beside its "no valid bound" reason, as before.
  const lowerBound = r.noInterval !== null && r.cr2 === null ? estimate : r.confidenceInterval[0];
  const score = r.pairedProportion !== null;
  const flat = !score && !(r.standardError > 0);
  const chosen = { methodUsed: r.methodUsed, methodReason: r.methodReason, ...(r.boundAtIntervalEnd === true ? { boundAtIntervalEnd: true } : {}) };
  // (0/1 checks have no summary: their scores lie in [0, 1], or in the declared range autoIntervalChoice checked)
  const lossTail = clusters === null && denseStrata === null && !flat && summary !== null && differences !== null ? lossSkew(summary, differences) : null;
  const valid = !flat && lossTail === null && !Number.isNaN(lowerBound);
  // The upper bound decides fail against inconclusive: computed only when the check can be decided and did not pass.
  const upper = valid && !(lowerBound > threshold) ? interval('less') : null;
  const upperBound = upper === null ? NaN : upper.confidenceInterval[1];
  const verdict = gateVerdict({ lowerBound, upperBound, threshold, valid });
  const warnings = upper === null ? r.warnings : [...r.warnings, ...upper.warnings.filter((w) => !r.warnings.includes(w))];
  const result = { ...base, lowerBound, upperBound, confidenceInterval: [lowerBound, Infinity] as [number, number], standardError: r.standardError, ...chosen, verdict, passed: verdict === 'pass', warnings };
  // 0/1 scores: Tango's asymptotic bound is liberal where few items are discordant (it lets a table
  // with no discordant item pass from n > z²(1 − m)/m on, where that table still has probability
  // ≈ e^(−z²) = 0.067 under a true drop of m: bench/binary-exact-study.txt). A pass also needs the
  // exact unconditional score test at the margin, whose size is ≤ α for every nuisance value;
  // without it the check is inconclusive (the bound clears, the test does not yet).
  if (score && verdict === 'pass') {
    const alpha = 1 - settings.confidenceLevel;
    const counts = r.pairedProportion?.counts ?? pairedCounts(candidate, baseline);
    if (exactTestSkipped(counts)) {
      const discordant = counts.onlyA + counts.onlyB;
      return { ...result, reason: `the lower bound ${formatNumber(lowerBound)} (${r.methodUsed}) is above ${formatNumber(threshold)}, on ${discordant} discordant and ${n - discordant} agreeing items (there the bound alone holds the false-pass rate, bench/binary-gate-shortcut-2.txt)`, itemsNeeded: null, clustersNeeded: null };
    }
    const exact = exactScoreNonInferiority(counts, threshold);
    const tested = { pValue: exact.pValue, pValueTest: 'exact-score' as const };
    if (exact.pValue <= alpha) return { ...result, ...tested, reason: `the lower bound ${formatNumber(lowerBound)} (${r.methodUsed}) is above ${formatNumber(threshold)}, and the exact score test at the margin agrees (p = ${formatNumber(exact.pValue)})`, itemsNeeded: null, clustersNeeded: null };
    const needed = itemsNeededExact(counts, threshold, alpha, n + 1);
    return {
      ...result,
      ...tested,
      verdict: 'inconclusive',
      passed: false,
      reason: `inconclusive: cannot rule out a drop larger than the margin: the ${r.methodUsed} bound ${formatNumber(lowerBound)} is above ${formatNumber(threshold)}, but the exact score test at the margin is not significant (p = ${formatNumber(exact.pValue)} > ${formatNumber(alpha)}): with this few discordant items a true drop of ${formatNumber(settings.margin)} would pass too often; ${needed === null ? 'more items would settle it' : `${needed} items in the same proportions would let it pass`}`,
      itemsNeeded: needed,
      clustersNeeded: null,
    };
  }
  if (verdict === 'pass') {
    return { ...result, reason: `the lower bound ${formatNumber(lowerBound)} (${r.methodUsed}) is above ${formatNumber(threshold)}`, itemsNeeded: null, clustersNeeded: null };
  }
  if (verdict === 'fail') {
    return { ...result, reason: `regression: the ${upper?.methodUsed ?? r.methodUsed} upper bound ${formatNumber(upperBound)} is below ${formatNumber(threshold)}: a drop larger than the margin is shown`, itemsNeeded: null, clustersNeeded: null };
  }
  if (flat && r.noInterval !== null && r.cr2 !== null) {
    // Few clusters whose totals cancel: no bound, not a pass (H7's verdicts: inconclusive).
    return { ...result, reason: `inconclusive: no valid bound: ${r.noInterval}`, itemsNeeded: null, clustersNeeded: null };
  }
  if (flat) {
    return {
      ...result,
      reason: `inconclusive: no valid bound: every ${stratum === null ? '' : `"${stratum}" `}difference is ${formatNumber(estimate)}, so these ${n} items show no variation to size an interval from (a bound of that value would be degenerate); score items where the models can differ`,
      itemsNeeded: null,
      clustersNeeded: null,
    };
  }
  if (Number.isNaN(lowerBound)) return { ...result, reason: 'inconclusive: the lower bound is undefined (see warnings)', itemsNeeded: null, clustersNeeded: null };
  // Below −margin the items needed are those that would show the drop (the upper bound's side).
  const failSide = estimate < threshold;
  if (estimate === threshold && lossTail === null) {
    return { ...result, reason: `inconclusive: the estimate ${formatNumber(estimate)} is exactly −margin, so no number of items at this spread would decide it`, itemsNeeded: null, clustersNeeded: null };
  }
  const margin = `at margin ${formatNumber(settings.margin)}`;
  const head = failSide
    ? `inconclusive: the estimate ${formatNumber(estimate)} is below ${formatNumber(threshold)}, but the ${upper?.methodUsed ?? r.methodUsed} upper bound ${formatNumber(upperBound)} is not: a drop larger than the margin is not yet shown`
    : `inconclusive: cannot rule out a drop larger than the margin: the ${r.methodUsed} bound ${formatNumber(lowerBound)} is not above ${formatNumber(threshold)}`;
  const decide = failSide ? 'would show the drop' : 'would let it pass';
  if (score) {
    const counts = r.pairedProportion?.counts ?? pairedCounts(candidate, baseline);
    const method = r.methodUsed === 'tango' ? 'tango' : 'newcombe';
    const passNeeded = (): number | null => {
      const scoreNeeded = pairedItemsNeeded(counts, threshold, { method, confidenceLevel: settings.confidenceLevel });
      return scoreNeeded === null ? null : itemsNeededExact(counts, threshold, 1 - settings.confidenceLevel, scoreNeeded);
    };
    const needed = failSide
      ? pairedItemsNeeded({ both: counts.both, onlyA: counts.onlyB, onlyB: counts.onlyA, neither: counts.neither }, settings.margin, { method, confidenceLevel: settings.confidenceLevel })
      : passNeeded();
    const discordant = counts.onlyA + counts.onlyB;
    const how =
      discordant === 0
        ? `all agreeing, as these ${n} do (with no discordant item the bound is −z²/(N − 1 + z²), z = ${formatNumber(normalQuantile(settings.confidenceLevel))}, and the exact score test at the margin needs at least (1 − margin)^N ≤ ${formatNumber(1 - settings.confidenceLevel)})`
        : `with the same share discordant (${discordant} of ${n}) and the same split`;
    const text = needed === null ? `; no number of items at this discordance would decide it ${margin}` : `; ${needed} items ${how} ${decide} ${margin}`;
    return { ...result, reason: head + text, itemsNeeded: needed, clustersNeeded: null };
  }
  // A bound at the two-sided interval's end (bounded scores, R4) is estimate ∓ t(1 − α/2)·SE: its arm grows with that quantile.
  const z = normalQuantile(r.boundAtIntervalEnd === true ? 1 - (1 - settings.confidenceLevel) / ONE_SIDED_BOUNDED_T_LEVEL_FACTOR : settings.confidenceLevel);
  // Betting and studentized bounds are not estimate ∓ z·SE: scale their own arm (the bound's distance from the estimate) by 1/√n instead.
  const ownArm = failSide ? upperBound - estimate : estimate - lowerBound;
  const arm = r.methodUsed === 'betting' || r.methodUsed === 'studentized' ? ownArm : z * r.standardError;
  const growth = (arm / Math.abs(estimate - threshold)) ** 2;
  const unitsNeeded = Math.max(units + 1, Math.ceil(units * growth));
  if (lossTail !== null) {
    const clears = lowerBound > threshold ? 'would clear' : 'does not clear';
    const spread = failSide ? '' : unitsNeeded > lossTail.itemsNeeded ? ` (and about ${unitsNeeded} at this spread to clear the margin)` : '';
    return {
      ...result,
      reason: `inconclusive: no valid bound: the scores leave [0, 1] and their differences are skewed toward the candidate's losses (G1 = ${formatNumber(lossTail.skewness)}), so a one-sided bound on ${n} items rests on the lower tail a sample this small barely sees (the ${r.methodUsed} bound ${formatNumber(lowerBound)} ${clears} ${formatNumber(threshold)}); Cochran's rule (n > 25·G1²) wants ${lossTail.itemsNeeded} items${spread}, or declare the range the scores can take (--score-range LOW,HIGH) for the betting bound, valid at every n`,
      itemsNeeded: failSide ? lossTail.itemsNeeded : Math.max(lossTail.itemsNeeded, unitsNeeded),
      clustersNeeded: null,
    };
  }
  if (clusters !== null) {
    const itemsNeeded = Math.ceil((unitsNeeded * n) / units);
    return { ...result, reason: `${head}; about ${unitsNeeded} clusters (≈ ${itemsNeeded} items at ${formatNumber(n / units)} per cluster) at this spread (SE ${formatNumber(r.standardError)} on ${units} clusters) ${decide} ${margin}`, itemsNeeded, clustersNeeded: unitsNeeded };
  }
  return { ...result, reason: `${head}; about ${unitsNeeded} items at this spread (SE ${formatNumber(r.standardError)} on ${n} items) ${decide} ${margin}`, itemsNeeded: unitsNeeded, clustersNeeded: null };
}

/** The table `counts` scaled to N items, rounded to whole counts that sum to N. */
function scaledCounts(counts: PairedCounts, size: number): PairedCounts {
  // Largest remainder: floors, then the items left over to the cells with the largest fractions.
  const n = counts.both + counts.onlyA + counts.onlyB + counts.neither;
  const exact = [counts.both, counts.onlyA, counts.onlyB, counts.neither].map((x) => (x * size) / n);
  const whole = exact.map(Math.floor);
  let left = size - whole.reduce((t, x) => t + x, 0);
  const order = [0, 1, 2, 3].sort((i, j) => exact[j] - whole[j] - (exact[i] - whole[i]) || i - j);
  for (const k of order) {
    if (left <= 0) break;
    whole[k] += 1;
    left -= 1;
  }
  return { both: whole[0], onlyA: whole[1], onlyB: whole[2], neither: whole[3] };
}

/**
 * Discordant items (only-candidate-right plus only-baseline-right) from which, with at most half the items discordant (n − D ≥ D),
 * the 0/1 gate passes on Tango's one-sided bound alone, without the exact score test: the registered
 * exact enumeration bench/binary-gate-shortcut-2.txt (the exact study's gate grid, a held-out grid of n,
 * margins and α, and the worst discordance per cell) keeps the rule's false-pass rate ≤ 1.1·α there.
 * Formula: skip ⇔ b + c ≥ K ∧ n − b − c ≥ b + c, K = this constant.
 * Reference: Tango (1998), Stat. Med. 17:891; Hsueh, Liu & Chen (2001), Biometrics 57:478 (the exact test).
 * @example EXACT_SHORTCUT_DISCORDANT // => 50
 */
export const EXACT_SHORTCUT_DISCORDANT = 50;

/**
 * Whether the 0/1 gate may pass a table on Tango's bound alone (the exact test is not needed there):
 * 50 or more discordant items and at most half the items discordant (n − D ≥ D).
 * Formula: b + c ≥ K ∧ n − b − c ≥ b + c, K = EXACT_SHORTCUT_DISCORDANT.
 * Reference: bench/binary-gate-shortcut-2.txt (registered, exact enumeration).
 * @param counts the paired table.
 * @returns true when the exact test can be skipped.
 * @example exactTestSkipped({ both: 500, onlyA: 260, onlyB: 240, neither: 0 }) // => true
 */
export function exactTestSkipped(counts: PairedCounts): boolean {
  const d = counts.onlyA + counts.onlyB;
  const n = d + counts.both + counts.neither;
  return d >= EXACT_SHORTCUT_DISCORDANT && n - d >= d;
}

/**
 * Items that let a 0/1 check pass both parts of its rule: from `start` (the items Tango's bound
 * needs, pairedItemsNeeded), the smallest N whose scaled table (same proportions, rounded) also
 * passes the rest of the gate's rule — exactTestSkipped, or else the exact score test at the margin —
 * by doubling then bisection (at most 5,000 items). When `start` exceeds 2,000 items or its table is
 * one exactTestSkipped accepts, `start` is returned; the exact test runs only at the sizes whose scaled
 * table it does not accept (bench/binary-gate-shortcut-2.txt). Each such size asks exactScoreRejects
 * (p ≤ α without the full p-value; tests/gate/exact-speed.test.ts against the slow version in
 * tests/gate/reference/).
 * Formula: min N ≥ start (doubling, then bisection) with (b_N − c_N)/N > threshold and (exactTestSkipped(table_N) or p_exact(b_N, c_N; threshold) ≤ α).
 * Reference: Hsueh, Liu & Chen (2001), Biometrics 57:478–483, for the test.
 * @param counts the observed paired table (its proportions are kept).
 * @param threshold the null difference (−margin).
 * @param alpha the level α.
 * @param start the first size tried (Tango's items needed, or n + 1).
 * @returns the items needed, `start` when the search does not apply, or null beyond 5,000.
 * @example itemsNeededExact({ both: 30, onlyA: 0, onlyB: 0, neither: 22 }, -0.05, 0.05, 53) // => 59 (0.95^59 = 0.0485 ≤ 0.05)
 */
export function itemsNeededExact(counts: PairedCounts, threshold: number, alpha: number, start: number): number | null {
  if (start > 2000) return start;
  const first = scaledCounts(counts, start);
  if (exactTestSkipped(first)) return start;
  // Each size asks only whether the exact test rejects (exactScoreRejects: the same p ≤ α, stopped at the
  // first nuisance value whose size exceeds α), starting from the value that decided the previous size.
  let hint: number | null = null;
  const passes = (size: number): boolean => {
    const table = scaledCounts(counts, size);
    if (!((table.onlyA - table.onlyB) / size > threshold)) return false;
    if (exactTestSkipped(table)) return true;
    const decision = exactScoreRejects(table, threshold, alpha, hint);
    hint = decision.nuisance;
    return decision.rejects;
  };
  if (passes(start)) return start;
  let low = start;
  let high = 2 * start;
  while (!passes(high)) {
    low = high;
    high *= 2;
    if (high > 5000) return null;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (passes(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/**
 * The gate's skew refusal (auto, no clusters or strata): scores not all in [0, 1] whose differences
 * candidate − baseline are skewed toward losses (G1 < 0) beyond Cochran's rule (n < 25·G1²). A
 * one-sided lower bound rests on the lower tail, the part of such a sample least seen; the one-sided
 * error of a mean's bound grows with skewness/√n (Boos & Hughes-Oliver 2000, Am. Stat. 54:121), and
 * on rare large losses the auto bound passed a real drop 8–14% of the time at 10–100 items
 * (bench/gate-skew-rule.txt). Bounded scores get the betting bound instead; right-skewed ones keep
 * theirs, which is conservative. Returns null when the refusal does not apply.
 */
function lossSkew(summary: DifferenceSummary, differences: Float64Array): { skewness: number; itemsNeeded: number } | null {
  if (summary.bounded) return null;
  // G1 of the differences from the summary's sums (the auto rule's, already gathered): sampleSkewness's bits
  const central = centralSums(summary, differences);
  const skewness = skewnessFromSums(summary.n, summary.sum / summary.n, central.m2, central.m3);
  if (!(skewness < 0)) return null;
  const itemsNeeded = cochranMinimumItems(skewness);
  return summary.n < itemsNeeded ? { skewness, itemsNeeded } : null;
}

function checkSettings(options: NonInferiorityOptions) {
  const margin = options.margin;
  if (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0) throw new RangeError(`margin must be a finite number ≥ 0 (got ${String(margin)})`);
  const method = options.method ?? 'auto';
  if (!GATE_METHODS.includes(method)) throw new RangeError(`method must be one of ${GATE_METHODS.join(', ')} (got ${String(method)})`);
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (typeof confidenceLevel !== 'number' || !(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be a number in (0, 1) (got ${String(confidenceLevel)})`);
  const nResamples = options.nResamples ?? 9999;
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${String(nResamples)})`);
  const scoreRange = options.scoreRange ?? null;
  if (scoreRange !== null) {
    if (method !== 'auto') throw new RangeError(`scoreRange is used by method auto only (got method ${method})`);
    checkScoreRangeShape(scoreRange);
  }
  return { margin, method, confidenceLevel, nResamples, seed: seedText(options.seed), scoreRange };
}

/**
 * A non-inferiority check of a candidate against a baseline on paired items: the gate a CI
 * pipeline runs on every prompt change before merge (seeds/004: "run it on every prompt change
 * before merge"). It passes when the data rule out a drop larger than the margin.
 *
 * Test: H0: δ ≤ −margin against H1: δ > −margin, δ = mean(candidate − baseline). The one-sided
 * lower confidence bound L at `confidenceLevel` (a paired bootstrap with alternative `greater`,
 * i.e. the interval [L, +∞)) is computed, and the check passes iff L > −margin; this rejects H0 at
 * level α = 1 − confidenceLevel. One-sided, because only a drop fails a gate: an improvement of any
 * size passes. (The lower end of a two-sided 95% interval, the CONSORT convention, is the one-sided
 * 97.5% bound: pass confidenceLevel 0.975 for it.)
 *
 * With `perStratum`, each stratum is checked the same way on its own items and every check must
 * pass. Requiring all checks to pass is an intersection–union test (Berger 1982), so the chance of
 * passing a real regression stays at most α without any multiplicity adjustment; the price is that
 * a small stratum has a wide interval and fails unless its items clearly show no regression.
 *
 * With `auto` on 0/1 scores (Tango's score bound), a check also needs the exact unconditional score
 * test of a drop of the margin (exactScoreNonInferiority) at p ≤ α: Tango's asymptotic bound alone
 * passes a true drop up to 7% of the time where few items are discordant; the rule holds it at
 * ≤ 0.0497 in every cell of bench/binary-exact-study.txt and bench/binary-exact-gate-large.txt. The
 * exact test is skipped where exactTestSkipped accepts the table (≥ 50 discordant items, at most half
 * the items): there the bound alone passes a true drop ≤ 0.0504 of the time at α = 0.05
 * (bench/binary-gate-shortcut-2.txt, exact enumeration), and pValue and pValueTest are absent.
 *
 * Degenerate cases: fewer than two units (items, or clusters) fail with a reason; when every item
 * has the same difference the bound is that value (a point mass), with a warning.
 *
 * Reference: Wellek, "Testing Statistical Hypotheses of Equivalence and Noninferiority" (2010), ch. 2;
 * the bound is scipy `bootstrap((c, b), paired=True, alternative='greater')` / `ttest_rel(c, b,
 * alternative='greater').confidence_interval()`.
 * @param data paired per-item scores (and optional clusters and strata).
 * @param options margin (required), method, confidenceLevel, nResamples, seed, perStratum.
 * @param names the baseline and candidate names, echoed in the result.
 * @returns every check with its estimate, bound and reason; `passed` when all pass.
 * @throws {RangeError} for a negative margin, bad settings, arrays of different lengths, or
 *   perStratum without strata.
 * @example nonInferiorityFromScores({ candidate: [1, 1, 0, 1], baseline: [1, 0, 0, 1] }, { margin: 0.1, method: 't' }).passed // => false (n = 4 is too few)
 */
export function nonInferiorityFromScores(data: NonInferiorityData, options: NonInferiorityOptions, names: { baseline: string; candidate: string } = { baseline: 'baseline', candidate: 'candidate' }): NonInferiorityResult {
  const settings = checkSettings(options);
  const candidate = asScores(data.candidate);
  const baseline = asScores(data.baseline);
  if (candidate.length !== baseline.length) throw new RangeError(`candidate and baseline must have the same length (got ${candidate.length} and ${baseline.length})`);
  const n = candidate.length;
  // the finite check's walk also tells the blind-spot statement whether the scores lie in its range
  const [low, high] = settings.scoreRange ?? [0, 1];
  let bounded = true;
  for (let i = 0; i < n; i++) {
    const x = candidate[i];
    const y = baseline[i];
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`scores must be finite numbers (item ${i}: ${x}, ${y})`);
    if (!(x >= low && x <= high && y >= low && y <= high)) bounded = false;
  }
  const cluster = data.cluster ?? null;
  const stratum = data.stratum ?? null;
  if (cluster !== null && cluster.length !== n) throw new RangeError(`cluster must have one entry per item (got ${cluster.length} for ${n})`);
  if (stratum !== null && stratum.length !== n) throw new RangeError(`stratum must have one entry per item (got ${stratum.length} for ${n})`);
  const perStratum = options.perStratum ?? false;
  const stratified = data.stratified ?? false;
  if ((perStratum || stratified) && stratum === null) throw new RangeError(`${perStratum ? 'perStratum' : 'stratified'} needs a stratum per item`);

  // Work: the overall check plus one per stratum, weighted by items, for the progress callback.
  const progress = options.onProgress ?? null;
  const total = perStratum ? 2 * n : n;
  let done = 0;
  const part = (size: number) => (progress === null ? null : (f: number) => progress(Math.min(1, (done + f * size) / total)));

  const namesOf = { strata: data.strataNames, clusters: data.clusterNames };
  const overall = checkOne(candidate, baseline, cluster, stratified ? stratum : null, null, settings, part(n), namesOf);
  done += n;
  const strata: NonInferiorityCheck[] = [];
  if (perStratum && stratum !== null) {
    const order: number[] = [];
    for (let i = 0; i < n; i++) if (!order.includes(stratum[i])) order.push(stratum[i]);
    order.sort((x, y) => x - y);
    for (const h of order) {
      const idx: number[] = [];
      for (let i = 0; i < n; i++) if (stratum[i] === h) idx.push(i);
      const name = data.strataNames?.[h] ?? String(h);
      strata.push(
        checkOne(
          Float64Array.from(idx, (i) => candidate[i]),
          Float64Array.from(idx, (i) => baseline[i]),
          cluster === null ? null : Int32Array.from(idx, (i) => cluster[i]),
          null,
          name,
          settings,
          part(idx.length),
          namesOf,
        ),
      );
      done += idx.length;
    }
  }
  const failed = [...(overall.passed ? [] : ['overall']), ...strata.filter((c) => !c.passed).map((c) => c.stratum as string)];
  const checks = [overall, ...strata];
  const verdict = combineVerdicts(checks.map((c) => c.verdict));
  const inconclusive = checks.filter((c) => c.verdict === 'inconclusive').map((c) => c.stratum ?? 'overall');
  const blindSpot = verdict === 'pass' ? blindSpotOf(bounded, overall, settings) : null;
  const warnings = [
    ...overall.warnings,
    ...strata.flatMap((c) => c.warnings.map((w) => (w.includes(`"${c.stratum}"`) ? w : `${c.stratum}: ${w}`))),
    ...(blindSpot === null ? [] : [blindSpotWarning(blindSpot, settings.margin, settings.confidenceLevel)]),
  ];
  return {
    baseline: names.baseline,
    candidate: names.candidate,
    margin: settings.margin,
    threshold: -settings.margin,
    method: settings.method,
    ...(settings.method === 'auto' ? { methodUsed: overall.methodUsed, methodReason: overall.methodReason } : {}),
    confidenceLevel: settings.confidenceLevel,
    alternative: 'greater',
    nResamples: settings.method === 't' ? 0 : settings.nResamples,
    seed: settings.seed,
    clustered: cluster !== null,
    stratified,
    perStratum,
    n,
    dropped: 0,
    passed: verdict === 'pass',
    verdict,
    inconclusive,
    overall,
    strata,
    failed,
    blindSpot,
    warnings,
  };
}

/**
 * The scores as doubles: a Float64Array as it is (the gate only reads its scores, and allocating a copy
 * of 10⁴ doubles was a quarter of a continuous gate call: bench/peers/speed.mjs), anything else copied.
 */
function asScores(x: ArrayLike<number>): Float64Array {
  return x instanceof Float64Array ? x : Float64Array.from(x);
}

/** The blind spot of a passing gate on a bounded scale (null on an unbounded one). */
function blindSpotOf(bounded: boolean, overall: NonInferiorityCheck, settings: { margin: number; confidenceLevel: number; scoreRange: readonly [number, number] | null }): GateBlindSpot | null {
  const range = settings.scoreRange ?? [0, 1];
  // bounded: every score in range (the finite check's walk found it); 0/1 scores always are
  if (!bounded) return null;
  const clustered = overall.nClusters !== null;
  return gateBlindSpot(clustered ? (overall.nClusters as number) : overall.n, range[1] - range[0], settings.margin, settings.confidenceLevel, clustered ? 'cluster' : 'item');
}

function blindSpotWarning(spot: GateBlindSpot, margin: number, confidenceLevel: number): string {
  const units = spot.unit === 'item' ? 'items' : 'clusters';
  const alpha = formatNumber(1 - confidenceLevel);
  const share = `${formatNumber(100 * spot.share)}%`;
  const fix = spot.unitsToRuleOut === null ? 'no sample size rules it out at margin 0' : `${spot.unitsToRuleOut} ${units} would rule it out`;
  return `blind spot: ${spot.units} ${units} miss a regression confined to ${share} of ${units} at least ${alpha} of the time, and on a scale of width ${formatNumber(spot.width)} such a regression can lower the mean by up to ${formatNumber(spot.maxHiddenDrop)}, not less than the margin ${formatNumber(margin)}: this pass cannot see it; ${fix}`;
}

/** Options of the table form: the two models, and how to resample. */
export interface NonInferiorityGateOptions extends NonInferiorityOptions {
  baseline: string;
  candidate: string;
  /** Resample the table's clusters (documents) instead of items. */
  cluster?: boolean;
  /** Resample within the table's strata for the overall check. */
  stratified?: boolean;
  /** Leave out items one model did not score instead of failing. */
  dropUnpaired?: boolean;
}

/**
 * The gate on a scores table: pairs the two models' items (repeats averaged) and runs
 * nonInferiorityFromScores on candidate − baseline.
 * @throws {InputError} when a model is missing, items are unpaired (without dropUnpaired), or
 *   cluster / perStratum / stratified is asked of a table without that column.
 */
export function nonInferiorityGate(table: ScoresTable, options: NonInferiorityGateOptions): NonInferiorityResult {
  if (options.baseline === options.candidate) throw new InputError('baseline and candidate must be different models', { file: table.source, value: options.baseline });
  if (options.cluster && !table.hasCluster) throw new InputError('has no cluster column to resample', { file: table.source });
  if ((options.perStratum || options.stratified) && !table.hasStratum) throw new InputError(`has no stratum column for ${options.perStratum ? 'per-stratum checks' : 'stratified resampling'}`, { file: table.source });
  const paired = pairScores(table, options.candidate, options.baseline, { dropUnpaired: options.dropUnpaired ?? false });
  if (options.cluster && options.stratified) checkClustersWithinStrata(paired);
  // A declared score range is checked against the file here, so a score outside it names its item.
  if (options.scoreRange != null && (options.method ?? 'auto') === 'auto') {
    checkScoreRangeShape(options.scoreRange);
    checkTableScoresInRange(table, [options.candidate, options.baseline], options.scoreRange);
  }
  const result = nonInferiorityFromScores(
    {
      candidate: paired.scoreA,
      baseline: paired.scoreB,
      cluster: options.cluster ? paired.cluster : null,
      stratum: paired.stratum,
      strataNames: paired.strata,
      clusterNames: paired.clusters,
      stratified: options.stratified ?? false,
    },
    options,
    { baseline: options.baseline, candidate: options.candidate },
  );
  result.dropped = paired.dropped;
  return result;
}
