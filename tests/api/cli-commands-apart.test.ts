import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAZY_COMMANDS } from '../../src/cli/command-line.js';

// Command files do not reach into each other: src/cli/COMMAND.ts and its parts (COMMAND-*.ts, e.g.
// gate-design.ts) may import each other and the shared CLI helpers (io.ts, command-line.ts,
// output-format.ts, sources.ts, shared-flags.ts, sequential-flags.ts, ...: any file that is not a
// command's), never another command's files; what two commands share lives in the library
// (src/data, src/report, src/selection, ...) or in a named helper.
const dir = join(import.meta.dirname, '..', '..', 'src', 'cli');
const commands = [...LAZY_COMMANDS].sort((a, b) => b.length - a.length);
/** The command a file belongs to (COMMAND.ts or COMMAND-part.ts), or undefined for a shared helper. */
const ownerOf = (file: string) => commands.find((c) => file === `${c}.ts` || file.startsWith(`${c}-`));


describe('command files do not import each other', () => {
  it('every import of src/cli from a command file is its own command\'s or a shared helper', () => {
    const crossings: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const owner = ownerOf(file);
      if (owner === undefined) continue;
      for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/from '\.\/([\w-]+)\.js'/g)) {
        const target = `${m[1]}.ts`;
        const other = ownerOf(target);
        if (other !== undefined && other !== owner) crossings.push(`${file} -> ${target}`);
      }
    }
    expect(crossings.sort()).toEqual([]);
  });
  it('recognises a crossing (gate-design.ts reading compare-design.ts would be one)', () => {
    expect([ownerOf('gate-design.ts'), ownerOf('compare-design.ts'), ownerOf('io.ts'), ownerOf('shared-flags.ts')]).toEqual(['gate', 'compare', undefined, undefined]);
  });
});
