import { cochranMinimumItems, sampleSkewness, skewnessFromSums } from './skewness.js';
import { centralSums, type DifferenceSummary } from './difference-summary.js';
import type { Alternative } from '../bootstrap/types.js';
import { binaryPairedCounts, type PairedCounts } from './paired-proportion.js';

/**
 * The interval an `auto` comparison uses, chosen from the data's shape (never from its values'
 * position, so the choice cannot be tuned to the answer):
 * - `tango`: both models' scores are 0/1, items independent (no clusters, no stratum weights):
 *   Tango's (1998) score interval for the paired difference of proportions, with the p-value of the
 *   score test it inverts (McNemar's Z). Non-degenerate when A and B agree on every item (3 agreeing
 *   items: [−0.56, 0.56] at 95%). Chosen over Newcombe's method 10 by exact enumeration over the
 *   whole four-cell outcome space (bench/binary-exact-study.txt): Newcombe's interval shrinks when
 *   the agreeing items mix both right and both wrong (coverage 0.875, gate false pass 0.15 there).
 * - `newcombe`: Newcombe's (1998) method 10 (available by name in pairedProportionInterval, never chosen by auto).
 * - `cr2`: clustered (a cluster per item): the CR2 (Bell–McCaffrey) cluster-robust SE with
 *   Satterthwaite degrees of freedom (src/paired/cr2.ts), Miller's SE reported beside it;
 * - `cluster-t`: clustered, when CR2 is switched off (cr2Available: false): Miller's clustered SE
 *   with a t quantile on G − 1 degrees of freedom (G clusters);
 * - `t`: continuous two-sided comparisons on [0, 1] scores (no range declared) at every n, with
 *   skewAware (bench/real-data-study.txt: on real COMET and BLEU differences, resampled at 10–160
 *   items, it covers 0.933–0.969 in all 20 cells at 20,000 fresh samples each, bench/real-data-confirm.txt,
 *   where the skewness screen it replaces sent up to 62% of COMET samples to betting at up to 7× t's
 *   width); without skewAware
 *   (headline differences, sweep's cost gaps), or with strata, below AUTO_BCA_MIN_ITEMS items;
 *   one-sided bounds (gate) at every n unless one of the cases below applies;
 * - `bca`: continuous scores on at least AUTO_BCA_MIN_ITEMS items without skewAware, or with strata.
 * - `betting`: two-sided intervals on a declared scoreRange (every sample), bounded scores whose
 *   differences show no spread, and one-sided bounds on bounded
 *   scores too skewed by Cochran's rule (n < 25 G1²): the fixed-n betting interval
 *   (src/paired/betting-interval.ts), valid at every n.
 * - `studentized` (skewAware): two-sided comparisons on an unbounded scale at every n; stratified
 *   scores too skewed by the same rule; a one-sided bound on unbounded scores skewed toward its side
 *   (bench/gate-skew-rule.txt).
 * Bounded means every score in [0, 1], or in `scoreRange` when one is declared.
 */
export type AutoMethodUsed = 'tango' | 'newcombe' | 'cr2' | 'cluster-t' | 't' | 'bca' | 'studentized' | 'betting';

/** The method an `auto` comparison uses and why, in words (echoed as `methodUsed` / `methodReason`). */
export interface IntervalMethodChoice {
  methodUsed: AutoMethodUsed;
  methodReason: string;
  /** What the choice itself warns about (a sample too skewed for any interval studied); absent when none. */
  warnings?: string[];
  /**
   * True when a one-sided `t` bound is taken at the end of the two-sided interval of the same level
   * (t's one-sided 1 − α/2 quantile): bounded scores without strata (bench/comet-gate-rules.txt, R4);
   * absent otherwise.
   */
  boundAtIntervalEnd?: boolean;
}

