import type { AlignedScores } from '../data/pairing.js';
import { autoIntervalChoice, autoIntervalOnDifferences, autoResultFromBootstrap, type AutoChoice, type AutoIntervalResult } from './auto-interval.js';
import type { AutoMethodUsed } from './choose-method.js';
import { buildDesign, designEstimate, isPlainDesign, thinGroups, type ResampleDesign } from '../bootstrap/design.js';
import { holmAdjust } from './holm.js';
import { tIntervalFromStandardError } from './t-interval.js';
import { designTInterval, meanBootstrapOnDesign, meanResult, plainMean, plainTInterval, plainTResult } from '../bootstrap/mean.js';
import { checkThreads, resamplingWork, runParallel, signFlipWork, threadsThatPay } from '../bootstrap/parallel.js';
import { BOOTSTRAP_DEFAULTS, resolveSettings } from '../bootstrap/settings.js';
import { signFlipTest } from '../bootstrap/sign-flip.js';
import type { Alternative, BootstrapOptions, BootstrapResult, CompareMethod, CompareModelsOptions, ParallelCompareModelsOptions, SignFlipResult, TIntervalResult } from '../bootstrap/types.js';

/** One pair of models compared: A − B on the items both scored. */
export interface PairComparison {
  a: string;
  b: string;
  n: number;
  /** Mean of A − B. */
  estimate: number;
  confidenceInterval: [number, number];
  standardError: number;
  /** The interval lies entirely above or entirely below 0. */
  excludesZero: boolean;
  /** Unadjusted sign-flip permutation p-value (t-test p-value for method `'t'`). */
  pValue: number;
  /** Holm-adjusted p-value over all pairs. */
  adjustedPValue: number;
  /** adjustedPValue < 1 − confidenceLevel. */
  distinguishable: boolean;
  /**
   * The full bootstrap result (settings, SEs, design effect). With method `auto` and an analytic
   * interval (tango, cr2, t), the design's t result, kept for its naive / clustered SEs and design effect.
   */
  bootstrap: BootstrapResult;
  /** The test behind `pValue`. */
  test: SignFlipResult | TIntervalResult;
  /** With method `auto`: the interval used and why, and its full result. */
  methodUsed?: AutoMethodUsed;
  methodReason?: string;
  auto?: AutoIntervalResult;
  warnings: string[];
}

/** Every pair of several models, Holm-adjusted. */
export interface CompareModelsResult {
  models: string[];
  /** Pairs (i, j) with i < j in the order of `models`; estimate = mean(models[i]) − mean(models[j]). */
  pairs: PairComparison[];
  /** Mean score of each model on the aligned items. */
  means: number[];
  method: CompareMethod;
  confidenceLevel: number;
  nResamples: number;
  nPermutations: number;
  seed: string;
  alternative: Alternative;
  /** `'holm'`. */
  adjustment: 'holm';
  n: number;
  warnings: string[];
}

/**
 * Compares every pair of several models on the items all of them scored: for each pair (i, j),
 * i < j in `aligned.models` order, the paired bootstrap interval of mean(models[i] − models[j])
 * (bootstrapMeanDifference with the same options, hence the same streams for every pair)
 * and a p-value from the paired sign-flip permutation test (the t-test for method 't'), then
 * Holm-adjusted over all pairs. A pair is `distinguishable` when its adjusted p-value is below
 * 1 − confidenceLevel, which controls the chance of calling any tie a difference at that level.
 * Pass `cluster: aligned.cluster` to resample documents, `strata: aligned.stratum` to resample within strata;
 * warnings then name strata and clusters by `aligned.strata` / `aligned.clusters` (unless
 * `strataNames` / `clusterNames` are given).
 * Reference: the "several models" step of "Building a private benchmark"; Holm as R `p.adjust(method = "holm")`.
 * @param aligned scores from `alignModels(table, models)`; at least two models.
 * @returns models, pairs (a, b, n, estimate, confidenceInterval, standardError, excludesZero, pValue,
 *   adjustedPValue, distinguishable, bootstrap, test, warnings), means, settings echoed, warnings.
 * @throws {RangeError} for fewer than two models, or as bootstrapMean / signFlipTest.
 * @example compareModels(alignModels(table, ['alpha', 'beta', 'gamma']), { cluster: aligned.cluster }).pairs.length // => 3
 * `onProgress` reports the fraction done over all pairs. The sign-flip test uses `nPermutations`
 * (default 9999) random sign vectors from the stream `${seed}:sign-flip` (exact for ≤ 16 units).
 * Cost: one bootstrap and one sign-flip test per pair: O(k² · n · B).
 */
