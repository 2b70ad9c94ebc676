import type { JudgedComparisonResult, JudgedItem } from '../judge/index.js';
import { normalMean, type JudgeMean } from '../judge/judge-agreement.js';
import { formatInterval, formatNumber, formatPercent, formatTable, warningLines } from './table.js';

/** `benchplan compare --judge … --json`. */
export interface CompareJudgeReport extends Omit<JudgedComparisonResult, 'confidenceInterval' | 'classicalInterval'> {
  scores: string;
  judge: string;
  judgeSource: 'column' | 'file';
  a: string;
  b: string;
  method: 'ppi++';
  interval: [number, number];
  classicalInterval: [number, number];
  excludesZero: boolean;
  assumeRandom: boolean;
  /** The strata file whose traffic shares weighted the strata (--strata), else null. */
  strataFile: string | null;
  /**
   * The judge's bias on this comparison: mean over labelled items of (judgeA − humanA) −
   * (judgeB − humanB), normal interval — what a judge-only A − B would carry (see benchplan judge).
   */
  judgeErrorDifference: JudgeMean & { n: number };
}

/** What compare --judge echoes beside the PPI++ result. */
export interface CompareJudgeSettings {
  /** The human scores' path. */
  scores: string;
  /** The judge: a column name or a scores file. */
  judge: string;
  judgeSource: 'column' | 'file';
  a: string;
  b: string;
  /** --assume-random: the labelled items were drawn at random (the check was skipped). */
  assumeRandom: boolean;
  /** The strata file whose traffic shares weighted the strata (--strata), else null. */
  strataFile: string | null;
  /** Two-sided level (--confidence) of the judge's error-difference interval. */
  confidenceLevel: number;
}

/**
 * The JSON document of `benchplan compare --judge`: the PPI++ estimate of A − B (judgedComparison's
 * result), with the humans-only interval beside it and the judge's bias on this comparison (mean
 * over labelled items of (judgeA − humanA) − (judgeB − humanB), normal interval). A pure function.
 * @param result judgedComparison(items, …).
 * @param items the judged items the result was computed on (for the judge's error difference).
 * @param settings what the command echoes beside the result.
 * @returns the report; its keys are the `compare --judge --json` document's, in order.
 * @example compareJudgeReport(result, items, settings).method // => "ppi++"
 */
export function compareJudgeReport(result: JudgedComparisonResult, items: readonly JudgedItem[], settings: CompareJudgeSettings): CompareJudgeReport {
  const { confidenceInterval, classicalInterval, ...rest } = result;
  return {
    scores: settings.scores,
    judge: settings.judge,
    judgeSource: settings.judgeSource,
    a: settings.a,
    b: settings.b,
    method: 'ppi++',
    ...rest,
    interval: confidenceInterval,
    classicalInterval,
    excludesZero: confidenceInterval[0] > 0 || confidenceInterval[1] < 0,
    assumeRandom: settings.assumeRandom,
    strataFile: settings.strataFile,
    judgeErrorDifference: errorDifference(items, settings.confidenceLevel),
  };
}

function errorDifference(items: readonly JudgedItem[], confidenceLevel: number): JudgeMean & { n: number } {
  const d = items.filter((it) => it.humanA !== undefined && it.humanB !== undefined).map((it) => it.judgeA - (it.humanA as number) - (it.judgeB - (it.humanB as number)));
  return { n: d.length, ...normalMean(d, confidenceLevel) };
}

/**
 * The readable report of `benchplan compare --judge`: PPI++ and humans-only rows, the strata with
 * their λ, the effective number of human labels, the judge's bias on A − B, the random-subset check
 * and the warnings.
 * @param r the report (compareJudgeReport).
 * @returns the text, lines joined by "\n", no trailing newline.
 * @example formatCompareJudge(report).split('\n')[0] // => "alpha − beta: judge scores (column \"judge\") on 400 items, human scores on 100 of them (…)"
 */
export function formatCompareJudge(r: CompareJudgeReport): string {
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  const out: string[] = [];
  const source = r.judgeSource === 'column' ? `column "${r.judge}"` : r.judge;
  out.push(`${r.a} − ${r.b}: judge scores (${source}) on ${r.nLabelled + r.nUnlabelled} items, human scores on ${r.nLabelled} of them (PPI++${r.stratified ? `, stratified over ${r.strata.length} strata${r.weighting === 'traffic' ? `, weighted by traffic (${r.strataFile})` : ''}` : ''})`);
  out.push(
    formatTable(
      ['interval', 'A − B', `${level} interval`, 'SE', 'human labels'],
      [
        ['PPI++ (judge + humans)', formatNumber(r.estimate), formatInterval(r.interval), formatNumber(r.standardError), String(r.nLabelled)],
        ['humans only', formatNumber(r.classicalEstimate), formatInterval(r.classicalInterval), formatNumber(r.classicalStandardError), String(r.nLabelled)],
      ],
      { align: ['left', 'right', 'right', 'right', 'right'] },
    ),
  );
  out.push(
    formatTable(
      ['stratum', r.weighting === 'traffic' ? 'traffic' : 'weight', 'labelled', 'unlabelled', 'λ', 'A − B'],
      r.strata.map((s) => [s.stratum === '' ? '(all)' : s.stratum, formatNumber(s.weight, 3), String(s.nLabelled), String(s.nUnlabelled), formatNumber(s.lambda, 3), formatNumber(s.estimate)]),
      { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
    ),
  );
  if (r.stratified) {
    const pooled = r.collapsedStrata.length > 0 ? `; strata with fewer than 3 labels pooled with a neighbour: ${r.collapsedStrata.map((g) => g.join(' + ')).join('; ')}` : '';
    out.push(`Stratified interval: unbiased per-stratum variances, strata under 10 labels floored at the pooled variance, t on Satterthwaite's ${formatNumber(r.df, 3)} df${pooled}.`);
  }
  out.push(`Effective human labels: ${formatNumber(r.effectiveLabels, 3)} (a humans-only interval this narrow would need that many labels; λ = 0 means the judge adds nothing).`);
  const e = r.judgeErrorDifference;
  out.push(`The judge's bias on A − B (its error on A minus its error on B, ${e.n} labelled items): ${formatNumber(e.estimate)} ${formatInterval(e.confidenceInterval)}; a judge-only comparison would carry it, PPI++ corrects for it (details: benchplan judge).`);
  if (r.randomness) out.push(`Random-subset check${r.stratified ? ' (the most extreme stratum)' : ''}: the judge's mean A − B is ${formatNumber(r.randomness.labelledMean)} on labelled items and ${formatNumber(r.randomness.unlabelledMean)} on the rest (p = ${formatNumber(r.randomness.pValue, 2)}).`);
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