/** What the auto rule looks at. Give `a` and `b` (paired per-item scores) or `differences` (a − b). */
export interface ChooseIntervalMethodData {
  /** Model A's per-item scores (0/1 detection needs the scores themselves, not only differences). */
  a?: ArrayLike<number> | null;
  /** Model B's, paired item by item with `a`. */
  b?: ArrayLike<number> | null;
  /**
   * a − b per item, when a and b are not given (then 0/1 data cannot be recognised: continuous). With
   * a and b, a Float64Array of exactly a − b (their checked differences, which the caller has) spares
   * computing them again; it must be that difference.
   */
  differences?: ArrayLike<number> | null;
  /**
   * With a and b: their paired table as binaryPairedCounts(a, b) gives it (null: not all 0/1), when the
   * caller has counted it, which spares walking the items again; it must be that table. Absent: counted here.
   */
  binaryCounts?: PairedCounts | null;
  /**
   * With a, b and differences: summarizeDifferences(a, b, differences, range) for the range the rule
   * checks (scoreRange, else [0, 1]), when the caller has it: the rule reads its sum, spread, range
   * check and central sums instead of walking the items again (the same bits). Internal.
   */
  summary?: DifferenceSummary | null;
  /** Per item its cluster index; clustered designs get a cluster-robust interval. */
  cluster?: ArrayLike<number> | null;
  /** Per item its stratum index (stratified resampling). */
  strata?: ArrayLike<number> | null;
  /** One weight per stratum: a reweighted statistic (not a plain paired proportion difference). */
  stratumWeights?: ArrayLike<number> | null;
  /** The interval's sides (default two-sided): one-sided continuous bounds keep t at every n (skewAware). */
  alternative?: Alternative;
  /** [low, high] the scores can take, declared (autoPairedInterval checks them): bounded scores on that scale; default [0, 1], by the data. */
  scoreRange?: readonly [number, number] | null;
}

/** Settings of chooseIntervalMethod. */
export interface ChooseIntervalMethodOptions {
  /** Whether a CR2 implementation is available for clustered data; default: whether it is linked in. */
  cr2Available?: boolean;
  /**
   * Apply the skewness screen and the one-sided rule (steps 3–4 of the rule), which need an
   * interval that can be `studentized` or `betting`: autoPairedInterval and the gate do; callers
   * that compute only t or BCa themselves (headline differences, sweep's cost gaps) leave it off.
   * Default false.
   */
  skewAware?: boolean;
}

/** Whether every value lies in [low, high]; by default [0, 1] (the range auto assumes bounded scores have, as `monitor` does). */
export function inScoreRange(x: ArrayLike<number>, [low, high]: readonly [number, number] = [0, 1]): boolean {
  for (let i = 0; i < x.length; i++) if (!(x[i] >= low && x[i] <= high)) return false;
  return true;
}

/** Continuous comparisons on at least this many items (or units) keep BCa; below it, t. */
export const AUTO_BCA_MIN_ITEMS = 100;

/** Whether CR2 (src/paired/cr2.ts) is linked into this build. */
export const CR2_AVAILABLE = true;

/** The first stratum (by index) failing the skewness screen, in words, or null when every stratum passes. */
function skewedStratum(d: Float64Array, strata: ArrayLike<number>): string | null {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < d.length; i++) {
    const list = groups.get(strata[i]);
    if (list === undefined) groups.set(strata[i], [d[i]]);
    else list.push(d[i]);
  }
  for (const h of [...groups.keys()].sort((p, q) => p - q)) {
    const values = groups.get(h) as number[];
    if (values.length < 3) return `stratum #${h} has ${values.length} item${values.length === 1 ? '' : 's'}`;
    const g1 = sampleSkewness(values);
    const need = cochranMinimumItems(g1);
    if (values.length < need) return `stratum #${h}: G1 = ${g1.toFixed(2)} wants ${need} items by Cochran's rule, it has ${values.length}`;
  }
  return null;
}

function spread(x: ArrayLike<number>): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < x.length; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  return hi - lo;
}

function distinctCount(x: ArrayLike<number>): number {
  return new Set(Array.from(x)).size;
}

