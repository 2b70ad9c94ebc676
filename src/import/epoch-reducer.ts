import { InputError } from '../data/errors.js';

/** A parsed epoch reducer: Inspect's name and, for at_least / pass_at, its k. */
export type EpochReducer =
  | { kind: 'mean' | 'median' | 'mode' | 'max'; name: string }
  | { kind: 'at_least' | 'pass_at' | 'pass_k'; k: number; name: string };

/**
 * Parses an Inspect epoch reducer name as Inspect logs it (reducer_log_name: the name, then `_K`):
 * `mean`, `median`, `mode`, `max`, `at_least_K`, `pass_at_K`, `pass_k_K` (K a whole number ≥ 1;
 * also written `at_least(K)`). The threshold of at_least / pass_at / pass_k is Inspect's default,
 * 1.0: a log does not record another one.
 * @throws {InputError} for any other name, naming `flag` and listing the ones known.
 * @example parseEpochReducer('at_least_2') // => { kind: 'at_least', k: 2, name: 'at_least_2' }
 */
export function parseEpochReducer(name: string, flag = '--epoch-reducer'): EpochReducer {
  const text = name.trim();
  if (text === 'mean' || text === 'median' || text === 'mode' || text === 'max') return { kind: text, name: text };
  const match = /^(at_least|pass_at|pass_k)(?:_(\d+)|\((\d+)\))$/.exec(text);
  if (match) {
    const k = Number(match[2] ?? match[3]);
    if (Number.isInteger(k) && k >= 1) return { kind: match[1] as 'at_least' | 'pass_at' | 'pass_k', k, name: `${match[1]}_${k}` };
  }
  throw new InputError('must be an Inspect epoch reducer: mean, median, mode, max, at_least_K, pass_at_K or pass_k_K (K ≥ 1)', { file: flag, value: name });
}

/** One epoch's score: its float value and the raw value it came from (a letter, a number, …). */
export interface EpochValue {
  score: number;
  raw: string;
}

/**
 * Reduces one sample's epoch scores to one score, as Inspect's reducers do
 * (inspect_ai/scorer/_reducer/reducer.py), on values already turned to floats by value_to_float:
 * - mean: arithmetic mean; median: statistics.median (mean of the two middle values when even);
 * - mode: the most common raw value (ties: the one seen first, as Counter.most_common); its score;
 * - max: the largest score (the first of equal ones);
 * - at_least_K: 1 when at least K epochs score ≥ 1.0, else 0;
 * - pass_at_K: the unbiased pass@K estimator of Chen et al. 2021 (arXiv 2107.03374), with n epochs
 *   and c of them scoring ≥ 1.0: 1 when n − c < K, else 1 − ∏_{i=n−c+1}^{n} (1 − K / i);
 *   NaN when n < K (Inspect's unscored sentinel);
 * - pass_k_K: the chance that K epochs drawn without replacement all pass (arXiv 2406.12045),
 *   C(c, K) / C(n, K); NaN when n < K.
 * NaN epochs (unscored) are left out first; with none left the result is NaN.
 * @example reduceEpochs([{ score: 1, raw: 'C' }, { score: 0, raw: 'I' }, { score: 0, raw: 'I' }], parseEpochReducer('pass_at_2')) // => 0.6666666666666667 (n 3, c 1: 1 − C(2,2)/C(3,2) = 2/3)
 */
export function reduceEpochs(values: readonly EpochValue[], reducer: EpochReducer): number {
  const kept = values.filter((v) => !Number.isNaN(v.score));
  if (kept.length === 0) return NaN;
  const scores = kept.map((v) => v.score);
  switch (reducer.kind) {
    case 'mean':
      return scores.reduce((a, b) => a + b, 0) / scores.length;
    case 'median': {
      const sorted = [...scores].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
    case 'mode': {
      const counts = new Map<string, { n: number; score: number }>();
      for (const v of kept) {
        const entry = counts.get(v.raw);
        if (entry === undefined) counts.set(v.raw, { n: 1, score: v.score });
        else entry.n += 1;
      }
      let best: { n: number; score: number } | undefined;
      for (const entry of counts.values()) if (best === undefined || entry.n > best.n) best = entry;
      return (best as { score: number }).score;
    }
    case 'max':
      return scores.reduce((a, b) => (b > a ? b : a), -Infinity);
    case 'at_least':
      return scores.filter((x) => x >= 1).length >= reducer.k ? 1 : 0;
    case 'pass_at': {
      const n = scores.length;
      const c = scores.filter((x) => x >= 1).length;
      if (n < reducer.k) return NaN;
      if (n - c < reducer.k) return 1;
      let product = 1;
      for (let i = n - c + 1; i <= n; i++) product *= 1 - reducer.k / i;
      return 1 - product;
    }
    case 'pass_k': {
      const n = scores.length;
      const c = scores.filter((x) => x >= 1).length;
      if (n < reducer.k) return NaN;
      // C(c, k) / C(n, k) = ∏_{i=0}^{k−1} (c − i) / (n − i), 0 when c < k.
      let ratio = 1;
      for (let i = 0; i < reducer.k; i++) ratio *= Math.max(0, c - i) / (n - i);
      return ratio;
    }
  }
}
