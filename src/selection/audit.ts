/** What the audit sample of agreeing items found. */
export interface AgreementAudit {
  /** Agreeing items labelled. */
  audited: number;
  /** Of those, how many had A − B ≠ 0 (same output, different score). */
  differing: number;
  /** Up to 5 of their ids. */
  examples: string[];
  /** differing > 0: "same output ⇒ same score" does not hold on this pool. */
  assumptionFailed: boolean;
}

/**
 * Checks the assumption behind annotating only disagreements: two candidates that give the same
 * output get the same score. Counts the audited agreeing items whose labelled difference is not 0
 * (|d| > 1e-12). The stratified estimator already uses the audit's mean for the agreeing cells,
 * so a failure widens the interval rather than biasing it; the count says the assumption failed.
 * @param audited the labelled agreeing items, with their A − B.
 * @returns see {@link AgreementAudit}.
 * @example auditAgreement([{ item: 'x', difference: 0 }, { item: 'y', difference: 1 }]).differing // => 1
 */
export function auditAgreement(audited: ReadonlyArray<{ item: string; difference: number }>): AgreementAudit {
  const bad = audited.filter((a) => Math.abs(a.difference) > 1e-12);
  return { audited: audited.length, differing: bad.length, examples: bad.slice(0, 5).map((a) => a.item), assumptionFailed: bad.length > 0 };
}
