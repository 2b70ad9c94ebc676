import type { Command } from '@commander-js/extra-typings';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { assertOutputsApart, type NamedPath } from '../data/output-paths.js';
import { removeDeadWritersFilesIn } from '../rotation/leftovers.js';

/** Per command, the options (attribute names) that name files it writes; `chart` is every command's. */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  select: ['output', 'out', 'design'],
  review: ['output', 'csv'],
  import: ['output'],
  report: ['output'],
  shortlist: ['output'],
  agree: ['adjudicate'],
};
/** Options a command reads and rewrites (gate --sequential's state): an output that may be itself, never another input. */
const READ_WRITE_OPTIONS: Readonly<Record<string, readonly string[]>> = { gate: ['state'] };

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files a parsed command writes and the existing files it reads, each with the flag or
 * argument that named it: outputs are the options listed above (and `--chart`), inputs every
 * argument and every other option whose value is an existing regular file.
 */
export function commandPaths(command: Command): { outputs: NamedPath[]; inputs: NamedPath[] } {
  const name = command.name();
  const opts = command.opts() as Record<string, unknown>;
  const outNames = new Set([...(OUTPUT_OPTIONS[name] ?? []), ...(READ_WRITE_OPTIONS[name] ?? []), 'chart']);
  const outputs: NamedPath[] = [];
  const inputs: NamedPath[] = [];
  for (const option of command.options) {
    const key = option.attributeName();
    const value = opts[key];
    const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    const flag = option.long ?? option.short ?? key;
    for (const v of values) {
      if (outNames.has(key)) outputs.push({ flag, path: v });
      else if (isRegularFile(v)) inputs.push({ flag, path: v });
    }
  }
  command.registeredArguments.forEach((argument, k) => {
    const value = command.args.slice(k, argument.variadic ? undefined : k + 1);
    for (const v of value) if (isRegularFile(v)) inputs.push({ flag: argument.name().toUpperCase(), path: v });
  });
  return { outputs, inputs };
}

/**
 * Runs before every command's action: refuses a command whose output would replace one of its
 * inputs or another of its outputs (exit 2 naming both, assertOutputsApart), then removes from
 * each output's folder the temporary files that dead writers left there (removeDeadWritersFilesIn).
 * @throws {InputError} from assertOutputsApart.
 */
export function guardOutputs(command: Command): void {
  const { outputs, inputs } = commandPaths(command);
  if (outputs.length === 0) return;
  assertOutputsApart(outputs, inputs);
  const now = Date.now();
  for (const dir of new Set(outputs.map((o) => dirname(resolve(o.path))))) removeDeadWritersFilesIn(dir, { now });
}