/**
 * The `auto` rule: which interval a paired comparison uses, from the data's design and value type.
 * Rule (first match wins):
 *   1. clusters given → `cr2` (CR2 / Bell–McCaffrey, Satterthwaite df) when available, else
 *      `cluster-t` (Miller's clustered SE, t on G − 1 df);
 *   2. a and b both all 0/1, no stratum weights → `tango` (score interval + its score test);
 *      strata without weights (stratified resampling, stratum sizes fixed) do not change this: the
 *      score interval ignores the fixed sizes, which can only make it wider than a stratified one;
 *   3. (skewAware, no stratum weights; bounded means a and b all in [0, 1], or in a declared scoreRange):
 *      a. bounded scores, no strata, with no spread in the differences → `betting`; a two-sided
 *         interval on a declared scoreRange → `betting` on every sample (valid at every n, never by
 *         the sample's shape); a one-sided bound on bounded scores failing Cochran's rule
 *         n > 25·G1² (G1 the differences' sample skewness, cochranMinimumItems) → `betting` (the
 *         gate's protection);
 *      b. with strata: any stratum with fewer than 3 items, or with n_h < 25·G1_h² on its own
 *         differences → `studentized` (stratified; autoPairedInterval pools strata of fewer than
 *         3 items with a neighbour first, collapseSmallStrata, and resamples rescaled values,
 *         studentizedBootstrap's `rescale`), with a warning;
 *      c. two-sided, no strata: one rule per scale, never by the sample's shape
 *         (bench/real-data-study.txt, variant V2): bounded → `t` at every n; unbounded →
 *         `studentized` at every n; a warning (not a different method) when n < 25·G1²;
 *      d. otherwise n < 25·G1² → `studentized`, with a warning;
 *   4. (skewAware) a one-sided alternative → `t` at every n (BCa's one-sided bound is liberal at
 *      100 items: gate false-pass 0.063 against t's 0.056 in the coverage study), except unbounded
 *      scores without strata whose G1 lies on the bound's side (G1 < 0 for `greater`, > 0 for
 *      `less`) → `studentized`: a one-sided bound's error is first order in that skewness; on
 *      bounded scores without strata the t bound is the end of the two-sided interval
 *      (boundAtIntervalEnd: t's 1 − α/2 quantile; real COMET scores, bench/comet-gate-rules.txt R4);
 *   5. fewer than AUTO_BCA_MIN_ITEMS items → `t` (without skewAware, or with strata, or flat);
 *   6. otherwise `bca`.
 * Reference: the coverage studies in bench/ (paired-proportion-coverage.mjs, auto-continuous-coverage.mjs)
 * bench/binary-exact-study.txt
 * and issue #13; Tango (1998) Stat Med 17:891–908; Bell & McCaffrey (2002) Survey Methodology 28:169–181.
 * @param data a and b (or differences), optional cluster, strata and stratumWeights, one entry per item.
 * @param options cr2Available overrides whether CR2 is linked in; skewAware turns on steps 3–4.
 * @returns methodUsed and methodReason (one sentence naming the counts that decided it), and
 *   warnings when the data are too skewed for any interval studied.
 * @throws {RangeError} when a and b differ in length, or neither a/b nor differences is given.
 * @example chooseIntervalMethod({ a: [1, 1, 1], b: [1, 1, 1] }).methodUsed // => 'tango'
 */
