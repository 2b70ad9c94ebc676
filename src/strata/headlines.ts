import { bootstrapMeanDifference, type IntervalMethod } from '../bootstrap/index.js';
import { chooseIntervalMethod, type AutoMethodUsed } from '../paired/index.js';

/** The interval methods of the headline differences: a stratified-bootstrap method by name, or `auto`. */
export type HeadlineDifferenceMethod = Exclude<IntervalMethod, 't'> | 'auto';
import type { Seed } from '../random/seed.js';
import { reweightedHeadline, type ReweightedHeadline, type StratumWeight } from './headline.js';
import type { HeadlineIntervalMethod, StratumIntervalMethod } from './proportion-interval.js';
import { stratumScores, type StratumScore } from './stratum-scores.js';
import { smallStrataInterval } from './small-strata-interval.js';
import { SMALL_STRATUM_ITEMS } from './small-strata-variance.js';

/** Several models' scores on the same items, with a stratum per item (an `AlignedScores` from src/data fits). */
export interface StratifiedModelScores {
  models: readonly string[];
  /** Per model (same order): one score per aligned item, repeats averaged. */
  scores: ReadonlyArray<ArrayLike<number>>;
  /** Per item: index into `strata`. */
  stratum: Int32Array | null;
  strata: readonly string[];
}

export interface StratifiedHeadlinesOptions {
  /** In (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** Interval of the differences: 'bca' (default), 'percentile', 'basic' (stratified bootstrap), or 'auto' (chooseIntervalMethod per pair). */
  method?: HeadlineDifferenceMethod;
  /** Resamples of the stratified bootstrap; default 9999. */
  nResamples?: number;
  /** Default 0. */
  seed?: Seed;
  /** Compute the paired differences between models (default true when there are two or more). */
  differences?: boolean;
  /** Per-stratum intervals: 'auto' (default: Wilson for 0/1 strata, else Wald), 'wilson', 'wald'. */
  stratumInterval?: StratumIntervalMethod;
  /** Headline intervals: 'auto' (default: Korn–Graubard beta for 0/1 scores, else Wald), 'beta', 'logit', 'wald'. */
  headlineInterval?: HeadlineIntervalMethod;
  /** Called with the fraction of the bootstrap work done (0 … 1), for a progress bar; never changes the result. */
  onProgress?: ((fraction: number) => void) | null;
}

/** One model: per-stratum scores first, then the headline and the plain mean. */
export interface ModelHeadline {
  model: string;
  strata: StratumScore[];
  headline: ReweightedHeadline;
  /** The plain mean over the (enriched) set: a ranking aid, never an accuracy. */
  rawMean: number;
}

/** A − B in reweighted headlines, on the items both scored. */
export interface HeadlineDifference {
  a: string;
  b: string;
  n: number;
  /** Σ W_h (ȳ_hA − ȳ_hB) = headline(A) − headline(B). */
  estimate: number;
  /** √(Σ W_h² s²_{d,h} / n_h), s²_{d,h} the variance of A − B in stratum h (satterthwaite-t: with small strata floored at the pooled variance, the SE its interval uses). */
  standardError: number;
  /** The stratified-bootstrap interval (per-stratum counts fixed, statistic Σ W_h d̄_h). */
  interval: [number, number];
  /** SD of the bootstrap distribution. */
  bootstrapStandardError: number;
  /** The interval lies entirely above or below 0. */
  excludesZero: boolean;
  /**
   * With method `auto`: the interval used and why. A weighted stratum of fewer than 10 items:
   * 'satterthwaite-t' (smallStrataInterval: small strata floored at the pooled within-stratum
   * variance, Satterthwaite's df); otherwise chooseIntervalMethod's (the stratified t interval, df
   * n − H, below 100 items; the stratified BCa bootstrap from 100).
   */
  methodUsed?: AutoMethodUsed | 'satterthwaite-t';
  methodReason?: string;
  /** Degrees of freedom of a t interval (satterthwaite-t); absent otherwise. */
  df?: number;
  /** Why the data cannot support an interval (the interval is then NaN); absent when they can. */
  noInterval?: string;
  warnings: string[];
}

export interface StratifiedHeadlinesResult {
  models: ModelHeadline[];
  differences: HeadlineDifference[];
  /** The strata in the order reported (the weights' order). */
  strata: string[];
  confidenceLevel: number;
  /** The per-stratum interval method asked for (each row has the one used). */
  stratumInterval: StratumIntervalMethod;
  /** The headline interval method asked for (each headline has the one used). */
  headlineInterval: HeadlineIntervalMethod;
  method: HeadlineDifferenceMethod;
  nResamples: number;
  seed: string;
  warnings: string[];
}