export function compareModels(aligned: AlignedScores, options: CompareModelsOptions = {}): CompareModelsResult {
  return compareOnThisThread(aligned, planCompare(aligned, options));
}

/**
 * What every pair needs whoever computes it, made once: the options with the table's names, the
 * pairs, each pair's differences and design, and under method `auto` each pair's choice of interval
 * (autoIntervalChoice). compareModels and compareModelsParallel both start here, so a job the rule
 * keeps on one thread runs exactly the one-thread code on exactly the same arguments.
 */
interface ComparePlan {
  named: CompareModelsOptions;
  pairs: Array<[number, number]>;
  work: PairWork[];
  choices: AutoChoice[] | null;
  /** planWork's weighing, made here for both entry points so each builds the same designs in the same order. */
  weighed: { resamples: boolean[]; tested: boolean[]; total: number };
}

function planCompare(aligned: AlignedScores, options: CompareModelsOptions): ComparePlan {
  const named = withNames(aligned, options);
  const pairs = pairsOf(aligned);
  const work = pairWork(aligned, named, pairs);
  const choices = named.method === 'auto' ? pairs.map(([i, j], p) => autoIntervalChoice(aligned.scores[i], aligned.scores[j], autoOptions(named), work[p].differences)) : null;
  const plan = { named, pairs, work, choices };
  return { ...plan, weighed: planWork(plan) };
}

/** compareModels on a plan (planCompare): every pair on this thread. */
function compareOnThisThread(aligned: AlignedScores, plan: ComparePlan): CompareModelsResult {
  const { named, pairs, work, choices } = plan;
  if (choices !== null) {
    const autos = pairs.map(([i, j], p) => autoIntervalOnDifferences(aligned.scores[i], aligned.scores[j], work[p].differences, autoOptions(pairOptions(named, p, pairs.length)), choices[p]));
    return assembleAuto(aligned, named, work, autos);
  }
  return assemble(aligned, named, work, work.map((w, p) => pairBootstrap(w, bootstrapOptions(pairOptions(named, p, pairs.length)))));
}

/**
 * Per pair of a plan: whether it resamples (a BCa bootstrap the queue can split), whether it runs the
 * sign-flip test, and the job's work in index draws (resamplingWork plus signFlipWork) that
 * threadsThatPay weighs. Method t resamples nothing; under `auto` only pairs given BCa resample and
 * only permutation-tested ones (BCa, studentized, betting) run the test.
 */
function planWork(plan: Omit<ComparePlan, 'weighed'>): { resamples: boolean[]; tested: boolean[]; total: number } {
  const { named, work, choices } = plan;
  const method = choices !== null ? 'auto' : (named.method ?? BOOTSTRAP_DEFAULTS.method);
  const nResamples = named.nResamples ?? BOOTSTRAP_DEFAULTS.nResamples;
  const nPermutations = named.nPermutations ?? 9999;
  const resamples = work.map((w, p) => (choices !== null ? choices[p].choice.methodUsed === 'bca' : method !== 't') && thinGroups(w.design).length === 0);
  const tested = work.map((_, p) => (choices !== null ? permutationTested(choices[p].choice.methodUsed) : method !== 't'));
  let total = 0;
  work.forEach((w, p) => {
    if (resamples[p]) total += resamplingWork(w.design, nResamples);
    if (tested[p]) total += signFlipWork(w.design.nUnits, nPermutations);
  });
  return { resamples, tested, total };
}