export function chooseIntervalMethod(data: ChooseIntervalMethodData, options: ChooseIntervalMethodOptions = {}): IntervalMethodChoice {
  const a = data.a ?? null;
  const b = data.b ?? null;
  if ((a === null) !== (b === null)) throw new RangeError('chooseIntervalMethod needs both a and b, or differences');
  if (a !== null && b !== null && a.length !== b.length) throw new RangeError(`a and b must be paired item by item: same length (got ${a.length} and ${b.length})`);
  const n = a !== null ? a.length : data.differences != null ? data.differences.length : -1;
  if (n < 0) throw new RangeError('chooseIntervalMethod needs a and b, or differences');
  const cr2 = options.cr2Available ?? CR2_AVAILABLE;
  if (data.cluster != null) {
    const g = distinctCount(data.cluster);
    if (cr2) return { methodUsed: 'cr2', methodReason: `clustered (${g} clusters): CR2 cluster-robust SE with Satterthwaite degrees of freedom` };
    return { methodUsed: 'cluster-t', methodReason: `clustered (${g} clusters): clustered SE with a t quantile on G − 1 = ${g - 1} degrees of freedom (CR2 switched off)` };
  }
  const weighted = data.stratumWeights != null;
  // One pass checks both for 0/1 and counts the discordant items (binaryPairedCounts).
  const counts = a !== null && b !== null && !weighted ? (data.binaryCounts !== undefined ? data.binaryCounts : binaryPairedCounts(a, b)) : null;
  if (counts !== null) {
    const discordant = counts.onlyA + counts.onlyB;
    return { methodUsed: 'tango', methodReason: `0/1 scores on ${n} independent items (${discordant} discordant): Tango's score interval for a paired difference of proportions, p-value from its score test` };
  }
  const what = weighted ? 'a reweighted headline' : 'continuous scores';
  if (options.skewAware === true && !weighted) {
    // A plain loop: Float64Array.from with a map function walks an iterator, most of this
    // function's time at 10⁴ items (bench/peers/speed.mjs).
    let differences: Float64Array;
    if (a !== null && b !== null) {
      if (data.differences instanceof Float64Array && data.differences.length === n) differences = data.differences;
      else {
        differences = new Float64Array(n);
        for (let i = 0; i < n; i++) differences[i] = a[i] - b[i];
      }
    } else differences = Float64Array.from(data.differences ?? []);
    const declared = data.scoreRange != null;
    const range = data.scoreRange ?? ([0, 1] as const);
    // The caller's one-walk summary of these differences on this range, when it has one (the same numbers).
    const summary = data.summary ?? null;
    const known = summary !== null && a !== null && b !== null && summary.n === n && differences === data.differences && summary.range[0] === range[0] && summary.range[1] === range[1] ? summary : null;
    const central = known === null ? null : centralSums(known, differences);
    const skewness = known === null || central === null ? sampleSkewness(differences) : skewnessFromSums(n, known.sum / n, central.m2, central.m3);
    const need = cochranMinimumItems(skewness);
    const bounded = known !== null ? known.bounded : a !== null && b !== null && inScoreRange(a, range) && inScoreRange(b, range);
    const scale = `[${range[0]}, ${range[1]}]`;
    const flat = !((known === null ? spread(differences) : known.max - known.min) > 0);
    const g1 = Number.isNaN(skewness) ? 'undefined' : skewness.toFixed(2);
    const skewed = !flat && n < need;
    const skewText = `G1 = ${g1}; Cochran's rule n > 25·G1² asks for ${need} items, these are ${n}`;
    const alternative = data.alternative ?? 'two-sided';
    const oneSided = alternative !== 'two-sided';
    // Bounded scores with no spread (an honest width, not a point), or a one-sided bound on bounded
    // scores too skewed for it (the gate's protection; bench/real-data-study.txt keeps it).
    // A declared range, two-sided: the bounded scale's interval on every sample, whatever it looks
    // like (the first registration of bench/real-data-study.txt keeps betting reachable this way).
    if (bounded && data.strata == null && (flat || (oneSided && skewed) || (declared && !oneSided))) {
      const why = flat ? `no spread in the differences (${n} items)` : oneSided ? `one-sided bound, differences skewed (${skewText})` : 'declared range, two-sided';
      return { methodUsed: 'betting', methodReason: `scores in ${scale}${declared ? ' (declared)' : ''}, ${why}: the betting interval for a bounded mean (Waudby-Smith & Ramdas), valid at every n` };
    }
    // Stratified: the stratified mean is as skewed as its smallest strata, so the screen runs on
    // each stratum too (a stratum of fewer than 3 items has no skewness to check: it counts as failing).
    const strataFail = data.strata != null && !flat ? skewedStratum(differences, data.strata) : null;
    if (strataFail !== null) {
      return {
        methodUsed: 'studentized',
        methodReason: `${what} in strata, ${strataFail}: stratified studentized bootstrap`,
        warnings: [`a stratum is too small or too skewed for a mean's normal approximation (${strataFail}): no interval studied holds 95% on such a design at every n (the coverage study: 0.929 ± 0.004 on 4000 replicates at 30 items with strata of 2, after pooling them with a neighbour), so read this one as approximate`],
      };
    }
    const skewWarning = skewed
      ? [
          `the differences are skewed for a mean's interval on ${n} items (${skewText}): no interval of a mean holds 95% on every such population at this n (bench/real-data-study.txt), so read this one as approximate`,
        ]
      : [];
    if (!oneSided && data.strata == null && !flat) {
      // Two-sided, one rule per scale, never by the sample's shape (bench/real-data-study.txt, V2):
      // [0, 1] scores → t at every n; unbounded ones → the studentized bootstrap at every n.
      if (bounded) return { methodUsed: 't', methodReason: `${what} in ${scale} on ${n} items: Student t interval (on a bounded scale at every n; real-data study)`, ...(skewWarning.length > 0 ? { warnings: skewWarning } : {}) };
      return { methodUsed: 'studentized', methodReason: `${what} on ${n} items, not bounded to ${scale}: studentized bootstrap (on an unbounded scale at every n; real-data study)`, ...(skewWarning.length > 0 ? { warnings: skewWarning } : {}) };
    }
    if (skewed) {
      return { methodUsed: 'studentized', methodReason: `${what} skewed (${skewText})${bounded ? ', stratified' : `, not bounded to ${scale}`}: studentized bootstrap`, warnings: skewWarning };
    }
    if (oneSided) {
      // A one-sided bound's error is first order in the skewness on its own side (Boos & Hughes-Oliver
      // 2000), which Cochran's two-sided rule does not see: unbounded scores skewed toward the bound
      // get the studentized bootstrap, which corrects that term (Hall 1988; bench/gate-skew-rule.txt).
      const adverse = alternative === 'greater' ? skewness < 0 : skewness > 0;
      if (!bounded && data.strata == null && !flat && adverse) {
        return { methodUsed: 'studentized', methodReason: `${what} on ${n} items, one-sided bound, unbounded scores skewed toward the bound's side (G1 = ${g1}): studentized bootstrap, which corrects the skewness term of a one-sided bound that t keeps` };
      }
      // Bounded scores: a one-sided t bound at 95% passes a real drop equal to the margin up to 7.8% of
      // the time on real COMET scores (rare large losses the sample barely sees); at the end of the
      // two-sided interval (t at 97.5%) it holds ≤ 4.9% there (bench/comet-gate-rules.txt, R4, adopted).
      if (bounded && data.strata == null) {
        return { methodUsed: 't', methodReason: `${what} in ${scale} on ${n} items, one-sided bound: Student t at the end of the two-sided interval (its one-sided 1 − α/2 quantile), which holds the one-sided level on real scores with rare large losses where t's one-sided quantile does not (bench/comet-gate-rules.txt)`, boundAtIntervalEnd: true };
      }
      return { methodUsed: 't', methodReason: `${what} on ${n} items, one-sided bound: Student t, whose one-sided level holds where BCa's is liberal (gate coverage study)` };
    }
  }
  if (n < AUTO_BCA_MIN_ITEMS) return { methodUsed: 't', methodReason: `${what} on ${n} items (< ${AUTO_BCA_MIN_ITEMS}): Student t interval, which covers better than BCa at small n` };
  return { methodUsed: 'bca', methodReason: `${what} on ${n} items (≥ ${AUTO_BCA_MIN_ITEMS}): BCa bootstrap` };
}
