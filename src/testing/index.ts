/**
 * src/testing: the test-assertion entry (vitest / jest): expectNoRegression loads a scores file or
 * takes a table or arrays, runs the gate (src/bootstrap) and throws a RegressionError whose message
 * is the report (src/report). It is the one place that joins loading, statistics and formatting.
 */
export { expectNoRegression, RegressionError, type ExpectNoRegressionOptions } from './expect-no-regression.js';