/** The options as BootstrapOptions for a named (non-auto) method. */
function bootstrapOptions(options: CompareModelsOptions): BootstrapOptions {
  return options as BootstrapOptions;
}

/** compareModels' options as autoPairedInterval's. */
function autoOptions(options: CompareModelsOptions) {
  return {
    confidenceLevel: options.confidenceLevel,
    alternative: options.alternative,
    nResamples: options.nResamples,
    seed: options.seed,
    cluster: options.cluster ?? null,
    strata: options.strata ?? null,
    strataNames: options.strataNames ?? null,
    clusterNames: options.clusterNames ?? null,
    onProgress: options.onProgress ?? null,
    midP: options.midP ?? false,
    scoreRange: options.scoreRange ?? null,
  };
}

/** The options of pair p of `count`: onProgress reports progress over all pairs. */
function pairOptions<T extends CompareModelsOptions>(options: T, p: number, count: number): T {
  const report = options.onProgress;
  if (report == null) return options;
  return { ...options, onProgress: (fraction: number) => report((p + fraction) / count) };
}

/**
 * `compareModels` on `threads` threads (this one and threads − 1 pool workers): every pair's
 * bootstrap chunks and sign-flip tests go into one shared work queue (work-queue.ts) that all
 * threads take items from, so the pairs, the tests and the chunks of one large pair are all split,
 * and the main thread works too. The same bytes for any `threads`: a chunk or a test depends only
 * on its own stream. With fewer threads than pay for the work (threadsThatPay: below PARALLEL_MIN_WORK of
 * work in all, or more threads than cores) it uses fewer. The decision is made on compareModels' own
 * first step (the pairs' differences, designs and auto choices, computed once and kept): when it is one
 * thread, the rest is compareModels' code on the same arguments, with no pool, worker or queue built,
 * so `threads > 1` costs only the sum that weighs the work (tests/bootstrap/threads-path.test.ts).
 * @example await compareModelsParallel(aligned, { threads: 2 }) // same as compareModels(aligned)
 */
export async function compareModelsParallel(aligned: AlignedScores, options: ParallelCompareModelsOptions = {}): Promise<CompareModelsResult> {
  const { threads: asked, minParallelWork, ...compareOptions } = options;
  const threads = checkThreads(asked);
  // The plan is what compareModels makes first (without the thread settings, so the one-thread path
  // sees exactly compareModels' arguments); the decision comes before anything thread-related exists.
  const plan = planCompare(aligned, compareOptions);
  const { resamples, tested, total } = plan.weighed;
  const use = threadsThatPay(threads, total, minParallelWork);
  if (use === 1) return compareOnThisThread(aligned, plan);
  const { named, pairs, work, choices } = plan;
  const auto = choices !== null;
  const settings = resolveSettings(auto ? { ...bootstrapOptions(named), method: 'bca' } : bootstrapOptions(named));
  const nPermutations = named.nPermutations ?? 9999;
  const designOptions: BootstrapOptions = { cluster: named.cluster, strata: named.strata, stratumWeights: named.stratumWeights, strataNames: named.strataNames, clusterNames: named.clusterNames };
  const flipOptions = { ...designOptions, nPermutations, seed: settings.seed, alternative: settings.alternative };
  const bootIndex = work.map((_, p) => (resamples[p] ? resamples.slice(0, p).filter(Boolean).length : -1));
  const flipIndex = work.map((_, p) => (tested[p] ? tested.slice(0, p).filter(Boolean).length : -1));
  const run = await runParallel(
    work.filter((_, p) => resamples[p]).map((w) => ({ design: w.design, seed: settings.seed, nResamples: settings.nResamples })),
    work.filter((_, p) => tested[p]).map((w) => ({ differences: w.differences, options: flipOptions })),
    use,
    named.onProgress ?? null,
  );
  const flipOf = (p: number) => run.flips[flipIndex[p]];
  if (auto) {
    const autos = pairs.map(([i, j], p) => {
      if (choices[p].choice.methodUsed !== 'bca') return autoIntervalOnDifferences(aligned.scores[i], aligned.scores[j], work[p].differences, autoOptions({ ...named, onProgress: null }), choices[p]);
      const w = work[p];
      const bootstrap = resamples[p] ? meanResult(w.design, w.differences, settings, run.distributions[bootIndex[p]]) : meanBootstrapOnDesign(w.design, w.differences, { ...bootstrapOptions(named), method: 'bca', onProgress: null });
      return autoResultFromBootstrap(choices[p].choice, bootstrap);
    });
    return assembleAuto(aligned, named, work, autos, work.map((_, p) => (tested[p] ? flipOf(p) : null)));
  }
  const results = work.map((w, p) => (resamples[p] ? meanResult(w.design, w.differences, settings, run.distributions[bootIndex[p]]) : pairBootstrap(w, { ...bootstrapOptions(named), onProgress: null })));
  return assemble(aligned, named, work, results, work.map((_, p) => (tested[p] ? flipOf(p) : null)));
}

