export { stratifiedVariance } from './stratified.js';
export { ceilCount, brentRoot } from './counts.js';
export { itemsForIntervalWidth, mdeForIntervalWidth, criticalZ, type IntervalSizing, type IntervalSizingOptions } from './interval.js';
export { pairedTTestPower, itemsForPower, mdeForPower, type PowerAlternative, type PowerSizing, type PowerSizingOptions } from './power.js';
export { summarizeDifferences, varianceInterval, type DifferenceSummary } from './variance.js';
export { clusterDesign, type ClusterDesign } from './clusters.js';
export { repeatSizing, type RepeatInput, type RepeatRow, type RepeatSizing } from './repeats.js';
export {
  sizePerStratum,
  sizeAllocationPlan,
  MIN_STRATUM_PILOT_ITEMS,
  MIX_DISTANCE_WARNING,
  type SizingSettings,
  type StratumSizing,
  type PlanStratum,
  type PlanEstimator,
  type PlanSizing,
} from './per-stratum.js';
export { sizingCurve, defaultCurveMdes, type PilotCurvePoint } from './curve.js';
export { sizeFromPilot, SMALL_PILOT_ITEMS, type PilotSizingOptions, type PilotSizing, type ClusterSizing } from './pilot.js';
