import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from './errors.js';

/** A file a command reads or writes, with the flag or argument that named it. */
export interface NamedPath {
  /** The flag (`-o`, `--csv`) or argument (`POOL`) that named the path. */
  flag: string;
  path: string;
}

/** Where a path leads: its folder resolved through links, plus its name; and its inode when it exists (a hard link is the same file). */
function identity(path: string): { where: string; inode: string | null } {
  let where: string;
  try {
    where = realpathSync(path);
  } catch {
    try {
      where = join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      where = resolve(path);
    }
  }
  let inode: string | null = null;
  try {
    const s = statSync(path);
    if (s.isFile()) inode = `${s.dev}:${s.ino}`;
  } catch {
    // not there yet
  }
  return { where, inode };
}

function same(a: { where: string; inode: string | null }, b: { where: string; inode: string | null }): boolean {
  return a.where === b.where || (a.inode !== null && a.inode === b.inode);
}

/**
 * Refuses, before anything is read or written, a command whose output would replace one of its
 * own inputs, or two of whose outputs are one file (the second write would replace the first):
 * paths are compared after resolving links and `..`, and existing files also by inode (a hard
 * link). The message names both paths and the flags that gave them.
 * @param outputs the files the command writes.
 * @param inputs the files it reads (folders are skipped).
 * @throws {InputError} `FLAG: is also INPUT-FLAG (PATH): the command would overwrite its own input (got PATH)`.
 * @example assertOutputsApart([{ flag: '-o', path: 'pool.csv' }], [{ flag: 'POOL', path: 'pool.csv' }]) // throws "-o: would overwrite its own input POOL (pool.csv) …"
 */
export function assertOutputsApart(outputs: readonly NamedPath[], inputs: readonly NamedPath[]): void {
  const outs = outputs.map((o) => ({ ...o, id: identity(o.path) }));
  for (let i = 0; i < outs.length; i++) {
    const o = outs[i] as (typeof outs)[number];
    for (const x of inputs) {
      if (same(o.id, identity(x.path))) throw new InputError(`would overwrite its own input ${x.flag} (${x.path}); write the output elsewhere`, { file: o.flag, value: o.path });
    }
    for (let j = 0; j < i; j++) {
      const p = outs[j] as (typeof outs)[number];
      if (same(o.id, p.id)) throw new InputError(`is the same file as ${p.flag} (${p.path}): one output would replace the other; give two different files`, { file: o.flag, value: o.path });
    }
  }
}
