import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';

// Most test files share their worker's modules (vitest.config.ts, isolate: false). A file that
// replaces a module or a global, or spies on one, would leak into the files after it: it must be
// listed in ISOLATED, where it gets a module graph of its own.
const root = join(import.meta.dirname, '..', '..');
const MARKS = /\bvi\.(mock|doMock|spyOn|stubEnv|stubGlobal|useFakeTimers)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

describe('test files that replace modules or globals run isolated', () => {
  const files = testFiles(join(root, 'tests')).map((f) => relative(root, f).split('\\').join('/'));
  it('every file using vi.mock, vi.spyOn, vi.stubEnv, vi.stubGlobal or fake timers is in ISOLATED', () => {
    const needing = files.filter((f) => f !== 'tests/api/test-isolation.test.ts' && MARKS.test(readFileSync(join(root, f), 'utf8')));
    expect(needing.filter((f) => !ISOLATED.includes(f))).toEqual([]);
  });
  it('ISOLATED names only files that exist', () => {
    expect(ISOLATED.filter((f) => !files.includes(f))).toEqual([]);
  });
});