/** The options with strataNames / clusterNames defaulted to the aligned table's names when its labels are the ones passed. */
function withNames<T extends CompareModelsOptions>(aligned: AlignedScores, options: T): T {
  const strataNames = options.strataNames ?? (options.strata != null && options.strata === aligned.stratum ? aligned.strata : null);
  const clusterNames = options.clusterNames ?? (options.cluster != null && options.cluster === aligned.cluster ? aligned.clusters : null);
  return { ...options, strataNames, clusterNames };
}

function pairsOf(aligned: AlignedScores): Array<[number, number]> {
  const k = aligned.models.length;
  if (k < 2) throw new RangeError(`comparing models needs at least two (got ${k}: ${aligned.models.join(', ')})`);
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  return pairs;
}

/**
 * One pair's differences and resampling design, computed once and shared by its bootstrap and its
 * test. On the plain design (no clusters, strata or weights: `plain`) the design is built only when
 * something resamples: the analytic results come from the differences (plainTResult, plainTInterval).
 */
interface PairWork {
  differences: Float64Array;
  readonly design: ResampleDesign;
  plain: boolean;
}

function pairWork(aligned: AlignedScores, options: CompareModelsOptions, pairs: Array<[number, number]>): PairWork[] {
  return pairs.map(([i, j]) => {
    const d = differences(aligned, i, j);
    const plain = isPlainDesign(d.length, bootstrapOptions(options));
    // Other designs are built at once, so bad labels are reported before any interval is computed.
    let built: ResampleDesign | null = plain ? null : buildDesign(d.length, bootstrapOptions(options), d);
    return {
      differences: d,
      plain,
      get design(): ResampleDesign {
        built ??= buildDesign(d.length, bootstrapOptions(options), d);
        return built;
      },
    };
  });
}

/** meanBootstrapOnDesign of the pair; method 't' on the plain design by plainTResult (the same result, no design built). */
function pairBootstrap(w: PairWork, options: BootstrapOptions): BootstrapResult {
  if (w.plain) {
    const settings = resolveSettings(options);
    if (settings.method === 't') return plainTResult(w.differences, settings);
  }
  return meanBootstrapOnDesign(w.design, w.differences, options);
}

/** The pair's t interval and test (designTInterval, or plainTInterval on the plain design). */
function pairTInterval(w: PairWork, settings: { confidenceLevel: number; alternative: Alternative }): TIntervalResult {
  return w.plain ? plainTInterval(w.differences, settings) : designTInterval(w.design, w.differences, settings);
}

