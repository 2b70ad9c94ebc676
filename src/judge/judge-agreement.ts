import { cohenKappa } from '../agreement/cohen.js';
import { wilsonInterval } from '../costs/wilson.js';
import { normalQuantile } from '../distributions/index.js';

/** A share with its Wilson interval. */
export interface JudgeShare {
  estimate: number;
  confidenceInterval: [number, number];
  successes: number;
  trials: number;
}

/** A mean with its normal interval. */
export interface JudgeMean {
  estimate: number;
  standardError: number;
  confidenceInterval: [number, number];
}

/** Agreement of the judge with the humans on one group of labelled rows. */
export interface JudgeAgreement {
  group: 'all' | 'candidate' | 'stratum';
  name: string;
  /** Labelled rows. */
  n: number;
  /** 0/1 labels (judge 0/1, or thresholded): share of rows where judge = human, Wilson interval. */
  accuracy: JudgeShare | null;
  /** Cohen's κ of judge vs human with its large-sample SE (Fleiss, Cohen & Everitt 1969). */
  kappa: JudgeMean | null;
  /** P(judge 1 | human 1) and P(judge 0 | human 0), Wilson intervals. */
  sensitivity: JudgeShare | null;
  specificity: JudgeShare | null;
  /** Graded judge: Pearson r of judge and human with the Fisher-z interval. */
  correlation: { estimate: number; confidenceInterval: [number, number] } | null;
  /** Mean of judge − human (the judge's bias on this group), normal interval. */
  meanError: JudgeMean;
  warnings: string[];
}

/** One bin of a graded judge's calibration table. */
export interface CalibrationBin {
  /** Judge scores in [low, high]. */
  low: number;
  high: number;
  n: number;
  judgeMean: number;
  /** The humans' mean (their rate, for 0/1 labels) with a Wilson (0/1) or normal interval. */
  humanMean: number;
  confidenceInterval: [number, number];
}

const share = (successes: number, trials: number, confidenceLevel: number): JudgeShare => {
  const w = wilsonInterval(successes, trials, { confidenceLevel });
  return { estimate: w.estimate, confidenceInterval: w.confidenceInterval, successes, trials };
};

/**
 * The mean of x with SE = sd/√n (sd with n − 1) and the normal interval mean ± z·SE.
 * @example normalMean([1, 2, 3], 0.95).standardError // => 0.5773502691896258
 */
export function normalMean(x: ArrayLike<number>, confidenceLevel: number): JudgeMean {
  const n = x.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = n > 0 ? sum / n : NaN;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (x[i] - mean) ** 2;
  const standardError = n > 1 ? Math.sqrt(ss / (n - 1) / n) : NaN;
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  return { estimate: mean, standardError, confidenceInterval: [mean - z * standardError, mean + z * standardError] };
}

/**
 * Pearson's r with the Fisher-z interval tanh(atanh r ± z/√(n − 3)).
 * Reference: R `cor.test(x, y)$estimate` and `$conf.int` (tests/reference/judge/agreement.json).
 * @returns NaN when n < 4 or either variable is constant.
 * @example pearsonWithInterval([1, 2, 3, 4, 5], [1, 3, 2, 5, 4], 0.95).estimate // => 0.8
 */
export function pearsonWithInterval(x: ArrayLike<number>, y: ArrayLike<number>, confidenceLevel: number): { estimate: number; confidenceInterval: [number, number] } {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
  }
  const r = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
  if (!(n > 3) || !Number.isFinite(r)) return { estimate: r, confidenceInterval: [NaN, NaN] };
  const z = normalQuantile(1 - (1 - confidenceLevel) / 2);
  const centre = Math.atanh(Math.min(1 - 1e-15, Math.max(-1 + 1e-15, r)));
  const half = z / Math.sqrt(n - 3);
  return { estimate: r, confidenceInterval: [Math.tanh(centre - half), Math.tanh(centre + half)] };
}

/**
 * Agreement of a judge with human labels on one group of labelled rows. For 0/1 labels (the
 * judge's score 0/1, or 1 when ≥ threshold): accuracy, Cohen's κ with its SE, sensitivity
 * P(judge 1 | human 1) and specificity P(judge 0 | human 0) with Wilson intervals; for a graded
 * judge, Pearson's r with its Fisher-z interval; always the mean error judge − human.
 * Reference: Cohen's κ as R `psych::cohen.kappa` ({@link cohenKappa}); Wilson as R
 * `prop.test(x, n, correct = FALSE)`; r as R `cor.test`.
 * @param judge the judge's scores; @param human the human labels, same rows.
 * @param options.binary compute the 0/1 block (both judge and human are 0/1, judge after threshold);
 *   options.threshold the cut for a graded judge (judge ≥ threshold counts as 1).
 * @example judgeAgreement([1, 0, 1, 1], [1, 0, 0, 1], { group: 'all', name: 'all', binary: true }).accuracy.estimate // => 0.75
 */
