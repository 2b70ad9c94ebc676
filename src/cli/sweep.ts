import type { Command } from '@commander-js/extra-typings';
import type { Io } from './io.js';
import { registerNotYet } from './not-yet.js';

export function register(program: Command, _io: Io): void {
  registerNotYet(program, 'sweep', "check a cost ranking against the exchange rate between errors", 6);
}
