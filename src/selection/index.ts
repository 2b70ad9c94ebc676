/**
 * src/selection: annotation designs that spend a label budget where it changes the answer —
 * where the candidates' outputs differ (with an audit of agreeing items), or actively with
 * probabilities favouring uncertain items — and the inverse-probability estimators that read the
 * labelled sample back into the whole pool's paired difference.
 */
export { EQUALITY_MODES, type EqualityMode, type OutputEqualityOptions, normaliseOutput, outputsMatch } from './equality.js';
export type { CellKind, PoolItem, DesignCell, DesignRow, SelectionDesign } from './types.js';
export { cappedInclusionProbabilities } from './inclusion-probabilities.js';
export { disagreementDesign, sampleWithoutReplacement, DEFAULT_AUDIT_SHARE, type DisagreementDesignOptions } from './disagreement-design.js';
export { activeDesign, type ActiveDesignOptions } from './active-design.js';
export { stratifiedDifferenceEstimate, type LabelledCell, type StratifiedDifferenceResult } from './stratified-estimate.js';
export { poissonDifferenceEstimate, type PoissonRow, type PoissonEstimateOptions, type PoissonDifferenceResult } from './poisson-estimate.js';
export { auditAgreement, type AgreementAudit } from './audit.js';
export { poolItems } from './pool-items.js';
export { designLabels, type DesignLabelsOptions, type DesignLabelsResult } from './design-sizing.js';
export { designDifference, partlyLabelledClusters, type DesignDifferenceResult } from './design-difference.js';
export { designGate, type DesignGateOptions, type DesignGateResult } from './design-gate.js';
export { clusterDisagreementDesign, MIXED_STRATUM, type ClusterDisagreementDesignOptions } from './cluster-design.js';
export { designWeightedMean, type WeightedDesignRow, type WeightedDesignOptions, type WeightedDesignResult } from './design-weighted-mean.js';
export { designHeadline, type DesignHeadlineOptions, type DesignHeadlineEstimate, type DesignHeadlineResult } from './design-headline.js';
