import { verdictExitCode, type GateVerdict } from '../gate/verdict.js';
import { CheckFailed } from '../data/errors.js';
import { choiceFlag, type Context } from './io.js';

/** The `--inconclusive` option every gate path shares. */
export const INCONCLUSIVE_OPTION = ['--inconclusive <as>', 'read an inconclusive verdict as pass (exit 0) or fail (exit 1) instead of exit 3, for a CI that wants two outcomes'] as const;

/** The `--inconclusive` flag's value: 'pass', 'fail', or null (keep exit 3). */
export function inconclusiveFlag(raw: string | undefined): 'pass' | 'fail' | null {
  return choiceFlag('--inconclusive', raw, ['pass', 'fail'] as const) ?? null;
}

/** The JSON fields a gate report adds for the flag: `inconclusiveAs` only when given. */
export function inconclusiveEcho(inconclusiveAs: 'pass' | 'fail' | null): { inconclusiveAs?: 'pass' | 'fail' } {
  return inconclusiveAs === null ? {} : { inconclusiveAs };
}

/**
 * Ends a gate after its report is printed: exit 0 for pass, 1 for fail, 3 for inconclusive (or the
 * status `--inconclusive` maps it to, with a note on stderr saying so).
 * @throws {CheckFailed} with the exit status, whenever it is not 0.
 */
export function finishGate(ctx: Context, verdict: GateVerdict, inconclusiveAs: 'pass' | 'fail' | null, headline: string, report: unknown): void {
  const code = verdictExitCode(verdict, inconclusiveAs);
  const note = verdict === 'inconclusive' && inconclusiveAs !== null ? ` (read as ${inconclusiveAs} by --inconclusive ${inconclusiveAs})` : '';
  if (code === 0) {
    if (note !== '') ctx.io.stderr(`gate inconclusive${note}: ${headline}\n`);
    return;
  }
  throw new CheckFailed(`gate ${verdict === 'fail' ? 'failed' : 'inconclusive'}${note}: ${headline}`, report, code);
}
