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
