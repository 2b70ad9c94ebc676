import type { Command } from '@commander-js/extra-typings';
import { processIo, type Io } from './io.js';
import { finishProgram, programShell, runProgram } from './program-shell.js';
import { register as agree } from './agree.js';
import { register as allocate } from './allocate.js';
import { register as compare } from './compare.js';
import { register as diff } from './diff.js';
import { register as drift } from './drift.js';
import { register as freeze } from './freeze.js';
import { register as gate } from './gate.js';
import { register as headline } from './headline.js';
import { register as history } from './history.js';
import { register as importCommand } from './import.js';
import { register as judge } from './judge.js';
import { register as label } from './label.js';
import { register as monitor } from './monitor.js';
import { register as plan } from './plan.js';
import { register as report } from './report.js';
import { register as rank } from './rank.js';
import { register as review } from './review.js';
import { register as select } from './select.js';
import { register as rotate } from './rotate.js';
import { register as shortlist } from './shortlist.js';
import { register as signoff } from './signoff.js';
import { register as size } from './size.js';
import { register as sweep } from './sweep.js';
import { register as validate } from './validate.js';
import { register as verify } from './verify.js';

export { VERSION } from './version.js';

/** Builds the commander program, every command registered, writing through `io`. */
export function createProgram(io: Io = processIo): Command {
  const program = programShell(io);
  // The order people meet them in: design, read, maintain, integrate.
  for (const register of [compare, size, allocate, headline, sweep, select, agree, judge, freeze, verify, rotate, drift, diff, gate, importCommand, report, validate, shortlist, review, signoff, history, rank, plan]) {
    register(program, io);
  }
  monitor(program, io);
  label(program, io);
  return finishProgram(program, io);
}

/**
 * Runs the CLI on argv (as process.argv: node, script, args…).
 * @returns the exit status: 0 success, 1 a check failed, 2 bad input or usage.
 */
export async function run(argv: readonly string[], io: Io = processIo): Promise<number> {
  return runProgram(createProgram(io), argv, io);
}
