import { InputError } from '../data/errors.js';
import type { PairedScores } from '../data/pairing.js';

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
  if (declared !== undefined && !(Number.isFinite(declared[0]) && Number.isFinite(declared[1]) && declared[0] < declared[1])) {
    throw new RangeError(`the score range must be [low, high] with low < high (got [${declared[0]}, ${declared[1]}])`);
  }
  const [low, high] = declared ?? [0, 1];
  for (const [model, scores] of [[paired.a, paired.scoreA], [paired.b, paired.scoreB]] as const) {
    for (let k = 0; k < scores.length; k++) {
      if (!(scores[k] >= low && scores[k] <= high)) {
        throw new InputError(
          declared
            ? `item "${paired.items[k]}" of model "${model}" scores ${scores[k]}, outside the declared score range [${low}, ${high}]`
            : `item "${paired.items[k]}" of model "${model}" scores ${scores[k]}, outside [0, 1]: declare the range scores can take (--score-range LOW,HIGH) so the sequence knows its bound`,
          { file: paired.source, value: scores[k] },
        );
      }
    }
  }
  return { scoreRange: [low, high], differenceRange: [low - high, high - low], declared: declared !== undefined };
}
