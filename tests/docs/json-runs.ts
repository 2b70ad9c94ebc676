// The JSON every command prints on the docs' own examples: each command page (docs/COMMAND.md) runs
// as a script (tests/docs/script.ts), every `npx benchplan` line of it with `--json` (a `--format`
// becomes `--format json`), in a fresh folder, in order (a later line may read what an earlier one
// wrote). scripts/json-schemas.ts drafts the schemas from these documents and
// tests/docs/json-schemas.test.ts validates them against docs/schemas/COMMAND.schema.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageBlocks, root, runCli, words } from './script.js';

/** One command line of a page, run with `--json`, and what it printed. */
export interface JsonRun {
  page: string;
  line: number;
  /** The command name (the first word after `benchplan`). */
  command: string;
  args: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The words of a docs command line with JSON output asked for. */
export function withJson(args: readonly string[]): string[] {
  const k = args.indexOf('--format');
  if (k >= 0) return [...args.slice(0, k + 1), 'json', ...args.slice(k + 2)];
  return args.includes('--json') ? [...args] : [...args, '--json'];
}

/** Runs every command line of `page` (a path under the repository) with `--json`, in order, in `cwd`. */
export async function jsonRunsOfPage(page: string, cwd: string): Promise<JsonRun[]> {
  const runs: JsonRun[] = [];
  for (const block of pageBlocks(readFileSync(join(root, page), 'utf8'))) {
    for (const line of block.commands) {
      const args = withJson(words(line).slice(2));
      runs.push({ page, line: block.line, command: args[0], args, ...(await runCli(args, cwd)) });
    }
  }
  return runs;
}
