// The docs are a script: each page's shell blocks run top to bottom, as a user would type them, in
// ONE fresh folder per page holding the bundled examples (so a later block sees what an earlier one
// wrote, and a block that writes what an earlier one already wrote fails here as it would for a user).
// Where a page quotes what a command prints (a plain ``` block after a shell block; a ```text block is
// not output), every quoted line must have been printed by that block or an earlier one on the page.
// `npm` and other non-benchplan lines are not run here.
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/files.js';

export const root = resolve(import.meta.dirname, '..', '..');
export const bin = join(root, 'bin', 'benchplan.js');

export interface Block {
  /** Page line of the block's opening fence. */
  line: number;
  /** The `npx benchplan` commands, continuation lines joined, comments dropped. */
  commands: string[];
  /** The output the page quotes for the block, if any. */
  quoted: string[];
}

/** The shell blocks of a Markdown page with their `npx benchplan` commands and the output quoted after each. */
export function pageBlocks(text: string): Block[] {
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
export function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Quoted lines a test can hold the output to: not blank, not elided (`…`, `...`). */
function checkable(lines: readonly string[]): string[] {
  return lines.map((l) => l.trimEnd()).filter((l) => l.trim() !== '' && !l.includes('…') && !l.includes('...'));
}

/** A fresh folder with the bundled examples linked in. */
export function freshFolder(): string {
  const cwd = tempDir('benchplan-docs-');
  symlinkSync(join(root, 'examples'), join(cwd, 'examples'));
  return cwd;
}

/** Runs the built CLI (bin/benchplan.js) with ARGS in `cwd` as a child process. */
export function runCli(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Runs every block of `page` (a path under the repository) in `cwd`, in order, and returns the
 * problems found (an empty list when the page runs as written).
 */
export async function runPage(page: string, cwd: string): Promise<string[]> {
  const text = readFileSync(join(root, page), 'utf8');
  const problems: string[] = [];
  let printed = '';
  for (const block of pageBlocks(text)) {
    for (const line of block.commands) {
      const args = words(line).slice(2);
      const result = await runCli(args, cwd);
      // gate exits 1 on a regression shown and 3 when it cannot decide: the docs show every outcome.
      const allowed = args[0] === 'gate' ? [0, 1, 3] : [0];
      if (!allowed.includes(result.status ?? -1)) problems.push(`${page}:${block.line}: ${line}\n  exit ${result.status}\n  ${result.stderr.trim()}`);
      else if (result.status === 0 && result.stdout.length === 0) problems.push(`${page}:${block.line}: ${line}\n  printed nothing`);
      printed += result.stdout;
    }
    // White space is compared loosely: a page wraps long printed lines and may align differently.
    const all = flat(printed);
    for (const quoted of checkable(block.quoted)) if (!all.includes(flat(quoted))) problems.push(`${page}:${block.line}: quoted output not printed: ${quoted}`);
  }
  return problems;
}
