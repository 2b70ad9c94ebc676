/**
 * benchplan's public library API: re-exports only, grouped by module (DESIGN.md "Layout").
 * Every number the CLI prints comes from a function exported here.
 */
export * from './random/index.js';
export * from './data/index.js';
export * from './distributions/index.js';
export * from './bootstrap/index.js';
export * from './sizing/index.js';
export * from './sequential/index.js';
export * from './strata/index.js';
export * from './costs/index.js';
export * from './agreement/index.js';
export * from './selection/index.js';
export * from './judge/index.js';
export * from './rotation/index.js';
export * from './import/index.js';
export * from './charts/index.js';
export * from './report/index.js';
export * from './testing/index.js';
export * from './decision/index.js';
