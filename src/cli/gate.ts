import type { Command } from '@commander-js/extra-typings';
import type { Io } from './io.js';
import { registerNotYet } from './not-yet.js';

export function register(program: Command, _io: Io): void {
  registerNotYet(program, 'gate', "fail a CI run when a candidate regresses beyond a margin", 10);
}
