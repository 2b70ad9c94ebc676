import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The default reporter for people, and a one-line summary CI can read.
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
