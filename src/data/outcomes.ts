/**
 * The kinds of outcome one extraction slot can have (the five-outcome scheme of seeds/000,
 * plus `critical_failure` for capped rubric scores, seeds/002, and `partial` for partial credit).
 * A slot whose clause is present is a hit, a miss or a wrong span; a slot whose clause is
 * absent is a correct absence or a fabrication.
 */
export const OUTCOME_KINDS = ['hit', 'miss', 'fabrication', 'wrong_span', 'correct_absent', 'critical_failure', 'partial'] as const;

export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** Other names the same outcomes go by in other tools and in seeds/000. */
export const OUTCOME_ALIASES: Readonly<Record<string, OutcomeKind>> = {
  correct: 'hit',
  wrong: 'wrong_span',
  hallucinated: 'fabrication',
};

/**
 * The score an outcome stands for when a row gives an outcome and no score: 1 for a right
 * answer (hit, correct absence), 0.5 for partial credit, 0 for every kind of error.
 */
export const OUTCOME_SCORE: Readonly<Record<OutcomeKind, number>> = {
  hit: 1,
  correct_absent: 1,
  partial: 0.5,
  miss: 0,
  fabrication: 0,
  wrong_span: 0,
  critical_failure: 0,
};

/**
 * The canonical kind for an outcome name or alias, or undefined when it is not one.
 * Case and surrounding space are ignored.
 * @example outcomeKind('Hallucinated') // => 'fabrication'
 */
export function outcomeKind(name: string): OutcomeKind | undefined {
  const key = name.trim().toLowerCase();
  if ((OUTCOME_KINDS as readonly string[]).includes(key)) return key as OutcomeKind;
  return OUTCOME_ALIASES[key];
}

/**
 * Why a row's outcome and its score cannot both be true, or undefined when they can. A right
 * answer (hit, correct_absent) that scores 0 or less, or an error (miss, fabrication,
 * wrong_span) that scores 1 or more, says two different things about one row; benchplan
 * refuses it rather than guess which to believe. `partial` and `critical_failure` (a rubric
 * score capped at some level) take any score.
 * On a points scale the same holds: a right answer scores above 0, an error below 1 point.
 * @example outcomeContradicts('hit', 0) // => "a right answer must score above 0"
 * @example outcomeContradicts('miss', 0) // => undefined
 */
export function outcomeContradicts(kind: OutcomeKind, score: number): string | undefined {
  if (kind === 'partial' || kind === 'critical_failure') return undefined;
  if (OUTCOME_SCORE[kind] === 1) return score <= 0 ? 'a right answer must score above 0' : undefined;
  return score >= 1 ? 'an error must score below 1' : undefined;
}
