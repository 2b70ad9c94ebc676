import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/files.js';

// Every `npx benchplan …` line of the README runs, block by block, as a user would type it: the
// built bin (npm test builds first), from a fresh folder holding the bundled examples.
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'benchplan.js');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The shell blocks' `npx benchplan` commands, continuation lines joined, comments dropped. */
function commandBlocks(text: string): string[][] {
  const blocks: string[][] = [];
  for (const match of text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)) {
    const joined = match[1].replace(/\\\n\s*/g, ' ');
    const commands = joined
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.startsWith('npx benchplan '));
    if (commands.length > 0) blocks.push(commands);
  }
  return blocks;
}

/** Splits a command line into words: plain words and single- or double-quoted strings. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const blocks = commandBlocks(readme);

describe('README examples', () => {
  it('has runnable examples for every command', () => {
    const commands = new Set(blocks.flat().map((line) => words(line)[2]));
    for (const command of ['compare', 'size', 'allocate', 'headline', 'sweep', 'agree', 'freeze', 'verify', 'rotate', 'diff', 'drift', 'gate', 'import', 'report', 'validate', 'shortlist', 'review', 'signoff', 'history']) {
      expect(commands.has(command), command).toBe(true);
    }
  });

  blocks.forEach((block, k) => {
    it(`block ${k + 1}: ${block[0].slice(14, 70)}`, () => {
      expect(existsSync(bin)).toBe(true);
      const cwd = tempDir('benchplan-readme-');
      symlinkSync(join(root, 'examples'), join(cwd, 'examples'));
      for (const line of block) {
        const args = words(line).slice(2);
        const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
        // gate exits 1 when the candidate regresses: the README shows both outcomes.
        const allowed = args[0] === 'gate' ? [0, 1] : [0];
        expect(allowed, `${line}\n${result.stderr}`).toContain(result.status);
        if (result.status === 0) expect(result.stdout.length, line).toBeGreaterThan(0);
      }
    });
  });
});
