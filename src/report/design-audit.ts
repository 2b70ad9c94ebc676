import type { AgreementAudit } from '../selection/index.js';

/**
 * The audit line compare --design, gate --design and headline --design print: whether the
 * labelled agreeing items scored the same for both candidates (the design's assumption).
 * @example auditLine({ audited: 0, differing: 0, assumptionFailed: false, examples: [] }) // => 'Audit: no agreeing item was labelled, so "same output ⇒ same score" is assumed, not checked.'
 */
export function auditLine(audit: AgreementAudit): string {
  return audit.audited === 0
    ? 'Audit: no agreeing item was labelled, so "same output ⇒ same score" is assumed, not checked.'
    : audit.assumptionFailed
      ? `Audit: FAILED — ${audit.differing} of ${audit.audited} agreeing items scored differently.`
      : `Audit: all ${audit.audited} labelled agreeing items scored the same for both candidates.`;
}
