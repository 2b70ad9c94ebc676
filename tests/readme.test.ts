import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../src/cli/program.js';
import { tempDir } from './helpers/files.js';

// The README is a script: its shell blocks run top to bottom, as a user would type them, in ONE
// fresh folder holding the bundled examples (so a later block sees what an earlier one wrote,
// and a block that writes what an earlier one already wrote fails here as it would for a user).
// The whole run is done twice: in a fresh folder, and in a fresh folder after `npm run demo`
// (whose outputs land in out/). Where the README quotes what a command prints (a plain ``` block
// after a shell block; a ```text block is not output), every quoted line must have been printed
// by that block or an earlier one.
// `npm` lines are not run here (npm test has built the bin; `npm run bench` is bench/'s, and
// the demo runs once, before the second pass).
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'benchplan.js');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Block {
  /** README line of the block's opening fence. */
  line: number;
  /** The `npx benchplan` commands, continuation lines joined, comments dropped. */
  commands: string[];
  /** The output the README quotes for the block, if any. */
  quoted: string[];
}

/** The shell blocks with their `npx benchplan` commands and the output quoted after each. */
function readmeBlocks(text: string): Block[] {
  const fences = [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2], line: text.slice(0, m.index).split('\n').length }));
  const blocks: Block[] = [];
  for (const fence of fences) {
    if (fence.lang === 'sh' || fence.lang === 'bash') {
      const commands = fence.body
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line.startsWith('npx benchplan '));
      blocks.push({ line: fence.line, commands, quoted: [] });
    } else if (fence.lang === '' && blocks.length > 0) {
      blocks[blocks.length - 1].quoted.push(...fence.body.split('\n'));
    }
  }
  return blocks.filter((b) => b.commands.length > 0);
}

/** Splits a command line into words: plain words and single- or double-quoted strings. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Quoted lines a test can hold the output to: not blank, not elided (`…`, `...`). */
function checkable(lines: readonly string[]): string[] {
  return lines.map((l) => l.trimEnd()).filter((l) => l.trim() !== '' && !l.includes('…') && !l.includes('...'));
}

const blocks = readmeBlocks(readme);

function freshFolder(): string {
  const cwd = tempDir('benchplan-readme-');
  symlinkSync(join(root, 'examples'), join(cwd, 'examples'));
  return cwd;
}

/**
 * Runs a block's commands in `cwd`, then checks the output the README quotes after it against
 * everything printed so far in this pass (`printed`, updated): a section may quote what an
 * earlier block of it printed, with another section's block in between.
 */
function runBlock(cwd: string, block: Block, printed: { text: string }): void {
  for (const line of block.commands) {
    const args = words(line).slice(2);
    const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
    // gate exits 1 when the candidate regresses: the README shows both outcomes.
    const allowed = args[0] === 'gate' ? [0, 1] : [0];
    expect(allowed, `README line ${block.line}: ${line}\n${result.stderr}`).toContain(result.status);
    if (result.status === 0) expect(result.stdout.length, line).toBeGreaterThan(0);
    printed.text += result.stdout;
  }
  // White space is compared loosely: the README wraps long printed lines and may align differently.
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  const all = flat(printed.text);
  for (const quoted of checkable(block.quoted)) expect(all, `README line ${block.line}: quoted output not printed: ${quoted}`).toContain(flat(quoted));
}

describe('README examples', () => {
  it('has runnable examples for every command', () => {
    const commands = new Set(blocks.flatMap((b) => b.commands).map((line) => words(line)[2]));
    // Every command the program registers, so a new command cannot land undocumented.
    const registered = createProgram().commands.map((c) => c.name());
    expect(registered.length).toBeGreaterThan(15);
    for (const command of registered) {
      expect(commands.has(command), command).toBe(true);
    }
  });

  for (const pass of ['in a fresh folder', 'after npm run demo'] as const) {
    describe(`top to bottom, ${pass}`, () => {
      let cwd = '';
      const printed = { text: '' };
      it('sets up the folder', () => {
        expect(existsSync(bin)).toBe(true);
        cwd = freshFolder();
        if (pass === 'after npm run demo') {
          // What `npm run demo` does in a clone: every command into ./out (here the folder's out/).
          const demo = spawnSync(process.execPath, [join(root, 'scripts', 'demo.mjs'), join(cwd, 'out')], { cwd: root, encoding: 'utf8' });
          expect(demo.status, demo.stderr).toBe(0);
        }
      }, 180_000);

      blocks.forEach((block, k) => {
        it(`block ${k + 1} (README line ${block.line}): ${block.commands[0].slice(14, 70)}`, () => {
          expect(cwd).not.toBe('');
          runBlock(cwd, block, printed);
        });
      });

      it('wrote nothing outside the folders the examples name (out/)', () => {
        expect(readdirSync(cwd).sort()).toEqual(['examples', 'out']);
      });
    });
  }
});
