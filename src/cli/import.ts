import type { Command } from '@commander-js/extra-typings';
import type { Io } from './io.js';
import { registerNotYet } from './not-yet.js';

export function register(program: Command, _io: Io): void {
  registerNotYet(program, 'import', "convert promptfoo, Inspect or lm-eval results to a scores table", 10);
}
