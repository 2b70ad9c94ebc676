import { bindPlan, listBinding, numberBinding, planEcho, STRATA_BINDING, switchBinding, textBinding, type PlanEcho } from './bind-plan.js';
import type { Command } from '@commander-js/extra-typings';
import { writeFileAtomic, preflightOutput } from '../data/atomic.js';
import { InputError } from '../data/errors.js';
import { loadPolicy } from '../data/policy.js';
import { loadStrata } from '../data/strata-file.js';
import { sha256File } from '../rotation/hash.js';
import { parseRequirement } from '../decision/requirement.js';
import { shortlist, type ShortlistResult } from '../decision/shortlist.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { rankCandidates, type RankResult } from '../decision/rank.js';
import { alignModels } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';
import { contextOf, emit, numberFlag, resamplesFlag, seedFlag, toJsonText, warningLines, type Io } from './io.js';
import { loadInputs, withSourceOptions } from './sources.js';
import { confidenceFlag, confidenceOption, dropUnpairedOption, resamplesOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan shortlist` (also what `--output` writes and `signoff --shortlist` reads). */
export interface ShortlistReport extends ShortlistResult, PlanEcho {
  /**
   * The candidates ranked as `benchplan rank` ranks them (rankCandidates on the same items, with
   * the same confidence level, resamples, seed, cluster setting and incumbent): P(best), the
   * simultaneous intervals from the best and the incumbent, the selection-adjusted bound; the same
   * numbers `benchplan rank` prints for the same data and seed. null with --resamples 0 or one candidate.
   */
  ranking: RankResult | null;
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
  if (r.ranking !== null) out.push('', ...formatRanking(r.ranking));
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}

/** rankCandidates on the shortlist's candidates, aligned and resampled exactly as `benchplan rank` does with the same flags. */
function rankShortlisted(table: ScoresTable, models: readonly string[], o: { incumbent: string | null; confidenceLevel: number; nResamples: number; seed: string; cluster: boolean; dropUnpaired: boolean }): RankResult {
  const aligned = alignModels(table, models, { dropUnpaired: o.dropUnpaired });
  try {
    return rankCandidates(aligned.scores, { models: aligned.models, incumbent: o.incumbent, confidenceLevel: o.confidenceLevel, nResamples: o.nResamples, seed: o.seed, cluster: o.cluster ? aligned.cluster : null, strata: null, budget: null, margin: 0 });
  } catch (error) {
    if (error instanceof RangeError) throw new InputError(error.message, { file: table.source });
    throw error;
  }
}

/** The ranking lines of the shortlist's text: P(best) and the simultaneous intervals, as benchplan rank computes them. */
function formatRanking(r: RankResult): string[] {
  const inc = r.incumbent !== null;
  const out = [
    `Ranking (as benchplan rank: ${r.methodUsed}, ${level(r.confidenceLevel)} simultaneous intervals, ${r.nResamples} resamples, seed ${r.seed}):`,
    formatTable(
      ['model', 'P(best)', 'from best', 'simultaneous', ...(inc ? [`from ${r.incumbent}`, 'simultaneous'] : [])],
      [...r.candidates]
        .sort((a, b) => a.rank - b.rank)
        .map((c) => [
          c.model,
          formatPercent(c.pBest, 1),
          c.model === r.leader ? '-' : formatNumber(c.fromBest.estimate),
          c.model === r.leader ? '-' : formatInterval(c.fromBest.confidenceInterval),
          ...(inc ? (c.fromIncumbent === null ? ['-', '-'] : [formatNumber(c.fromIncumbent.estimate), formatInterval(c.fromIncumbent.confidenceInterval)]) : []),
        ]),
      { align: ['left', 'right', 'right', 'right', ...(inc ? (['right', 'right'] as const) : [])] },
    ),
  ];
  if (r.selection !== null) {
    const s = r.selection;
    out.push(`${s.chosen} − ${r.incumbent} = ${formatNumber(s.estimate)}: selection-adjusted ${level(r.confidenceLevel)} lower bound ${formatNumber(s.adjustedLowerBound)} (the naive ${formatNumber(s.naiveLowerBound)} ignores that ${s.chosen} was picked as the best)`);
  }
  return out;
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
    .option(...resamplesOption("resamples of the ranking's bootstrap (as benchplan rank) and, with --policy, of the one that gives the overall cost gaps sweep's interval (0 skips both)"))
    .option(...seedOption('seed of those bootstraps'))
    .option('--model <model>', 'a candidate to consider (repeat; default every model)', collect)
    .option('--incumbent <model>', 'the model in production: the ranking adds each candidate\'s difference from it and the selection-adjusted bound of "best − incumbent" (as benchplan rank)')
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
  bindPlan(command, io, [
    numberBinding('margin', 'margin', '--margin'),
    STRATA_BINDING,
    textBinding('incumbent', 'incumbent', '--incumbent'),
    listBinding('models', 'model', '--model'),
    numberBinding('confidenceLevel', 'confidence', '--confidence'),
    numberBinding('nResamples', 'resamples', '--resamples'),
    textBinding('seed', 'seed', '--seed'),
    switchBinding('cluster', 'cluster', '--cluster'),
    switchBinding('perStratum', 'perStratum', '--no-per-stratum'),
  ]);
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
      const models = opts.model ?? table.models;
      if (opts.incumbent !== undefined && !models.includes(opts.incumbent)) throw new InputError(`is not one of the candidates (${models.join(', ')})`, { file: '--incumbent', value: opts.incumbent });
      const ranking = nResamples > 0 && models.length >= 2 ? rankShortlisted(table, models, { incumbent: opts.incumbent ?? null, confidenceLevel, nResamples, seed, cluster: Boolean(opts.cluster), dropUnpaired: Boolean(opts.dropUnpaired) }) : null;
      const policyEcho = result.policy === null ? null : { ...result.policy, source: opts.policy as string, sha256: sha256File(opts.policy as string, { regularOnly: true }).sha256 };
      const report: ShortlistReport = { ...result, ranking, scores: scoresPath, strata: strataSource, policy: policyEcho, ...planEcho(cmd) };
      if (opts.output !== undefined) writeFileAtomic(opts.output, toJsonText(report));
      emit(ctx, report, () => formatShortlist(report));
    });
}
