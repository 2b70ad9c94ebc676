import { normalQuantile } from '../distributions/index.js';
import { designLabels, type DesignLabelsResult } from '../selection/design-sizing.js';
import { itemsForIntervalWidth } from '../sizing/interval.js';
import { summarizeDifferences } from '../sizing/variance.js';
import { judgeHumanCorrelation } from './correlation.js';
import { judgedComparison, NotRandomSubsetError, type JudgedItem } from './judged-comparison.js';
import { normalMean, type JudgeMean } from './judge-agreement.js';

/** What a judge-only comparison of two candidates would carry, and the alternatives. */
export interface CandidateBias {
  a: string;
  b: string;
  /** Items both candidates were labelled on (error difference, humans only). */
  nLabelled: number;
  /** Items the judge scored for both. */
  nJudged: number;
  /**
   * Mean over labelled items of (judgeA − humanA) − (judgeB − humanB): how far a judge-only
   * A − B sits from the humans' A − B. Cluster-robust SE when clusters are given.
   */
  errorDifference: JudgeMean;
  /** Mean judgeA − judgeB over every judged item (no human labels used). */
  judgeOnly: JudgeMean;
  /** Mean humanA − humanB over the labelled items. */
  humanOnly: JudgeMean;
  /** PPI++ on A − B (judge on every item, humans on the labelled ones); null when not possible. */
  ppi: { estimate: number; standardError: number; confidenceInterval: [number, number]; lambda: number; effectiveLabels: number } | null;
  /** With mde: the labels a humans-only and a PPI++ interval of half-width mde/2 need (as size --judge). */
  labelsNeeded: { mde: number; judgeCorrelation: number; plain: number; ppi: number; judgedItems: number; warnings: string[] } | null;
  warnings: string[];
}

/**
 * How differently a judge errs on two candidates: the difference in the judge's mean error,
 * d_i = (judgeA_i − humanA_i) − (judgeB_i − humanB_i) averaged over items labelled for both, with
 * a normal interval (SE = sd/√n, or the cluster-robust SE √(G/(G−1) Σ_g (Σ_{i∈g}(d_i − d̄))²) / n
 * with G clusters). That mean is the bias a judge-only A − B carries. Beside it: the judge-only
 * A − B on every judged item, the humans-only A − B, PPI++ ({@link judgedComparison}, unbiased
 * whatever the judge's bias when the labelled items are a random subset), and, given mde, the
 * human labels a humans-only interval of half-width mde/2 needs (n = ⌈v(2z/mde)²⌉, v the
 * variance of humanA − humanB) and the labels PPI++ needs ({@link designLabels} with the
 * judge–human correlation ρ of A − B): the numbers of `size --judge --judged-items`.
 * Reference: Boyeau et al. (2024) "AutoEval Done Right"; the chapter's sizing rule.
 * @param items one entry per item judged for both candidates (human scores when labelled).
 * @param options.clusters cluster of each item (same order), for the cluster-robust SE.
 * @example candidateBias('a', 'b', items, {}).errorDifference.estimate // => the judge's extra error on a over b
 */
export function candidateBias(
  a: string,
  b: string,
  items: readonly JudgedItem[],
  options: { confidenceLevel?: number; clusters?: readonly string[]; mde?: number; assumeRandom?: boolean } = {},
): CandidateBias {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const warnings: string[] = [];
  const d: number[] = [];
  const human: number[] = [];
  const clusterOf: string[] = [];
  items.forEach((it, i) => {
    if (it.humanA === undefined || it.humanB === undefined) return;
    d.push(it.judgeA - it.humanA - (it.judgeB - it.humanB));
    human.push(it.humanA - it.humanB);
    if (options.clusters) clusterOf.push(options.clusters[i]);
  });
  const errorDifference = normalMean(d, confidenceLevel);
  if (options.clusters && d.length > 1) {
    const se = clusterRobustSe(d, clusterOf);
    const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
    errorDifference.standardError = se;
    errorDifference.confidenceInterval = [errorDifference.estimate - z * se, errorDifference.estimate + z * se];
  }
  if (d.length < 2) warnings.push(`${a} vs ${b}: ${d.length} item${d.length === 1 ? ' is' : 's are'} labelled for both: the difference in the judge's error has no interval`);
  const judgeOnly = normalMean(items.map((it) => it.judgeA - it.judgeB), confidenceLevel);
  const humanOnly = normalMean(human, confidenceLevel);
  let ppi: CandidateBias['ppi'] = null;
  if (d.length >= 2 && d.length < items.length) {
    try {
      const r = judgedComparison(items, { confidenceLevel, stratified: false, assumeRandom: options.assumeRandom ?? false });
      ppi = { estimate: r.estimate, standardError: r.standardError, confidenceInterval: r.confidenceInterval, lambda: r.strata[0].lambda, effectiveLabels: r.effectiveLabels };
      for (const w of r.warnings) warnings.push(`${a} vs ${b}: PPI++: ${w}`);
    } catch (error) {
      if (error instanceof NotRandomSubsetError) warnings.push(`${a} vs ${b}: no PPI++ interval: the labelled items do not look like a random subset (p = ${error.check.pValue.toExponential(2)}); PPI++ needs labels on a uniformly random subset`);
      else if (error instanceof RangeError) warnings.push(`${a} vs ${b}: no PPI++ interval: ${error.message}`);
      else throw error;
    }
  } else if (d.length >= 2) warnings.push(`${a} vs ${b}: every judged item is labelled: PPI++ has nothing to add`);
  let labelsNeeded: CandidateBias['labelsNeeded'] = null;
  if (options.mde !== undefined && human.length >= 2) {
    const rho = judgeHumanCorrelation(items);
    const plain = itemsForIntervalWidth({ varianceOfDifference: summarizeDifferences(human).variance, mde: options.mde, confidenceLevel }).n;
    if (plain >= 1 && Number.isFinite(rho)) {
      const design: DesignLabelsResult = designLabels(plain, { judgeCorrelation: rho, judgedItems: items.length });
      labelsNeeded = { mde: options.mde, judgeCorrelation: rho, plain, ppi: design.ppi?.labels ?? plain, judgedItems: items.length, warnings: design.warnings };
    } else warnings.push(`${a} vs ${b}: the labels needed are undefined (a constant human or judge difference on the labelled items)`);
  }
  return { a, b, nLabelled: d.length, nJudged: items.length, errorDifference, judgeOnly, humanOnly, ppi, labelsNeeded, warnings };
}

/** SE of a mean with items grouped in clusters: √(G/(G−1) · Σ_g (Σ_{i∈g} (x_i − x̄))²) / n. */
function clusterRobustSe(x: readonly number[], cluster: readonly string[]): number {
  const n = x.length;
  const mean = x.reduce((s, v) => s + v, 0) / n;
  const sums = new Map<string, number>();
  x.forEach((v, i) => sums.set(cluster[i], (sums.get(cluster[i]) ?? 0) + v - mean));
  const G = sums.size;
  if (G < 2) return NaN;
  let ss = 0;
  for (const s of sums.values()) ss += s * s;
  return Math.sqrt((G / (G - 1)) * ss) / n;
}
