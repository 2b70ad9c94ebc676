import type { Command } from '@commander-js/extra-typings';
import { processIo, type Io } from './io.js';
import { finishProgram, programShell, runProgram } from './program-shell.js';

type Register = (program: Command, io: Io) => void;

/**
 * Each command's module, loaded only when its name is on the command line: the bundled CLI then
 * reads and compiles that command's code and no other's (start-up, issue #19). Same names as
 * createProgram registers; a command missing here still runs, through the whole program.
 */
const COMMAND_MODULES = new Map<string, () => Promise<{ register: Register }>>([
  ['compare', () => import('./compare.js')],
  ['size', () => import('./size.js')],
  ['allocate', () => import('./allocate.js')],
  ['headline', () => import('./headline.js')],
  ['sweep', () => import('./sweep.js')],
  ['select', () => import('./select.js')],
  ['agree', () => import('./agree.js')],
  ['freeze', () => import('./freeze.js')],
  ['verify', () => import('./verify.js')],
  ['rotate', () => import('./rotate.js')],
  ['drift', () => import('./drift.js')],
  ['diff', () => import('./diff.js')],
  ['gate', () => import('./gate.js')],
  ['import', () => import('./import.js')],
  ['report', () => import('./report.js')],
  ['validate', () => import('./validate.js')],
  ['shortlist', () => import('./shortlist.js')],
  ['review', () => import('./review.js')],
  ['signoff', () => import('./signoff.js')],
  ['history', () => import('./history.js')],
  ['monitor', () => import('./monitor.js')],
]);

/** The command names that load only their own module. */
export const LAZY_COMMANDS: readonly string[] = [...COMMAND_MODULES.keys()];

/**
 * Runs the CLI as `bin/benchplan.js` does: with a known command name first (after an optional
 * --json), only that command is registered; `-V`/`--version` needs none; anything else (--help,
 * `help`, an unknown or misspelt command) gets the whole program from createProgram, so its
 * listing and suggestions are the same. Either way the printed bytes are the whole program's.
 * @returns the exit status: 0 success, 1 a check failed, 2 bad input or usage.
 */
export async function runCommandLine(argv: readonly string[], io: Io = processIo): Promise<number> {
  let k = 2;
  while (argv[k] === '--json') k++;
  const first = argv[k];
  if (first === '-V' || first === '--version') return runProgram(programShell(io), argv, io);
  const load = first === undefined ? undefined : COMMAND_MODULES.get(first);
  if (load === undefined) {
    const { run } = await import('./program.js');
    return run(argv, io);
  }
  const program = programShell(io);
  (await load()).register(program, io);
  return runProgram(finishProgram(program, io), argv, io);
}