/**
 * Per-stratum scores, the traffic-reweighted headline and the plain mean for each model, and the
 * paired difference of reweighted headlines for every pair of models with a stratified-bootstrap
 * interval. The per-stratum rows are the primary output of an enriched selection set; the
 * headline puts traffic back in (estimate Σ W_h ȳ_h, SE √(Σ W_h² s_h² / n_h), see
 * {@link reweightedHeadline}); the plain mean is reported only as a ranking aid, since an
 * enriched set's mix is no population anyone sends.
 *
 * Differences: for models i < j (in the given order) on the same items, d = y_i − y_j per item;
 * estimate Σ W_h d̄_h, analytic SE √(Σ W_h² s²_{d,h} / n_h), and the interval from
 * `bootstrapMeanDifference(a, b, { strata, stratumWeights })` of src/bootstrap: each resample
 * draws n_h items with replacement within each stratum (R boot's `strata=`) and recomputes
 * Σ W_h d̄*_h. The resampling stream depends only on the seed and the pair's names. With method
 * `auto` and a weighted stratum of fewer than 10 items, the interval is
 * {@link smallStrataInterval} instead (a 5-item stratum at 30% traffic whose differences happen to
 * be equal otherwise adds nothing to the SE: t(n − H) covered 0.835 there); a warning on the
 * difference names each such stratum.
 *
 * @param data the models' aligned scores and each item's stratum.
 * @param weights traffic shares, one per stratum, summing to 1; their order is the report's order.
 * @param options confidence level, bootstrap settings.
 * @returns per model: strata, headline, rawMean; per pair: the difference; settings echoed; warnings.
 * @throws {TypeError} without a stratum per item; {StratumRangeError} for a stratum with items
 *   but no weight; {RangeError} for bad weights or settings.
 * Cost: O(models · n) plus O(pairs · nResamples · n) for the bootstrap.
 * @example stratifiedHeadlines({ models: ['m'], scores: [[1, 0, 1, 1]], stratum: Int32Array.from([0, 0, 1, 1]), strata: ['x', 'y'] },
 *   [{ stratum: 'x', weight: 0.8 }, { stratum: 'y', weight: 0.2 }]).models[0].headline.estimate // => 0.6 (0.8·0.5 + 0.2·1; rawMean 0.75)
 */
