/**
 * benchplan's public library API: the statistics, loaders and result types the docs describe
 * (docs/library.md), grouped by module. Every number the CLI prints comes from a function exported
 * here. Every module's types are exported; its runtime helpers (locks, temporary files, format
 * constants, root finders, bet sizes) are internals: tests and benches import them by path.
 */
export type * from './random/index.js';
export type * from './data/index.js';
export type * from './distributions/index.js';
export type * from './bootstrap/index.js';
export type * from './paired/index.js';
export type * from './gate/index.js';
export type * from './sizing/index.js';
export type * from './sequential/index.js';
export type * from './strata/index.js';
export type * from './costs/index.js';
export type * from './agreement/index.js';
export type * from './selection/index.js';
export type * from './judge/index.js';
export type * from './rotation/index.js';
export type * from './import/index.js';
export type * from './charts/index.js';
export type * from './report/index.js';
export type * from './testing/index.js';
export type * from './decision/index.js';
export type * from './label/index.js';

// Seeded randomness.
export { createRng, shuffle } from './random/index.js';

// The data layer: loaders, pairing, schemas of the input files, the error every loader throws.
export {
  InputError,
  CheckFailed,
  loadScores,
  loadStrata,
  loadPolicy,
  loadAnnotations,
  loadManifest,
  loadPool,
  loadDesign,
  scoresFromRows,
  alignModels,
  pairScores,
  itemMeans,
  strataFromSpec,
  outcomeKind,
  writeFileAtomic,
  OUTCOME_KINDS,
  OUTCOME_ALIASES,
  CostPolicySchema,
  StrataFileSchema,
  ManifestItemSchema,
  DesignFileSchema,
  IncidentSchema,
  loadJudgeLabels,
} from './data/index.js';

// Distributions (CDFs and quantiles, checked against R).
export {
  normalCdf,
  normalPdf,
  normalQuantile,
  studentTCdf,
  studentTPdf,
  studentTQuantile,
  noncentralTCdf,
  chiSquareCdf,
  chiSquareSf,
  chiSquareQuantile,
  betaQuantile,
  regularizedBeta,
  regularizedGamma,
  logGamma,
} from './distributions/index.js';

// Paired comparisons: intervals, tests, the every-pair comparison and the non-inferiority gate.
export {
  bootstrapMean,
  bootstrapMeanDifference,
  bootstrapMeanDifferenceParallel,
  bootstrapStatistic,
  studentizedBootstrap,
  signFlipTest,
  INTERVAL_METHODS,
  COMPARE_METHODS,
  ALTERNATIVE_HYPOTHESES,
} from './bootstrap/index.js';
export {
  autoPairedInterval,
  chooseIntervalMethod,
  bettingInterval,
  tInterval,
  cr2Interval,
  cr2StratifiedInterval,
  clusteredStandardError,
  collapseSmallStrata,
  pairedCounts,
  pairedProportionInterval,
  pairedItemsNeeded,
  tangoStatistic,
  exactScoreNonInferiority,
  mcnemarTest,
  mcnemarFromCounts,
  holmAdjust,
  sampleSkewness,
  cochranMinimumItems,
  compareModels,
  compareModelsParallel,
  PAIRED_PROPORTION_METHODS,
} from './paired/index.js';
export {
  nonInferiorityGate,
  nonInferiorityFromScores,
  gateVerdict,
  combineVerdicts,
  verdictExitCode,
  GATE_VERDICTS,
  VERDICT_EXIT_CODES,
  GATE_METHODS,
} from './gate/index.js';

// Sizing from a pilot.
export {
  itemsForIntervalWidth,
  itemsForPower,
  mdeForIntervalWidth,
  mdeForPower,
  pairedTTestPower,
  sizeFromPilot,
  sizePerStratum,
  sizeAllocationPlan,
  sizingCurve,
  clusterDesign,
  repeatSizing,
  summarizeDifferences,
  stratifiedVariance,
  varianceInterval,
} from './sizing/index.js';

// Anytime-valid confidence sequences, the monitor and the sequential gate.
export {
  AgrapaBettingSequence,
  EmpiricalBernsteinSequence,
  HedgedBettingSequence,
  confidenceSequence,
  createSequence,
  monitorComparison,
  monitorUnits,
  sequentialGate,
  sequentialVerdict,
  expectedItemsToDecision,
  SEQUENCE_METHODS,
} from './sequential/index.js';

