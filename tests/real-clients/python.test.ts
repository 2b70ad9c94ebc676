import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The Python package's pytest suite (python/tests: every command against the CLI's JSON, the
// Inspect hook on logs the real inspect-ai writes, the notebook executed), from vitest for people
// who run `BENCHPLAN_REAL_CLIENTS=1 npx vitest run tests/real-clients`. CI runs pytest itself in
// scripts/ci-extra.sh (its counts then add up test by test). `npm test` on a machine with Node
// alone skips it and says why.
const root = resolve(import.meta.dirname, '..', '..');
const python = join(root, '.venv', 'bin', 'python');
const skipReason =
  process.env.BENCHPLAN_REAL_CLIENTS !== '1'
    ? 'BENCHPLAN_REAL_CLIENTS is not 1 (scripts/ci-extra.sh runs pytest after scripts/setup-real-clients.sh)'
    : !existsSync(python)
      ? '.venv/ not installed (run scripts/setup-real-clients.sh python)'
      : '';
if (skipReason !== '') console.log(`python: pytest suite skipped: ${skipReason}`);

describe.skipIf(skipReason !== '')('the Python package (pytest)', () => {
  it('passes python/tests', () => {
    const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'python/tests'], { cwd: root, encoding: 'utf8', timeout: 1_200_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  }, 1_260_000);
});
