import type { Command } from '@commander-js/extra-typings';
import type { Io } from './io.js';
import { registerNotYet } from './not-yet.js';

export function register(program: Command, _io: Io): void {
  registerNotYet(program, 'size', "items needed to see the smallest gap you would act on, from a pilot", 4);
}
