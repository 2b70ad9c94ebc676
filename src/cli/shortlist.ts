import type { Command } from '@commander-js/extra-typings';
import { writeFileAtomic, preflightOutput } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { loadPolicy } from '../data/policy.js';
import { loadStrata } from '../data/strata-file.js';
import { sha256File } from '../rotation/hash.js';
import { parseRequirement } from '../decision/requirement.js';
import { shortlist, type ShortlistResult } from '../decision/shortlist.js';
import { formatInterval, formatNumber, formatTable } from '../report/table.js';
import { contextOf, emit, numberFlag, resamplesFlag, seedFlag, toJsonText, warningLines, type Io } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan shortlist` (also what `--output` writes and `signoff --shortlist` reads). */
export interface ShortlistReport extends ShortlistResult {
  scores: string;
  strata: string | null;
  /** The policy echoed with its file and that file's SHA-256 (what `signoff --policy` records). */
  policy: (NonNullable<ShortlistResult['policy']> & { source: string; sha256: string }) | null;
}

function level(confidenceLevel: number): string {
  return `${+(confidenceLevel * 100).toFixed(4)}%`;
}

/** The readable report: finalists, then one line per eliminated candidate with its first reason, then every check. */
export function formatShortlist(r: ShortlistReport): string {
  const out: string[] = [];
  out.push(`Finalists: ${r.finalists.join(', ')}   (best by mean score: ${r.best}; ${r.n} common items of ${r.scores})`);
  if (r.policy !== null) out.push(`Cost policy ${r.policy.source} (owner: ${r.policy.owner}, decided ${r.policy.decided}; sha256 ${r.policy.sha256.slice(0, 12)}…): cheapest by expected cost per document: ${r.cheapest}`);
  const eliminated = r.candidates.filter((c) => !c.shortlisted);
  if (eliminated.length === 0) out.push('Eliminated: none');
  else {
    out.push('Eliminated (first reason):');
    for (const c of eliminated) out.push(`  ${c.model}: ${c.firstReason!.reason}`);
  }
  out.push('');
  const rows: string[][] = [];
  for (const c of r.candidates) {
    for (const b of c.bars) rows.push([c.model, b.requirement, formatNumber(b.estimate), formatInterval(b.confidenceInterval), '', b.passed ? 'meets' : 'FAILS']);
    for (const k of c.comparisons) {
      rows.push([c.model, `${k.scope}: − ${r.best}`, formatNumber(k.estimate), `(−∞, ${formatNumber(k.confidenceInterval[1])}]`, formatNumber(k.adjustedPValue), k.worse ? 'WORSE' : 'within']);
    }
    for (const k of c.costComparisons) {
      rows.push([c.model, `${k.scope} cost/doc: − ${k.reference}`, formatNumber(k.estimate), `[${formatNumber(k.confidenceInterval[0])}, ∞)`, formatNumber(k.adjustedPValue), k.worse ? 'COSTLIER' : 'within']);
    }
  }
  if (rows.length > 0) out.push(formatTable(['candidate', 'check', 'estimate', `${level(r.confidenceLevel)} interval`, 'Holm p', 'verdict'], rows, { align: ['left', 'left', 'right', 'right', 'right', 'left'] }));
  if (r.policy !== null) {
    out.push('');
    out.push(`Expected cost per document at the policy's prices (${level(r.confidenceLevel)} t intervals over documents)`);
    const scopes = r.candidates[0].costs.map((x) => x.scope);
    out.push(
      formatTable(
        ['candidate', ...scopes.map((x) => (x === 'overall' ? `overall (${r.candidates[0].costs[0].documents} docs)` : `${x} (${r.candidates[0].costs.find((y) => y.scope === x)!.documents})`))],
        r.candidates.map((c) => [c.model, ...c.costs.map((x) => `${formatNumber(x.estimate, 3)} ${formatInterval(x.confidenceInterval)}`)]),
      ),
    );
    out.push(`A stratum's cost: ${r.costRule}.`);
    const gaps = r.candidates.flatMap((c) => c.costComparisons.filter((k) => k.sweepInterval !== null).map((k) => `${c.model} − ${k.reference} ${formatNumber(k.estimate, 3)} ${formatInterval(k.sweepInterval!.confidenceInterval)} (${k.sweepInterval!.method})`));
    if (gaps.length > 0 && r.costBootstrap !== null) out.push(`As benchplan sweep prints them (${level(r.confidenceLevel)}, ${r.costBootstrap.nResamples} resamples, seed ${r.costBootstrap.seed}): overall cost gaps ${gaps.join('; ')}.`);
  }
  out.push('');
  out.push(
    `Eliminated when a bar fails (judged on the estimate) or when candidate − ${r.best} is shown below −margin (${formatNumber(-r.margin)}): one-sided paired t, ${level(r.confidenceLevel)}, Holm across each candidate's ${r.perStratum ? 'overall and per-stratum ' : ''}checks (α ${formatNumber(r.alpha)}).${r.policy === null ? '' : ` With the policy, also when its cost per document − ${r.cheapest}'s is shown above the cost margin (${formatNumber(r.costMargin as number)}), in the same Holm family.`}`,
  );
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, io: Io): void {
  const command = program
    .command('shortlist')
    .description('which candidates clear the bar: absolute bars, and not worse than the best (overall and per stratum, Holm)')
    .argument('<scores...>', 'scores file(s) with every candidate: CSV / JSONL, or promptfoo, Inspect, lm-eval results')
    .option('--strata <file>', 'strata file (YAML): every stratum of the scores must be in it')
    .option('--margin <x>', 'how much worse than the best a finalist may be, in score units', '0')
    .option('--require <bar>', 'an absolute bar, STRATUM.METRIC<=X or overall.METRIC>=X; METRIC mean, hallucinationRate, recall, precision, cost (with --policy) (repeat)', collect)
    .option('--policy <file>', 'cost policy (YAML, as sweep): cost bars, and not costlier per document than the cheapest (overall and per stratum)')
    .option('--cost-margin <x>', 'with --policy: how much more per document than the cheapest a finalist may cost, in the policy\'s units', '0')
    .option(...resamplesOption("with --policy: resamples of the bootstrap that gives the overall cost gaps sweep's interval (0 skips it)"))
    .option(...seedOption('with --policy: seed of that bootstrap'))
    .option('--model <model>', 'a candidate to consider (repeat; default every model)', collect)
    .option(...confidenceOption('one-sided confidence level of each check'))
    .option('--no-per-stratum', 'compare with the best overall only')
    .option('--cluster', 'treat the cluster column (documents) as the unit')
    .option(...dropUnpairedOption('leave out items not every candidate scored'))
    .option('-o, --output <file>', 'also write the JSON document here (for signoff --shortlist)')
    .addHelpText(
      'after',
      `
Example:
  benchplan shortlist scores.csv --strata strata.yaml --margin 0.05 --require "negative_control.hallucinationRate<=0.08"`,
    );
  withSourceOptions(command)
    .action((inputs, opts, cmd) => {
      const scoresPath = inputs.join(' + ');
      const ctx = contextOf(cmd, io);
      const margin = numberFlag('--margin', opts.margin, { min: 0 }) as number;
      const confidenceLevel = confidenceFlag(opts.confidence);
      const requirements = (opts.require ?? []).map((text) => parseRequirement(text));
      const costMargin = numberFlag('--cost-margin', opts.costMargin, { min: 0 }) as number;
      if (opts.policy === undefined && opts.costMargin !== '0') throw new InputError('goes with --policy (the cost margin is in its units)', { file: '--cost-margin', value: opts.costMargin });
      const policy = opts.policy === undefined ? undefined : loadPolicy(opts.policy);
      const nResamples = resamplesFlag(opts.resamples, 0) as number;
      const seed = seedFlag(opts.seed);
      if (opts.output !== undefined) preflightOutput(opts.output, '--output');
      const table = loadInputs(inputs, opts as Record<string, unknown>, io).table;
      let strataSource: string | null = null;
      if (opts.strata !== undefined) {
        const strata = loadStrata(opts.strata);
        strataSource = strata.source;
        const names = new Set(strata.strata.map((s) => s.name));
        const unknown = table.strata.filter((s) => !names.has(s));
        if (unknown.length > 0) throw new InputError(`stratum "${unknown[0]}" is in the scores but not in the strata file`, { file: strata.source, value: unknown[0] });
        for (const r of requirements) if (r.scope !== 'overall' && !names.has(r.scope)) throw new InputError(`the bar names stratum "${r.scope}", which is not in ${strata.source}`, { file: '--require', value: r.text });
      }
      const result = shortlist(table, {
        margin,
        confidenceLevel,
        requirements,
        perStratum: opts.perStratum !== false && table.hasStratum,
        cluster: Boolean(opts.cluster),
        dropUnpaired: Boolean(opts.dropUnpaired),
        models: opts.model,
        ...(policy === undefined ? {} : { policy, costMargin, policySource: opts.policy, nResamples, seed }),
      });
      const policyEcho = result.policy === null ? null : { ...result.policy, source: opts.policy as string, sha256: sha256File(opts.policy as string, { regularOnly: true }).sha256 };
      const report: ShortlistReport = { ...result, scores: scoresPath, strata: strataSource, policy: policyEcho };
      if (opts.output !== undefined) writeFileAtomic(opts.output, toJsonText(report));
      emit(ctx, report, () => formatShortlist(report));
    });
}
