import { InputError } from '../data/errors.js';

/** The metrics an absolute bar can name. */
export const REQUIREMENT_METRICS = ['mean', 'hallucinationRate', 'recall', 'precision', 'cost'] as const;
export type RequirementMetric = (typeof REQUIREMENT_METRICS)[number];

/** An absolute bar a finalist must clear, e.g. `negative_control.hallucinationRate<=0.05`. */
export interface Requirement {
  /** The text it was parsed from, echoed in reasons. */
  text: string;
  /** A stratum name, or `overall` for the whole set. */
  scope: string;
  metric: RequirementMetric;
  operator: '<=' | '>=';
  threshold: number;
}

const PATTERN = /^([A-Za-z0-9_][A-Za-z0-9_-]*)\.([A-Za-z]+)\s*(<=|>=)\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/;

/**
 * Parses an absolute bar `SCOPE.METRIC<=X` or `SCOPE.METRIC>=X`, where SCOPE is a stratum name or
 * `overall` and METRIC one of `mean` (the mean score), `hallucinationRate`
 * (fabrication / (fabrication + correct_absent)), `recall` (hit / (hit + miss)) and `precision`
 * (hit / (hit + fabrication + wrong_span)), the rates of the five-outcome scheme (seeds/000 §5),
 * and `cost` (expected cost per document at a cost policy's prices; see costScopes for a stratum's).
 * The grammar is strict: one operator (`<=` or `>=`, no `<`, `=`, `==`), a finite decimal number,
 * nothing after it; a bar on a rate must lie in [0, 1], a bar on cost must be ≥ 0.
 * @param text the flag's value, e.g. `"negative_control.hallucinationRate<=0.05"`.
 * @param flag the flag named in errors; default `--require`.
 * @returns scope, metric, operator, threshold and the text.
 * @throws {InputError} naming the flag and the text for anything else.
 * @example parseRequirement('overall.mean>=0.8') // => { text: 'overall.mean>=0.8', scope: 'overall', metric: 'mean', operator: '>=', threshold: 0.8 }
 */
export function parseRequirement(text: string, flag = '--require'): Requirement {
  const trimmed = String(text).trim();
  const match = PATTERN.exec(trimmed);
  if (match === null) throw new InputError('must be SCOPE.METRIC<=NUMBER or SCOPE.METRIC>=NUMBER, SCOPE a stratum or "overall"', { file: flag, value: text });
  const [, scope, metric, operator, number] = match;
  if (!(REQUIREMENT_METRICS as readonly string[]).includes(metric)) throw new InputError(`unknown metric "${metric}": use one of ${REQUIREMENT_METRICS.join(', ')}`, { file: flag, value: text });
  const threshold = Number(number);
  if (!Number.isFinite(threshold)) throw new InputError('the bar must be a finite number', { file: flag, value: text });
  if (metric === 'cost' && threshold < 0) throw new InputError('a bar on cost must be ≥ 0 (costs are never negative)', { file: flag, value: text });
  if (metric !== 'mean' && metric !== 'cost' && (threshold < 0 || threshold > 1)) throw new InputError(`a bar on ${metric} must lie in [0, 1]`, { file: flag, value: text });
  return { text: trimmed, scope, metric: metric as RequirementMetric, operator: operator as '<=' | '>=', threshold };
}
