import { nonInferiorityFromScores, nonInferiorityGate, type NonInferiorityData, type NonInferiorityGateOptions, type NonInferiorityOptions, type NonInferiorityResult } from '../gate/gate.js';
import { loadScores, type ScoresTable } from '../data/scores.js';
import { formatNonInferiorityReport, nonInferiorityHeadline } from '../report/gate.js';

/** Thrown by expectNoRegression: the message is the verdict and the report; `report` the result. */
export class RegressionError extends Error {
  readonly report: NonInferiorityResult;
  constructor(report: NonInferiorityResult) {
    super(`${nonInferiorityHeadline(report)}\n\n${formatNonInferiorityReport(report)}`);
    this.name = 'RegressionError';
    this.report = report;
  }
}

/** Options of expectNoRegression with a scores table or file. */
export type ExpectNoRegressionOptions = NonInferiorityGateOptions;

/**
 * A test assertion for vitest or jest (the CI-gating style of seeds/003): passes silently when the
 * candidate is non-inferior to the baseline, and throws a RegressionError whose message is the
 * verdict followed by the one-screen report, with the full result on `error.report`.
 *
 * @param source a scores file path (CSV/JSONL), a loaded ScoresTable, or `{ candidate, baseline }`
 *   per-item score arrays (paired by position).
 * @param options margin (required); with a table or file, `baseline` and `candidate` model names;
 *   method, confidenceLevel, nResamples, seed, perStratum, cluster, stratified, dropUnpaired.
 * @returns the result when the gate passes.
 * @throws {RegressionError} when the gate fails. @throws {InputError | RangeError} for bad input.
 * @example
 * it('the new prompt does not regress', () => {
 *   expectNoRegression('eval/scores.csv', { baseline: 'main', candidate: 'pr', margin: 0.02, cluster: true });
 * });
 */
export function expectNoRegression(source: string | ScoresTable, options: ExpectNoRegressionOptions): NonInferiorityResult;
export function expectNoRegression(source: NonInferiorityData, options: NonInferiorityOptions & { baseline?: string; candidate?: string }): NonInferiorityResult;
export function expectNoRegression(
  source: string | ScoresTable | NonInferiorityData,
  options: NonInferiorityOptions & { baseline?: string; candidate?: string; cluster?: boolean; stratified?: boolean; dropUnpaired?: boolean },
): NonInferiorityResult {
  let result: NonInferiorityResult;
  if (typeof source === 'string' || 'rowCount' in source) {
    const table = typeof source === 'string' ? loadScores(source) : source;
    if (options.baseline === undefined || options.candidate === undefined) throw new TypeError('expectNoRegression on a scores table needs options.baseline and options.candidate (model names)');
    result = nonInferiorityGate(table, options as NonInferiorityGateOptions);
  } else {
    result = nonInferiorityFromScores(source, options, { baseline: options.baseline ?? 'baseline', candidate: options.candidate ?? 'candidate' });
  }
  if (!result.passed) throw new RegressionError(result);
  return result;
}
