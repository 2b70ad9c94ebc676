import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../data/errors.js';

/**
 * Registers a command whose issue has not landed: it shows its help and, when run, says so
 * and exits 2. It never prints made-up output.
 */
export function registerNotYet(program: Command, name: string, summary: string, issue: number): void {
  program
    .command(name)
    .description(`${summary} (not implemented yet: issue #${issue})`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new InputError(`benchplan ${name} is not implemented yet (issue #${issue})`);
    });
}
