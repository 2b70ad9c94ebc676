import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openInputFile, readInputBytes, readInputText, readTextChunks } from '../../src/data/read.js';
import { tempDir, writeInput } from '../helpers/files.js';

describe('the shared bounded reader', () => {
  const dir = tempDir('benchplan-read-');

  it('reads a regular file whole', () => {
    const path = writeInput(dir, 'a.txt', 'hello');
    expect(readInputText(path, { maxBytes: 5 })).toBe('hello');
  });

  it('refuses a file over the limit from its size, before reading', () => {
    const path = writeInput(dir, 'b.txt', 'x'.repeat(20));
    expect(() => readInputBytes(path, { maxBytes: 10 })).toThrow(`${path}: is larger than 10 bytes, the limit for this kind of file`);
  });

  it('stops at the limit when the size lies: /proc files say 0 bytes and hold more', () => {
    expect(openInputFile('/proc/self/status').size).toBe(0);
    expect(() => readInputBytes('/proc/self/status', { maxBytes: 10, tooLarge: (n) => `grew to ${n} bytes` })).toThrow(/\/proc\/self\/status: grew to \d+ bytes/);
  });

  it('refuses a FIFO without blocking, a device, a folder', () => {
    const fifo = join(dir, 'f.csv');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => [...readTextChunks(fifo)]).toThrow(`${fifo}: not a regular file (got fifo)`);
    const zero = join(dir, 'z.yaml');
    symlinkSync('/dev/zero', zero);
    expect(() => readInputText(zero, { maxBytes: 1 << 20 })).toThrow(`${zero}: not a regular file (got character device)`);
    const folder = join(dir, 'd.json');
    mkdirSync(folder);
    expect(() => readInputText(folder, { maxBytes: 1 << 20 })).toThrow(`${folder}: not a regular file (got directory)`);
  });

  it('names a file a manifest points at by the manifest line and field', () => {
    const folder = join(dir, 'docs');
    mkdirSync(folder, { recursive: true });
    expect(() => readInputBytes(folder, { maxBytes: 1, place: { file: 'm.yaml', line: 3, field: 'path', value: 'docs' } })).toThrow('m.yaml:3: path must name a regular file ("docs" is a directory)');
  });

  it('names a missing file by its error code', () => {
    expect(() => readInputText(join(dir, 'nope'), { maxBytes: 1 })).toThrow(/nope: cannot read file: ENOENT/);
  });
});
