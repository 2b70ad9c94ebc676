import type { LabelMatrix } from './labels.js';

/** Raw (percent) agreement between annotators. */
export interface RawAgreementResult {
  /** Agreeing pairs / pairs, in [0, 1]; NaN when no item has two labels. */
  rawAgreement: number;
  /** Pairs of annotators who both labelled the same item, summed over items. */
  pairs: number;
  /** Of those, pairs that gave the same label. */
  agreeingPairs: number;
  /** Items with at least two labels. */
  items: number;
}

/**
 * Raw agreement: the share of pairs of annotators, over all items, that gave an item the same
 * label; the chance that two readers handed the same item write down the same answer.
 * rawAgreement = Σ_u Σ_c C(n_uc, 2) / Σ_u C(m_u, 2), with n_uc the annotators giving item u
 * label c and m_u the labels item u has. Missing labels drop out of the pairs. With every item
 * labelled by the same k annotators this is Fleiss' P̄ (mean per-item agreement); with two
 * annotators it is their percent agreement.
 * Reference: Fleiss (1971) P̄; the "observed agreement" of Cohen (1960) for two raters.
 * @param labels items × annotators, null = missing.
 * @returns rawAgreement, pairs, agreeingPairs, items (with ≥ 2 labels).
 * @example rawAgreement([['a', 'a', 'b'], ['c', 'c', null]]).rawAgreement // => 0.5 (2 of 4 pairs)
 */
export function rawAgreement(labels: LabelMatrix): RawAgreementResult {
  let pairs = 0;
  let agreeingPairs = 0;
  let items = 0;
  const counts = new Map<string, number>();
  for (const row of labels) {
    counts.clear();
    let m = 0;
    for (const label of row) {
      if (label === null) continue;
      counts.set(label, (counts.get(label) ?? 0) + 1);
      m += 1;
    }
    if (m < 2) continue;
    items += 1;
    pairs += (m * (m - 1)) / 2;
    for (const n of counts.values()) agreeingPairs += (n * (n - 1)) / 2;
  }
  return { rawAgreement: pairs > 0 ? agreeingPairs / pairs : NaN, pairs, agreeingPairs, items };
}