/** Each model's mean score on the aligned items (designEstimate of its design: the weighted mean with stratumWeights). */
function modelMeans(aligned: AlignedScores, designOptions: BootstrapOptions): number[] {
  return aligned.scores.map((scores) => (isPlainDesign(scores.length, designOptions) ? plainMean(scores) : designEstimate(buildDesign(scores.length, designOptions, Float64Array.from(scores)))));
}

/**
 * models[i] − models[j] per item (pairedDifferences' numbers), naming the models and the item when a
 * score is not finite: one pass that checks and subtracts (this check is the one pairedDifferences makes).
 */
function differences(aligned: AlignedScores, i: number, j: number): Float64Array {
  const a = aligned.scores[i];
  const b = aligned.scores[j];
  const d = new Float64Array(a.length);
  for (let t = 0; t < a.length; t++) {
    const x = a[t];
    const y = b[t];
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`scores of ${aligned.models[i]} and ${aligned.models[j]} at item ${aligned.items[t]} must be finite (got ${x} and ${y})`);
    d[t] = x - y;
  }
  if (a.length !== b.length) throw new RangeError(`a and b must be paired item by item: same length (got ${a.length} and ${b.length})`);
  return d;
}

function assemble(aligned: AlignedScores, options: CompareModelsOptions, work: PairWork[], bootstraps: BootstrapResult[], flips: Array<SignFlipResult | null> | null = null): CompareModelsResult {
  const settings = resolveSettings(bootstrapOptions(options));
  const nPermutations = options.nPermutations ?? 9999;
  const designOptions: BootstrapOptions = { cluster: options.cluster, strata: options.strata, stratumWeights: options.stratumWeights, strataNames: options.strataNames, clusterNames: options.clusterNames };
  const pairs = pairsOf(aligned);
  const tests: Array<SignFlipResult | TIntervalResult> = work.map((w, p) => {
    if (settings.method === 't') return pairTInterval(w, settings);
    return flips?.[p] ?? signFlipTest(w.differences, { ...designOptions, nPermutations, seed: settings.seed, alternative: settings.alternative });
  });
  const adjusted = holmAdjust(tests.map((t) => t.pValue));
  const alpha = 1 - settings.confidenceLevel;
  const comparisons: PairComparison[] = pairs.map(([i, j], p) => {
    const bootstrap = bootstraps[p];
    const [low, high] = bootstrap.confidenceInterval;
    const warnings = [...new Set([...bootstrap.warnings, ...tests[p].warnings])];
    return {
      a: aligned.models[i],
      b: aligned.models[j],
      n: bootstrap.n,
      estimate: bootstrap.estimate,
      confidenceInterval: bootstrap.confidenceInterval,
      standardError: bootstrap.standardError,
      excludesZero: low > 0 || high < 0,
      pValue: tests[p].pValue,
      adjustedPValue: adjusted[p],
      distinguishable: adjusted[p] < alpha,
      bootstrap,
      test: tests[p],
      warnings,
    };
  });
  const means = modelMeans(aligned, designOptions);
  const warnings = [...new Set(comparisons.flatMap((c) => c.warnings.map((w) => `${c.a} − ${c.b}: ${w}`)))];
  return {
    models: [...aligned.models],
    pairs: comparisons,
    means,
    method: settings.method,
    confidenceLevel: settings.confidenceLevel,
    nResamples: settings.method === 't' ? 0 : settings.nResamples,
    nPermutations: settings.method === 't' ? 0 : nPermutations,
    seed: settings.seed,
    alternative: settings.alternative,
    adjustment: 'holm',
    n: aligned.items.length,
    warnings,
  };
}

/**
 * compareModels under method `auto`: each pair's interval and p-value from its AutoIntervalResult
 * (Tango's score test for 0/1 pairs, the t or CR2 test, the sign-flip test for BCa), Holm over the pairs;
 * `bootstrap` keeps the BCa result, or for analytic intervals the design's t result (its SEs and design effect).
 */