// Strata: allocation and reweighted headlines.
export {
  allocateSample,
  boundedAllocation,
  compareAllocations,
  largestRemainder,
  reweightedHeadline,
  stratifiedHeadlines,
  stratumScores,
  stratumDiscordance,
  weightedProportionInterval,
  smallStrataInterval,
  StratumRangeError,
  ALLOCATION_METHODS,
  HEADLINE_INTERVAL_METHODS,
} from './strata/index.js';

// Costs: outcome kinds, expected cost and the exchange-rate sweep.
export {
  costSweep,
  sweepUncertainty,
  compareScorings,
  tallyOutcomes,
  outcomeRates,
  emptyOutcomeCounts,
  checkPolicyCovers,
  bandRankings,
  lineCrossings,
  pairCrossing,
  totalCostLines,
  wilsonInterval,
} from './costs/index.js';

// Annotator agreement.
export {
  rawAgreement,
  cohenKappa,
  fleissKappa,
  fleissKappaFromCounts,
  krippendorffAlpha,
  krippendorffAlphaInterval,
  agreementByType,
  agreementStatement,
  adjudicationList,
  adjudicationCsv,
  spanAgreement,
  spanOverlap,
  labelNoise,
} from './agreement/index.js';

// Annotation designs: where to label, and the estimators that go with them.
export {
  disagreementDesign,
  clusterDisagreementDesign,
  activeDesign,
  designDifference,
  designGate,
  designHeadline,
  designWeightedMean,
  poolItems,
  poissonDifferenceEstimate,
  stratifiedDifferenceEstimate,
  cappedInclusionProbabilities,
  sampleWithoutReplacement,
  auditAgreement,
  outputsMatch,
} from './selection/index.js';

// Judge-assisted (PPI++) estimation.
export {
  ppiMean,
  stratifiedPpiMean,
  judgedComparison,
  judgedItemsFromPool,
  labelledSubsetCheck,
  powerTuningLambda,
  judgeHumanCorrelation,
  NotRandomSubsetError,
  validateJudge,
  judgeAgreement,
  candidateBias,
  biasProbes,
  judgeDrift,
  roganGladen,
  olsHc3,
} from './judge/index.js';

// The archive: freeze, verify, rotate, diff, drift.
export {
  freezeVersion,
  verifyArchive,
  planRotation,
  prepareRotation,
  applyRotation,
  diffVersions,
  attributeDrift,
  driftScoresFromTable,
  findLeakage,
  findNearDuplicates,
  jaccardSimilarity,
  measureSaturation,
  saturationTrend,
  listArchiveVersions,
  readArchiveVersion,
  readArchiveHead,
  benchmarkFingerprint,
  benchmarkItemsFromManifest,
  VersionRecordSchema,
} from './rotation/index.js';

// Other tools' result files.
export {
  importResults,
  loadResults,
  readInspect,
  readLmEval,
  readPromptfoo,
  detectFileFormat,
  formatImportedScores,
  writeImportedScores,
  reduceEpochs,
  parseEpochReducer,
  IMPORT_FORMATS,
  EPOCH_REDUCERS,
} from './import/index.js';

// Charts (vega-lite specs; SVG and PNG without a browser).
export {
  agreementChartSpec,
  allocationChartSpec,
  costSweepSpec,
  driftChartSpec,
  forestPlotSpec,
  historyChartSpec,
  rotationPlanSpec,
  sizingCurveSpec,
  stratumScoresSpec,
  finishChartSpec,
  compileChart,
  renderChartSvg,
  renderChartPng,
  writeChart,
} from './charts/index.js';

// Reports: tables, Markdown summaries, the self-contained HTML page.
export {
  buildReport,
  reportHtml,
  htmlPage,
  figureHtml,
  tableHtml,
  escapeHtml,
  compareMarkdown,
  gateMarkdown,
  headlineMarkdown,
  sweepMarkdown,
  markdownTable,
  formatNonInferiorityReport,
  formatInterval,
  formatNumber,
  formatPercent,
  formatTable,
} from './report/index.js';

// In a test suite.
export { expectNoRegression, RegressionError } from './testing/index.js';

// The decision: shortlist, review sample, sign-off, history.
export {
  shortlist,
  parseRequirement,
  reviewSample,
  reviewCsv,
  reviewPageHtml,
  defaultReviewStrata,
  signoff,
  verifySignoff,
  verifySignoffChain,
  readSignoff,
  runHistory,
  boundaryDrift,
  rankCandidates,
} from './decision/index.js';

// The labelling loop: propose, record, decide (runLabelLoop and the internals: import by path).
export { startLabelLoop, proposeLabelBatch, recordLabelAnswers, labelLoopStatus } from './label/index.js';
