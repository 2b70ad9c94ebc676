import type { Command } from '@commander-js/extra-typings';
import type { Io } from './io.js';
import { registerNotYet } from './not-yet.js';

export function register(program: Command, _io: Io): void {
  registerNotYet(program, 'compare', "decide whether model A beats model B on the same items (paired bootstrap)", 3);
}
