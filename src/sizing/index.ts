export { stratifiedVariance } from './stratified.js';
