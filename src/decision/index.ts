/** src/decision: the decision the benchmark exists for — shortlist, review sample, sign-off, history. */
export { parseRequirement, REQUIREMENT_METRICS, type Requirement, type RequirementMetric } from './requirement.js';
export { shortlist, COST_RULE, type ShortlistOptions, type ShortlistResult, type ShortlistCandidate, type BarCheck, type ComparisonCheck, type CostComparisonCheck, type ScopeCost } from './shortlist.js';
export { costScopes, type CostScope } from './cost-scopes.js';
export { signoff, buildSignoffRecord, verifySignoff, readSignoff, signoffRecordText, SignoffRecordSchema, EvidenceSchema, SIGNOFF_RECORD_FORMAT, SIGNOFF_FOLDER, MAX_SIGNOFF_BYTES, EVIDENCE_ROLES, type SignoffRecord, type SignoffInput, type SignoffResult, type SignoffCheck, type SignoffIssue, type Evidence, type EvidenceRole } from './signoff.js';
export { reviewSample, defaultReviewStrata, REVIEW_STRATUM_PATTERN, type ReviewSample, type ReviewSampleOptions, type ReviewItem, type ReviewOutput, type ReviewItemInfo } from './review.js';
export { reviewPageHtml, reviewCsv, type ReviewPageSources } from './review-page.js';
export { boundaryDrift, type BoundaryAttribution, type BoundaryDriftOptions } from './boundary-drift.js';
export { runHistory, type HistoryRun, type HistoryOptions, type HistoryResult, type HistoryEntry, type HistoryModelRun, type HistoryPoint, type HistoryChange } from './history.js';
export { verifySignoffChain, type SignoffChainCheck } from '../rotation/signoff-chain.js';
export { readSignoffHead, signoffHeadText, readSmallFile, SignoffHeadSchema, SignoffLinkSchema, SIGNOFF_HEAD_FORMAT, SIGNOFF_HEAD_FILE, SIGNOFF_LOCK_PATH, SIGNOFF_LOCK_WAIT_MS, type SignoffHead, type SignoffLink, type SignoffHeadRead } from '../rotation/signoff-head.js';
export { rankCandidates, type RankOptions, type RankResult, type RankedCandidate } from './rank.js';
