import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder for one test file's inputs and outputs. */
export function tempDir(prefix = 'benchplan-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `content` to `name` inside `dir` and returns the full path. */
export function writeInput(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
