import { Command, CommanderError } from '@commander-js/extra-typings';
import { reportError, type Io } from './io.js';
import { VERSION } from './version.js';
import { guardOutputs } from './output-guard.js';

/**
 * The program without its commands: name, version, the global --json, and the settings every
 * command inherits. createProgram (every command) and runCommandLine (only the command named
 * on the command line) both start from it, so the two print the same bytes.
 */
export function programShell(io: Io): Command {
  return new Command()
    .name('benchplan')
    .description('Design and read private selection benchmarks: which candidate is better, on how many items, by how much.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print one JSON document instead of a table')
    // Program options only before the command name, so a command may own `--version ID`.
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
}

/** After the commands are registered: each writes through io, and each takes --json after its name too. */
export function finishProgram(program: Command, io: Io): Command {
  for (const command of program.commands) {
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
    // --json is global: accepted before the command name or after it.
    if (!command.options.some((option) => option.long === '--json')) command.option('--json', 'print one JSON document instead of a table');
    // No command overwrites its own input, and each cleans its output folders of dead writers' temporary files.
    command.hook('preAction', (_program, action) => guardOutputs(action as unknown as Command));
  }
  return program;
}

/**
 * Parses argv (as process.argv: node, script, args…) with the program and runs the command.
 * @returns the exit status: 0 success, 1 a check failed, 2 bad input or usage.
 */
export async function runProgram(program: Command, argv: readonly string[], io: Io): Promise<number> {
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2;
    }
    return reportError(error, io);
  }
}
