/**
 * The closing line CI reads must never hide a failure: runs vitest on fixture suites (a passing
 * one, one whose beforeAll throws, one that cannot load) with the summary reporter and reads the line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

function summaryOf(files: string[]): { line: string | undefined; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'benchplan-reporter-'));
  try {
    const config = join(dir, 'vitest.config.mjs');
    writeFileSync(config, `export default { test: { root: ${JSON.stringify(root)}, include: ${JSON.stringify(files)}, reporters: [${JSON.stringify(join(root, 'tests', 'summary-reporter.ts'))}] } };\n`);
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    const line = run.stdout.split('\n').filter((l) => /^\d+ passed, \d+ failed$/.test(l)).at(-1);
    return { line, status: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('summary reporter', () => {
  it('counts a passing suite as passed', () => {
    expect(summaryOf(['tests/fixtures/reporter/passing.fixture.ts'])).toEqual({ line: '1 passed, 0 failed', status: 0 });
  });

  it('counts a suite whose beforeAll throws as one failure, and vitest exits non-zero', () => {
    const { line, status } = summaryOf(['tests/fixtures/reporter/passing.fixture.ts', 'tests/fixtures/reporter/broken-hook.fixture.ts']);
    expect(line).toBe('1 passed, 1 failed');
    expect(status).not.toBe(0);
  });

  it('counts a suite that cannot load as one failure', () => {
    const { line, status } = summaryOf(['tests/fixtures/reporter/broken-import.fixture.ts']);
    expect(line).toBe('0 passed, 1 failed');
    expect(status).not.toBe(0);
  });
});
