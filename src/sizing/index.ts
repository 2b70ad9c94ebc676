export { stratifiedVariance } from './stratified.js';
export {
  logGamma,
  regularizedBeta,
  regularizedGamma,
  normalCdf,
  normalPdf,
  normalQuantile,
  studentTCdf,
  studentTPdf,
  studentTQuantile,
  noncentralTCdf,
  chiSquareCdf,
  chiSquareQuantile,
} from './distributions.js';
export { ceilCount, brentRoot } from './counts.js';
export { itemsForIntervalWidth, mdeForIntervalWidth, criticalZ, type IntervalSizing, type IntervalSizingOptions } from './interval.js';
export { pairedTTestPower, itemsForPower, mdeForPower, type PowerAlternative, type PowerSizing, type PowerSizingOptions } from './power.js';
