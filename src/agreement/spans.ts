import type { LabelSpan } from './labels.js';

/** Agreement between annotators who mark character spans. */
export interface SpanAgreementResult {
  /** Pairs of annotators who both marked a span on the same item, summed over items. */
  pairs: number;
  /** Items with spans from at least two annotators. */
  items: number;
  /** Share of pairs whose spans are identical (same start and end); NaN without pairs. */
  exactAgreement: number;
  /** Share of pairs whose overlap ratio is at least `overlapThreshold`; NaN without pairs. */
  overlapAgreement: number;
  /** Mean overlap ratio over pairs; NaN without pairs. */
  meanOverlap: number;
  overlapThreshold: number;
  warnings: string[];
}

/**
 * The overlap ratio of two character spans [start, end): shared characters over the characters
 * either covers (intersection over union, the Jaccard index of the two character sets).
 * One annotator marking the operative sentence (100 characters) and another the sentence with
 * the 50-character definition it depends on gives 100 / 150 ≈ 0.67.
 * Two empty spans at the same place count as identical (ratio 1).
 * @example spanOverlap({ start: 0, end: 100 }, { start: 0, end: 150 }) // => 0.6666666666666666
 */
export function spanOverlap(a: LabelSpan, b: LabelSpan): number {
  const shared = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
  const union = a.end - a.start + (b.end - b.start) - shared;
  if (union === 0) return a.start === b.start ? 1 : 0;
  return shared / union;
}

/**
 * Span agreement over items: for every pair of annotators who both marked a span on an item,
 * whether the spans match exactly and whether they overlap by at least a threshold ratio
 * (`spanOverlap`, intersection over union). Exact match is strict on purpose; the overlap
 * rate shows how much of the disagreement is about where a clause's edges lie (the operative
 * sentence alone, or with its definitions) rather than which clause it is.
 * Reference: the exact / overlap ("partial") match split of span evaluation, e.g. the MUC and
 * SemEval-2013 task 9 scoring; intersection over union as in Jaccard (1912).
 * @param spans items × annotators, null where an annotator marked no span.
 * @param options.overlapThreshold in (0, 1]; default 0.5.
 * @throws {RangeError} on a threshold outside (0, 1].
 * Cost: O(items × annotators²).
 * @example spanAgreement([[{start: 0, end: 10}, {start: 0, end: 12}]]).overlapAgreement // => 1
 */
export function spanAgreement(spans: ReadonlyArray<ReadonlyArray<LabelSpan | null>>, options: { overlapThreshold?: number } = {}): SpanAgreementResult {
  const overlapThreshold = options.overlapThreshold ?? 0.5;
  if (!(overlapThreshold > 0 && overlapThreshold <= 1)) throw new RangeError(`overlapThreshold must be in (0, 1] (got ${overlapThreshold})`);
  let pairs = 0;
  let exact = 0;
  let overlapping = 0;
  let overlapSum = 0;
  let items = 0;
  for (const row of spans) {
    const present = row.filter((span): span is LabelSpan => span !== null && span !== undefined);
    if (present.length < 2) continue;
    items += 1;
    for (let i = 0; i < present.length; i++) {
      for (let j = i + 1; j < present.length; j++) {
        const ratio = spanOverlap(present[i], present[j]);
        pairs += 1;
        overlapSum += ratio;
        if (present[i].start === present[j].start && present[i].end === present[j].end) exact += 1;
        if (ratio >= overlapThreshold) overlapping += 1;
      }
    }
  }
  const warnings = pairs === 0 ? ['no item has spans from two annotators: span agreement is undefined'] : [];
  return {
    pairs,
    items,
    exactAgreement: pairs > 0 ? exact / pairs : NaN,
    overlapAgreement: pairs > 0 ? overlapping / pairs : NaN,
    meanOverlap: pairs > 0 ? overlapSum / pairs : NaN,
    overlapThreshold,
    warnings,
  };
}
