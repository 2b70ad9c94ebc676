import { InputError } from '../data/errors.js';
import type { PairedScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';

/**
 * The range [low, high] the scores live in, and so the range of a paired difference,
 * [low − high, high − low]: the bound an anytime-valid sequence for bounded means needs.
 * Declared → every score of both models is checked against it. Not declared → [0, 1] when
 * every score lies in [0, 1] (0/1 outcomes, rubric fractions; differences in [−1, 1]); any other
 * scores need a declared range, since the sequence cannot guess how far a score could go.
 * @param paired two models' aligned scores.
 * @param declared [low, high] with low < high, or undefined.
 * @returns { scoreRange, differenceRange, declared }.
 * @throws {InputError} naming the item and value of a score outside the declared range, or asking
 *   for a range when the scores leave [0, 1]; {RangeError} for a malformed declared range.
 * @example scoreRangeOf(pairedZeroOneScores).differenceRange // => [-1, 1]
 */
export function scoreRangeOf(
  paired: PairedScores,
  declared?: readonly [number, number],
): { scoreRange: [number, number]; differenceRange: [number, number]; declared: boolean } {
  if (declared !== undefined) checkScoreRangeShape(declared);
  const [low, high] = declared ?? [0, 1];
  checkScoresInRange(paired.source, paired.items, [paired.a, paired.b], [paired.scoreA, paired.scoreB], [low, high], declared !== undefined ? null : 'so the sequence knows its bound');
  return { scoreRange: [low, high], differenceRange: [low - high, high - low], declared: declared !== undefined };
}

/**
 * Every score of every model inside [low, high], or bad input naming the file, item, model and value.
 * @param undeclaredWhy null when the range was declared; else why a range is needed (the default [0, 1] was left).
 * @throws {InputError} for the first score outside the range.
 */
export function checkScoresInRange(source: string, items: readonly string[], models: readonly string[], scores: readonly ArrayLike<number>[], [low, high]: readonly [number, number], undeclaredWhy: string | null = null): void {
  models.forEach((model, m) => {
    const x = scores[m];
    for (let k = 0; k < x.length; k++) {
      if (!(x[k] >= low && x[k] <= high)) {
        throw new InputError(
          undeclaredWhy === null
            ? `item "${items[k]}" of model "${model}" scores ${x[k]}, outside the declared score range [${low}, ${high}]`
            : `item "${items[k]}" of model "${model}" scores ${x[k]}, outside [0, 1]: declare the range scores can take (--score-range LOW,HIGH) ${undeclaredWhy}`,
          { file: source, value: x[k] },
        );
      }
    }
  });
}

/**
 * A declared score range's shape: [low, high], both finite, low < high.
 * @throws {RangeError} otherwise.
 */
export function checkScoreRangeShape([low, high]: readonly [number, number]): void {
  if (!(Number.isFinite(low) && Number.isFinite(high) && low < high)) throw new RangeError(`scoreRange must be [low, high] with low < high, both finite (got [${low}, ${high}])`);
}

/**
 * Every raw score row of the named models inside a declared [low, high], checked on the table itself
 * so the error names the line: `FILE:LINE: score: … (got VALUE)`.
 * @param table the loaded scores.
 * @param models the models whose rows are checked (those compared or gated).
 * @param range the declared range, [low, high].
 * @throws {InputError} for the first row outside it.
 */
export function checkTableScoresInRange(table: ScoresTable, models: readonly string[], [low, high]: readonly [number, number]): void {
  const wanted = new Set(models.map((m) => table.models.indexOf(m)));
  for (let r = 0; r < table.rowCount; r++) {
    const x = table.score[r];
    if (wanted.has(table.model[r]) && !(x >= low && x <= high)) {
      throw new InputError(`item "${table.items[table.item[r]]}" of model "${table.models[table.model[r]]}" scores ${x}, outside the declared score range [${low}, ${high}]`, {
        file: table.source,
        line: table.line[r],
        field: 'score',
        value: x,
      });
    }
  }
}
