import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that replace a module or a global (vi.mock, vi.spyOn, vi.stubEnv, vi.stubGlobal, fake
 * timers) or count calls into the library: they run in a fresh module graph of their own. Every other
 * file shares its worker's modules with the files before it (isolate: false), which spares each file
 * re-importing and re-evaluating src/ — about 30% of the CPU of the in-process suites on this 2-core
 * machine. tests/api/test-isolation.test.ts fails when a file that needs isolation is missing here.
 */
export const ISOLATED = [
  'tests/bootstrap/compare-models.test.ts',
  'tests/bootstrap/threads-path.test.ts',
  'tests/import/limits.test.ts',
  'tests/rotation/io.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One worker per core: vitest's default leaves one core idle, which on a 2-core machine halves the
    // suite's speed (6 min 50 s → 4 min 26 s for npm test here; most suites wait on child processes).
    maxWorkers: availableParallelism(),
    // The default reporter for people, and a one-line summary CI can read.
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['tests/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
