import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain `N passed, N failed` line that CI reads: vitest's own summary is
 * formatted for people. A suite that fails outside its tests (a file that fails to load, a
 * beforeAll that throws and leaves every test skipped) counts as one failure, and so does each
 * unhandled error, so a broken suite can never look like a green run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const { passed, failed } = countResults(testModules, unhandledErrors.length);
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}

/** Passed and failed counts over modules: failed tests, plus one for each module that failed with none. */
export function countResults(testModules: ReadonlyArray<TestModule>, unhandledErrors: number): { passed: number; failed: number } {
  let passed = 0;
  let failed = unhandledErrors;
  for (const module of testModules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed += 1;
      else if (state === 'failed') failedHere += 1;
    }
    const suiteFailed = module.state() === 'failed' || module.errors().length > 0 || hasFailedSuite(module);
    failed += failedHere > 0 ? failedHere : suiteFailed ? 1 : 0;
  }
  return { passed, failed };
}

function hasFailedSuite(module: TestModule): boolean {
  for (const suite of module.children.allSuites()) if (suite.state() === 'failed') return true;
  return false;
}
