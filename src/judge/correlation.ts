import type { JudgedItem } from './judged-comparison.js';

/**
 * Pearson correlation of the judge's paired difference (judgeA − judgeB) with the humans'
 * (humanA − humanB) over the items that have human scores: the ρ that sets how many labels
 * PPI++ saves (its variance factor is about 1 − ρ²).
 * Reference: the sample correlation coefficient; R `cor(y, f)`.
 * @param items judged items; those without human scores are ignored.
 * @returns ρ in [−1, 1]; NaN when fewer than 2 labelled items or either difference is constant.
 * @example judgeHumanCorrelation([{ item: 'x', stratum: '', judgeA: 1, judgeB: 0, humanA: 1, humanB: 0 }, { item: 'y', stratum: '', judgeA: 0, judgeB: 0, humanA: 0, humanB: 0 }]) // => 1
 */
export function judgeHumanCorrelation(items: readonly JudgedItem[]): number {
  const y: number[] = [];
  const f: number[] = [];
  for (const it of items) {
    if (it.humanA === undefined || it.humanB === undefined) continue;
    y.push(it.humanA - it.humanB);
    f.push(it.judgeA - it.judgeB);
  }
  const n = y.length;
  if (n < 2) return NaN;
  const my = y.reduce((a, b) => a + b, 0) / n;
  const mf = f.reduce((a, b) => a + b, 0) / n;
  let syy = 0;
  let sff = 0;
  let syf = 0;
  for (let i = 0; i < n; i++) {
    syy += (y[i] - my) ** 2;
    sff += (f[i] - mf) ** 2;
    syf += (y[i] - my) * (f[i] - mf);
  }
  return syy > 0 && sff > 0 ? syf / Math.sqrt(syy * sff) : NaN;
}
