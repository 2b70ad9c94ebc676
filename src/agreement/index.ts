/**
 * src/agreement: annotator agreement per clause type — raw agreement, Cohen's kappa with its
 * standard error, Fleiss' kappa, Krippendorff's alpha (nominal, ordinal, interval, ratio) with a
 * bootstrap interval, span agreement, the adjudication list, and a plain statement per type.
 */
export { type LabelMatrix, type LabelSpan, type TypeLabels, ALL_CLAUSE_TYPES, labelsByType, labelsAreSpans, annotatorColumn } from './labels.js';
export { type RawAgreementResult, rawAgreement } from './raw.js';
export { type CohenKappaResult, cohenKappa } from './cohen.js';
export { type FleissKappaResult, fleissKappa, fleissKappaFromCounts } from './fleiss.js';
export { type AlphaLevel, type AlphaValue, type KrippendorffAlphaResult, ALPHA_LEVELS, krippendorffAlpha } from './krippendorff.js';
export { type AlphaIntervalOptions, type AlphaIntervalResult, krippendorffAlphaInterval } from './alpha-interval.js';
export { type SpanAgreementResult, spanOverlap, spanAgreement } from './spans.js';
export { ALPHA_RELIABLE, ALPHA_TENTATIVE, labelNoise, agreementInWords, agreementStatement } from './statement.js';
export { type AdjudicationItem, type AdjudicationList, adjudicationList, adjudicationCsv } from './adjudication.js';
export { type AgreementOptions, type TypeAgreement, type AgreementByTypeResult, agreementByType } from './by-type.js';