export function stratifiedHeadlines(data: StratifiedModelScores, weights: readonly StratumWeight[], options: StratifiedHeadlinesOptions = {}): StratifiedHeadlinesResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const method = options.method ?? 'bca';
  const nResamples = options.nResamples ?? 9999;
  const seed = options.seed ?? 0;
  const stratumInterval = options.stratumInterval ?? 'auto';
  const headlineInterval = options.headlineInterval ?? 'auto';
  if (data.stratum === null) throw new TypeError('the headline needs a stratum per item (the scores have no stratum column)');
  if (data.scores.length !== data.models.length) throw new TypeError(`stratifiedHeadlines: one score array per model (got ${data.scores.length} for ${data.models.length} models)`);
  const stratum = data.stratum;
  const order = weights.map((w) => w.stratum);
  const perModel: string[][] = [];
  const models = data.models.map((model, m): ModelHeadline => {
    const scores = stratumScores(data.scores[m], stratum, data.strata, { strata: order, confidenceLevel, intervalMethod: stratumInterval });
    // Strata with items but no weight: reweightedHeadline names the first (a clear error).
    const rows = [...scores.strata, ...scores.unlisted.map((u) => ({ stratum: u.stratum, n: u.n, mean: NaN, sd: NaN }))];
    const headline = reweightedHeadline(rows, weights, { confidenceLevel, intervalMethod: headlineInterval });
    perModel.push([...scores.warnings, ...headline.warnings]);
    const y = data.scores[m];
    let total = 0;
    for (let i = 0; i < y.length; i++) total += y[i];
    return { model, strata: scores.strata, headline, rawMean: y.length > 0 ? total / y.length : NaN };
  });

  // A warning every model shares (a stratum's item count) is said once; one that differs by
  // model (a zero-width interval) names the model.
  const warnings: string[] = [];
  for (const [m, list] of perModel.entries()) {
    for (const w of list) warnings.push(perModel.every((other) => other.includes(w)) ? w : `model "${data.models[m]}": ${w}`);
  }
  const differences: HeadlineDifference[] = [];
  const wantDifferences = options.differences ?? data.models.length > 1;
  if (wantDifferences) {
    // Compact stratum indices over the strata that have items, for the bootstrap.
    const weightOf = new Map(weights.map((w) => [w.stratum, w.weight]));
    const local = new Int32Array(data.strata.length).fill(-1);
    const localWeights: number[] = [];
    const localNames: string[] = [];
    for (let i = 0; i < stratum.length; i++) {
      const s = stratum[i];
      if (local[s] < 0) {
        local[s] = localWeights.length;
        localWeights.push(weightOf.get(data.strata[s]) ?? 0);
        localNames.push(data.strata[s]);
      }
    }
    const itemStratum = Int32Array.from(stratum, (s) => local[s]);
    const emptyWeighted = weights.filter((w) => w.weight > 0 && !data.strata.some((name, s) => name === w.stratum && local[s] >= 0));
    const pairs = (data.models.length * (data.models.length - 1)) / 2;
    let done = 0;
    for (let i = 0; i < data.models.length; i++) {
      for (let j = i + 1; j < data.models.length; j++) {
        const a = data.scores[i];
        const b = data.scores[j];
        const d = Float64Array.from({ length: a.length }, (_, k) => a[k] - b[k]);
        const perStratum = stratumScores(d, stratum, data.strata, { strata: order, confidenceLevel, intervalMethod: 'wald' });
        const analytic = reweightedHeadline(perStratum.strata, weights, { confidenceLevel, intervalMethod: 'wald' });
        const pairWarnings: string[] = [];
        let interval: [number, number] = [NaN, NaN];
        let bootstrapStandardError = NaN;
        const choice = method === 'auto' ? chooseIntervalMethod({ a, b, strata: itemStratum, stratumWeights: localWeights }) : null;
        const used = choice === null ? (method as Exclude<IntervalMethod, 't'>) : choice.methodUsed === 'bca' ? 'bca' : 't';
        // Weighted strata of fewer than SMALL_STRATUM_ITEMS items: their variances rest on a few
        // items (5 equal differences give s² = 0), which t(n − H) and the bootstrap both ignore.
        const smallCounts = new Map<number, number>();
        for (let k = 0; k < itemStratum.length; k++) smallCounts.set(itemStratum[k], (smallCounts.get(itemStratum[k]) ?? 0) + 1);
        const smallWeighted = [...smallCounts].filter(([h, c]) => c < SMALL_STRATUM_ITEMS && localWeights[h] > 0);
        let small: ReturnType<typeof smallStrataInterval> | null = null;
        if (emptyWeighted.length > 0) {
          pairWarnings.push(`no items in weighted stratum ${emptyWeighted.map((w) => `"${w.stratum}"`).join(', ')}: the difference of headlines is undefined`);
        } else if (choice !== null && smallWeighted.length > 0) {
          small = smallStrataInterval(d, itemStratum, localWeights, { confidenceLevel, strataNames: localNames });
          interval = small.confidenceInterval;
          pairWarnings.push(...small.warnings);
        } else {
          const boot = bootstrapMeanDifference(a, b, {
            strata: itemStratum,
            stratumWeights: localWeights,
            strataNames: localNames,
            method: used,
            confidenceLevel,
            nResamples,
            seed: `${String(seed)}:headline:${data.models[i]}:${data.models[j]}`,
            onProgress: options.onProgress ? (f: number) => options.onProgress!((done + f) / pairs) : null,
          });
          interval = boot.confidenceInterval;
          bootstrapStandardError = boot.standardError;
          pairWarnings.push(...boot.warnings);
          for (const [h, c] of smallWeighted) {
            pairWarnings.push(`stratum "${localNames[h]}" has only ${c} item${c === 1 ? '' : 's'} and carries ${Number((localWeights[h] * 100).toPrecision(3))}% of the weight: the ${used} interval treats its variance as known; --method auto reads it with Satterthwaite's df and a pooled-variance floor`);
          }
        }
        const methodUsed = small !== null ? ('satterthwaite-t' as const) : choice?.methodUsed;
        const methodReason =
          small !== null
            ? `a weighted stratum has fewer than ${SMALL_STRATUM_ITEMS} items, so the stratified t interval with strata under ${SMALL_STRATUM_ITEMS} items floored at the pooled within-stratum variance and Satterthwaite's df (${Number(small.df.toPrecision(3))})`
            : choice?.methodReason;
        differences.push({
          a: data.models[i],
          b: data.models[j],
          n: a.length,
          estimate: analytic.estimate,
          standardError: small === null ? analytic.standardError : small.standardError,
          interval,
          bootstrapStandardError,
          excludesZero: interval[0] > 0 || interval[1] < 0,
          ...(choice === null ? {} : { methodUsed, methodReason }),
          ...(small === null ? {} : { df: small.df, ...(small.noInterval === null ? {} : { noInterval: small.noInterval }) }),
          warnings: pairWarnings,
        });
        done += 1;
      }
    }
  }
  return { models, differences, strata: order, confidenceLevel, stratumInterval, headlineInterval, method, nResamples, seed: String(seed), warnings: dedupe(warnings) };
}

function dedupe(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}