export function judgeAgreement(
  judge: readonly number[],
  human: readonly number[],
  options: { group: JudgeAgreement['group']; name: string; binary: boolean; graded?: boolean; threshold?: number; confidenceLevel?: number },
): JudgeAgreement {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (judge.length !== human.length) throw new RangeError(`judge and human must pair up (got ${judge.length} and ${human.length})`);
  const n = judge.length;
  const warnings: string[] = [];
  const error = judge.map((j, i) => j - human[i]);
  let accuracy: JudgeShare | null = null;
  let kappa: JudgeMean | null = null;
  let sensitivity: JudgeShare | null = null;
  let specificity: JudgeShare | null = null;
  if (options.binary) {
    const cut = options.threshold;
    const j01 = judge.map((j) => (cut === undefined ? j : j >= cut ? 1 : 0));
    let agree = 0;
    let pos = 0;
    let tp = 0;
    let neg = 0;
    let tn = 0;
    for (let i = 0; i < n; i++) {
      if (j01[i] === human[i]) agree++;
      if (human[i] === 1) {
        pos++;
        if (j01[i] === 1) tp++;
      } else {
        neg++;
        if (j01[i] === 0) tn++;
      }
    }
    accuracy = share(agree, n, confidenceLevel);
    sensitivity = share(tp, pos, confidenceLevel);
    specificity = share(tn, neg, confidenceLevel);
    if (pos === 0) warnings.push(`${options.name}: no row the humans labelled 1: sensitivity is undefined`);
    if (neg === 0) warnings.push(`${options.name}: no row the humans labelled 0: specificity is undefined`);
    const k = cohenKappa(j01.map(String), human.map(String), { confidenceLevel });
    kappa = { estimate: k.kappa, standardError: k.standardError, confidenceInterval: k.interval };
    for (const w of k.warnings) warnings.push(`${options.name}: κ: ${w}`);
  }
  const correlation = options.graded ? pearsonWithInterval(judge, human, confidenceLevel) : null;
  if (correlation && !Number.isFinite(correlation.estimate)) warnings.push(`${options.name}: the correlation is undefined (fewer than 4 rows, or a constant judge or label)`);
  return { group: options.group, name: options.name, n, accuracy, kappa, sensitivity, specificity, correlation, meanError: normalMean(error, confidenceLevel), warnings };
}

/**
 * Calibration table of a graded judge: labelled rows grouped by the judge's score (one bin per
 * distinct score when there are at most `bins` of them, else `bins` bins of about equal count,
 * ties kept together), with the humans' mean in each and its interval (Wilson for 0/1 labels,
 * mean ± z·sd/√n otherwise).
 * @example calibrationTable([0.1, 0.9, 0.9], [0, 1, 0], { binaryHuman: true }).length // => 2
 */
export function calibrationTable(judge: readonly number[], human: readonly number[], options: { binaryHuman: boolean; bins?: number; confidenceLevel?: number }): CalibrationBin[] {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const bins = options.bins ?? 5;
  const order = judge.map((_, i) => i).sort((a, b) => judge[a] - judge[b] || a - b);
  const distinct = [...new Set(order.map((i) => judge[i]))];
  const groups: number[][] = [];
  if (distinct.length <= bins) {
    for (const v of distinct) groups.push(order.filter((i) => judge[i] === v));
  } else {
    const size = order.length / bins;
    let current: number[] = [];
    for (let k = 0; k < order.length; k++) {
      current.push(order[k]);
      const next = order[k + 1];
      const full = current.length + groups.reduce((s, g) => s + g.length, 0) >= Math.round(size * (groups.length + 1));
      if (next === undefined || (full && judge[next] !== judge[order[k]])) {
        groups.push(current);
        current = [];
      }
    }
  }
  return groups.map((g) => {
    const h = g.map((i) => human[i]);
    const j = g.map((i) => judge[i]);
    let interval: [number, number];
    let humanMean: number;
    if (options.binaryHuman) {
      const w = wilsonInterval(h.reduce((s, x) => s + x, 0), h.length, { confidenceLevel });
      interval = w.confidenceInterval;
      humanMean = w.estimate;
    } else {
      const m = normalMean(h, confidenceLevel);
      interval = m.confidenceInterval;
      humanMean = m.estimate;
    }
    return { low: Math.min(...j), high: Math.max(...j), n: g.length, judgeMean: j.reduce((s, x) => s + x, 0) / j.length, humanMean, confidenceInterval: interval };
  });
}
