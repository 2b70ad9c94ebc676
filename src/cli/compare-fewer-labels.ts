import { InputError } from '../data/errors.js';
import { compareWithDesign } from './compare-design.js';
import { compareWithJudge } from './compare-judge.js';
import { type Context } from './io.js';
import { confidenceFlag } from './shared-flags.js';

/**
 * The hook compare.ts calls for --judge or --design: checks the flags these estimators take (a
 * two-sided normal interval at --confidence; no bootstrap options) and runs the one asked for.
 */
export function fewerLabels(
  ctx: Context,
  scoresPath: string,
  flags: { judge?: string; design?: string; strata?: string; assumeRandom?: boolean; a?: string; b?: string; confidence: string; alternative: string; cluster?: boolean; chart?: string },
): void {
  const confidenceLevel = confidenceFlag(flags.confidence);
  if (flags.judge !== undefined && flags.design !== undefined) throw new InputError('give --judge (a random labelled subset) or --design (a select list), not both', { file: '--design', value: flags.design });
  const flag = flags.judge !== undefined ? '--judge' : '--design';
  if (flags.alternative !== 'two-sided') throw new InputError(`${flag} gives a two-sided interval only`, { file: '--alternative', value: flags.alternative });
  if (flags.cluster) throw new InputError(`${flag} treats items as independent; --cluster is not supported with it yet`, { file: '--cluster' });
  if (flags.chart !== undefined) throw new InputError(`${flag} draws no chart yet`, { file: '--chart', value: flags.chart });
  if (flags.design !== undefined) {
    if (flags.strata !== undefined) throw new InputError('--strata goes with --judge; for traffic-weighted headlines from a select design use benchplan headline --design', { file: '--strata', value: flags.strata });
    if (flags.a !== undefined || flags.b !== undefined) throw new InputError('--design takes the candidates from the design file; leave out --a and --b', { file: flags.a !== undefined ? '--a' : '--b' });
    compareWithDesign(ctx, scoresPath, flags.design, confidenceLevel);
    return;
  }
  compareWithJudge(ctx, scoresPath, flags.judge as string, flags, confidenceLevel);
}
