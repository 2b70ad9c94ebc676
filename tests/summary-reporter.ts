import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain `N passed, N failed` line that CI reads: vitest's own summary is
 * formatted for people. A file that fails to load counts as one failure, so a broken
 * import cannot look like a green run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const module of testModules) {
      let cases = 0;
      for (const test of module.children.allTests()) {
        cases += 1;
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
      }
      if (cases === 0 && module.state() === 'failed') failed += 1;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