function assembleAuto(aligned: AlignedScores, options: CompareModelsOptions, work: PairWork[], autos: AutoIntervalResult[], flips: Array<SignFlipResult | null> | null = null): CompareModelsResult {
  const settings = resolveSettings({ ...bootstrapOptions(options), method: 'bca' });
  const nPermutations = options.nPermutations ?? 9999;
  const designOptions: BootstrapOptions = { cluster: options.cluster, strata: options.strata, stratumWeights: options.stratumWeights, strataNames: options.strataNames, clusterNames: options.clusterNames };
  const pairs = pairsOf(aligned);
  const tSettings = { method: 't' as const, confidenceLevel: settings.confidenceLevel, alternative: settings.alternative };
  const bootstraps = autos.map((auto, p) => auto.bootstrap ?? (work[p].plain ? plainTResult(work[p].differences, resolveSettings(tSettings)) : meanBootstrapOnDesign(work[p].design, work[p].differences, { ...designOptions, ...tSettings })));
  const tests: Array<SignFlipResult | TIntervalResult> = autos.map((auto, p) => {
    if (permutationTested(auto.methodUsed)) return flips?.[p] ?? signFlipTest(work[p].differences, { ...designOptions, nPermutations, seed: settings.seed, alternative: settings.alternative });
    // On the plain design the pair's t result (the auto interval's own, or the one just computed) holds
    // the mean and SE plainTInterval would compute again: the same t test from them, bit for bit.
    const b = bootstraps[p];
    if (work[p].plain && b.method === 't' && b.confidenceLevel === settings.confidenceLevel && b.alternative === settings.alternative) return tIntervalFromStandardError(b.estimate, b.naiveStandardError, b.n - 1, b.n, settings.confidenceLevel, settings.alternative);
    return pairTInterval(work[p], settings);
  });
  const pValues = autos.map((auto, p) => auto.pValue ?? tests[p].pValue);
  const adjusted = holmAdjust(pValues);
  const alpha = 1 - settings.confidenceLevel;
  const comparisons: PairComparison[] = pairs.map(([i, j], p) => {
    const auto = autos[p];
    const [low, high] = auto.confidenceInterval;
    const warnings = [...new Set([...auto.warnings, ...(permutationTested(auto.methodUsed) ? tests[p].warnings : [])])];
    return {
      a: aligned.models[i],
      b: aligned.models[j],
      n: auto.n,
      estimate: auto.estimate,
      confidenceInterval: auto.confidenceInterval,
      standardError: auto.standardError,
      excludesZero: low > 0 || high < 0,
      pValue: pValues[p],
      adjustedPValue: adjusted[p],
      distinguishable: adjusted[p] < alpha,
      bootstrap: bootstraps[p],
      test: tests[p],
      methodUsed: auto.methodUsed,
      methodReason: auto.methodReason,
      auto,
      warnings,
    };
  });
  const means = modelMeans(aligned, designOptions);
  const warnings = [...new Set(comparisons.flatMap((c) => c.warnings.map((w) => `${c.a} − ${c.b}: ${w}`)))];
  const anyBca = autos.some((a) => a.methodUsed === 'bca' || a.methodUsed === 'studentized');
  const anyPermuted = autos.some((a) => permutationTested(a.methodUsed));
  return {
    models: [...aligned.models],
    pairs: comparisons,
    means,
    method: 'auto',
    confidenceLevel: settings.confidenceLevel,
    nResamples: anyBca ? settings.nResamples : 0,
    nPermutations: anyPermuted ? nPermutations : 0,
    seed: settings.seed,
    alternative: settings.alternative,
    adjustment: 'holm',
    n: aligned.items.length,
    warnings,
  };
}

/** Auto methods without a p-value of their own: the paired sign-flip permutation test supplies it. */
function permutationTested(methodUsed: AutoIntervalResult['methodUsed']): boolean {
  return methodUsed === 'bca' || methodUsed === 'studentized' || methodUsed === 'betting';
}
