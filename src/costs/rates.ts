import type { OutcomeCounts } from './tally.js';
import { wilsonInterval } from './wilson.js';

/** One rate with its interval, and what one slot is worth in it. */
export interface OutcomeRate {
  /** numerator / denominator; NaN when the denominator is 0. */
  estimate: number;
  confidenceInterval: [number, number];
  /** The outcome count on top, e.g. hits for recall. */
  numerator: number;
  /** The slots the rate is a share of, e.g. hits + misses for recall. */
  denominator: number;
  /** How much one slot moves the rate: 1 / denominator (0.091 for 11 absent slots); NaN at 0. */
  oneSlot: number;
  /** Set when one slot moves the rate by a percentage point or more (denominator ≤ 100). */
  note: string | null;
}

/** Recall, precision and hallucination rate of one model, each with a Wilson interval. */
export interface OutcomeRates {
  /** hit / (hit + miss): the share of clauses genuinely present that the model found. */
  recall: OutcomeRate;
  /** hit / (hit + fabrication + wrong_span): the share of what the model reported that was right. */
  precision: OutcomeRate;
  /** fabrication / (fabrication + correct_absent): the share of absent slots where something was invented. */
  hallucinationRate: OutcomeRate;
  confidenceLevel: number;
}

function rate(name: string, numerator: number, denominator: number, confidenceLevel: number): OutcomeRate {
  const wilson = wilsonInterval(numerator, denominator, { confidenceLevel });
  const oneSlot = denominator > 0 ? 1 / denominator : NaN;
  let note: string | null = null;
  if (denominator === 0) note = `${name} is undefined: no slots in its denominator`;
  else if (denominator <= 100) {
    const points = (100 / denominator).toFixed(1);
    note = `${name}: one slot moves it by ${points} points (denominator ${formatCount(denominator)})`;
  }
  return { estimate: wilson.estimate, confidenceInterval: wilson.confidenceInterval, numerator, denominator, oneSlot, note };
}

function formatCount(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/**
 * The three rates of the five-outcome scheme (seeds/000 §5), each with a Wilson interval and a
 * note of how many points one slot moves it when the denominator is small ("one slot is ~9 points
 * of hallucination rate" with 11 absent slots).
 *
 * recall = hit / (hit + miss); precision = hit / (hit + fabrication + wrong_span);
 * hallucination rate = fabrication / (fabrication + correct_absent).
 * A fabrication counts against precision but not recall (there was no clause to miss).
 * `partial` and `critical_failure` outcomes enter none of the three: they carry a cost only.
 *
 * Reference: the seed chapter's `cost_and_counts`; the intervals are `wilsonInterval`.
 * @param counts one model's outcome counts.
 * @param options.confidenceLevel coverage of the intervals, default 0.95.
 * @returns the three rates; a rate with an empty denominator is NaN with a note.
 * @example outcomeRates({ ...emptyOutcomeCounts(), fabrication: 1, correct_absent: 10 }).hallucinationRate.oneSlot // => 0.09090909090909091
 */
export function outcomeRates(counts: OutcomeCounts, options: { confidenceLevel?: number } = {}): OutcomeRates {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  return {
    recall: rate('recall', counts.hit, counts.hit + counts.miss, confidenceLevel),
    precision: rate('precision', counts.hit, counts.hit + counts.fabrication + counts.wrong_span, confidenceLevel),
    hallucinationRate: rate('hallucination rate', counts.fabrication, counts.fabrication + counts.correct_absent, confidenceLevel),
    confidenceLevel,
  };
}
