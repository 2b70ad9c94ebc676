/** src/decision: the decision the benchmark exists for — shortlist, review sample, sign-off, history. */
export { parseRequirement, REQUIREMENT_METRICS, type Requirement, type RequirementMetric } from './requirement.js';
export { shortlist, type ShortlistOptions, type ShortlistResult, type ShortlistCandidate, type BarCheck, type ComparisonCheck } from './shortlist.js';
