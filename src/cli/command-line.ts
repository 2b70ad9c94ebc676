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
  ['judge', () => import('./judge.js')],
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
  ['rank', () => import('./rank.js')],
  ['plan', () => import('./plan.js')],
  ['monitor', () => import('./monitor.js')],
  ['label', () => import('./label.js')],
]);

/**
 * What the top-level --help lists of each command: its name, its arguments as commander prints
 * them and its description, the same strings its module registers (tests/cli/command-line.test.ts
 * checks the listing against createProgram's, byte for byte), so `benchplan --help` prints the
 * whole program's bytes without loading any command's code (start-up, issue #19).
 */
const COMMAND_LISTING: ReadonlyArray<readonly [name: string, args: string, description: string]> = [
  ['compare', '<inputs...>', 'decide whether model A beats model B on the same items (paired bootstrap)'],
  ['size', '<pilot...>', 'items needed to see the smallest gap you would act on, from a pilot'],
  ['allocate', '', 'split an annotation budget across strata'],
  ['headline', '<inputs...>', 'per-stratum scores and a traffic-reweighted headline'],
  ['sweep', '<outcomes...>', 'check a cost ranking against the exchange rate between errors'],
  ['select', '<pool>', 'choose which pool items to annotate: every disagreement between two candidates plus an audit of agreements, or actively'],
  ['agree', '<annotations>', 'annotator agreement per clause type: kappa, alpha, what each type can support, and the items to adjudicate'],
  ['judge', '<table>', 'validate an LLM judge against human labels: agreement, bias between candidates, bias probes, drift, corrected rates'],
  ['freeze', '<manifest>', 'store a benchmark version in a write-once, content-addressed archive'],
  ['verify', '', 're-hash an archive and check its hash chain: exit 1 naming each changed, missing, extra or unreadable file (leftovers of interrupted writes are listed, not failed)'],
  ['rotate', '', "plan next quarter's rotation: retire saturated, leaked, then oldest eval items; replace them stratum by stratum from the incidents log"],
  ['drift', '', 'separate "the system got worse" from "the test got harder" with a re-run of the frozen previous version'],
  ['diff', '<a> <b>', 'added, retired and changed items between two archived versions, by stratum'],
  ['gate', '<inputs...>', 'fail a CI run when a candidate regresses beyond a margin (non-inferiority check)'],
  ['import', '<format> <files...>', 'convert promptfoo, Inspect or lm-eval results to a scores table'],
  ['report', '', 'one self-contained HTML report with charts'],
  ['validate', '<file>', 'check an input file (scores, a promptfoo, Inspect or lm-eval result, strata, policy, annotations, manifest) and summarise it'],
  ['shortlist', '<scores...>', 'which candidates clear the bar: absolute bars, and not worse than the best (overall and per stratum, Holm)'],
  ['review', '<scores...>', "a seeded sample of each finalist's outputs on the strata a person must read, as an HTML page and a CSV"],
  ['signoff', '', 'record the decision write-once in the archive: reviewer, date, choice, finalists, note and the digests of its evidence'],
  ['history', '', 'the instrument over time: each run per stratum and headline with intervals, distinguishable changes flagged, version boundaries marked'],
  ['rank', '<inputs...>', 'the best of k candidates on the same items: P(best), simultaneous intervals, a selection-adjusted bound against the incumbent, and "label more?"'],
  ['plan', '', 'fix the analysis plan before the data: margin, MDE, strata, method, stopping rule, decision rule, names; frozen write-once in the archive'],
  ['monitor', '<scores>', 'watch a comparison as labels arrive: an anytime-valid interval at every look, and stop when it is settled'],
  ['label', '<action> [file]', 'label until decided: a resumable session that proposes which items to label, reads the labels back and stops when the gate is settled'],
];

/** The program with every command as a stub of its name, arguments, options marker and description: enough for the top-level help. */
function listingProgram(io: Io): Command {
  const program = programShell(io);
  for (const [name, args, description] of COMMAND_LISTING) {
    const command = program.command(name).description(description);
    for (const arg of args.split(' ').filter(Boolean)) command.argument(arg);
  }
  return finishProgram(program, io);
}

/** The command names that load only their own module. */
export const LAZY_COMMANDS: readonly string[] = [...COMMAND_MODULES.keys()];

/**
 * Runs the CLI as `bin/benchplan.js` does: with a known command name first (after an optional
 * --json), only that command is registered; `-V`/`--version` needs none; a lone `--help` / `-h`
 * gets stubs from COMMAND_LISTING; anything else (`--help` with more arguments,
 * `help`, an unknown or misspelt command) gets the whole program from createProgram, so its
 * listing and suggestions are the same. Either way the printed bytes are the whole program's.
 * @returns the exit status: 0 success, 1 a check failed, 2 bad input or usage.
 */
export async function runCommandLine(argv: readonly string[], io: Io = processIo): Promise<number> {
  let k = 2;
  while (argv[k] === '--json') k++;
  const first = argv[k];
  if (first === '-V' || first === '--version') return runProgram(programShell(io), argv, io);
  if ((first === '--help' || first === '-h') && argv.length === k + 1) return runProgram(listingProgram(io), argv, io);
  const load = first === undefined ? undefined : COMMAND_MODULES.get(first);
  if (load === undefined) {
    const { run } = await import('./program.js');
    return run(argv, io);
  }
  const program = programShell(io);
  (await load()).register(program, io);
  return runProgram(finishProgram(program, io), argv, io);
}
