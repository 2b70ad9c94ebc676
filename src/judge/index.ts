/**
 * src/judge: prediction-powered inference (PPI++) — an LLM judge's scores on every item plus
 * human labels on a random subset give a valid interval, narrower the better the judge tracks
 * the humans.
 */
export { sampleMean, populationVariance, populationCovariance } from './moments.js';
export { powerTuningLambda } from './power-tuning.js';
export { ppiMean, type PpiMeanOptions, type PpiMeanResult } from './ppi-mean.js';
export { stratifiedPpiMean, PPI_MIN_STRATUM_LABELS, type PpiStratum, type StratifiedPpiOptions, type StratifiedPpiResult } from './stratified-ppi.js';
export { labelledSubsetCheck, type LabelledSubsetCheck } from './subset-check.js';
export { judgedComparison, NotRandomSubsetError, type JudgedItem, type JudgedComparisonOptions, type JudgedComparisonResult } from './judged-comparison.js';
export { judgedItemsFromPool } from './judged-items.js';
export { judgeHumanCorrelation } from './correlation.js';
export { olsHc3, type OlsHc3Result } from './ols-hc3.js';
export { biasProbes, type ProbeTerm, type BiasProbe, type BiasProbesOptions, type BiasProbesResult } from './bias-probes.js';
export { roganGladen, type RoganGladenCounts, type RoganGladenResult } from './rogan-gladen.js';
export { judgeAgreement, calibrationTable, pearsonWithInterval, normalMean, type JudgeAgreement, type JudgeShare, type JudgeMean, type CalibrationBin } from './judge-agreement.js';
export { candidateBias, type CandidateBias } from './candidate-bias.js';
export { judgeDrift, type JudgeDrift, type FlippedRow } from './judge-drift.js';
export { validateJudge, JudgeDataError, type JudgeRow, type ValidateJudgeOptions, type JudgeValidation } from './validate-judge.js';
export { correctedRates, type CorrectionRow, type CorrectionSource, type CorrectedRate, type CorrectedDifference, type CorrectedRates } from './corrected-rates.js';
