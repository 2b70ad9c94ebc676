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
  chiSquareSf,
  chiSquareQuantile,
} from './distributions.js';
export { betaQuantile } from './beta-quantile.js';
