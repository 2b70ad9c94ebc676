import type { Command } from '@commander-js/extra-typings';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { assertOutputsApart } from '../data/output-paths.js';
import { DESIGN_DIGEST_COLUMN, designTextDigest } from '../data/design-pair.js';
import { csvLine } from '../data/csv-text.js';
import type { DesignFile } from '../data/design-file.js';
import { InputError } from '../data/errors.js';
import { loadPool, type PoolTable } from '../data/pool.js';
import { formatNumber, formatPercent, formatTable } from '../report/table.js';
import { activeDesign, clusterDisagreementDesign, DEFAULT_AUDIT_SHARE, disagreementDesign, EQUALITY_MODES, poolItems, type EqualityMode, type SelectionDesign } from '../selection/index.js';
import { choiceFlag, contextOf, emit, numberFlag, seedFlag, toJsonText, warningLines, type Io, budgetFlag } from './io.js';
import { deprecatedAlias, seedOption, takeAlias } from './shared-flags.js';

const METHODS = ['disagreement', 'active'] as const;
const SAMPLE_UNITS = ['item', 'cluster'] as const;

interface SelectFlags {
  a?: string;
  b?: string;
  budget: string;
  method: string;
  auditShare: string;
  equality: string;
  tolerance: string;
  outputColumn: string;
  judgeColumn: string;
  seed: string;
  output?: string;
  /** The deprecated name of --output. */
  out?: string;
  design?: string;
  sampleUnit: string;
}

/** `benchplan select --json`. */
export interface SelectReport {
  pool: string;
  a: string;
  b: string;
  method: 'disagreement' | 'active';
  sampling: 'stratified' | 'poisson' | 'cluster';
  sampleUnit: 'item' | 'cluster';
  equality: string;
  /** --equality and --tolerance as given (the tolerance is used only by numeric). */
  equalityMode: EqualityMode;
  tolerance: number;
  outputColumn: string;
  judgeColumn: string | null;
  budget: number;
  auditShare: number;
  seed: string;
  poolSize: number;
  agreeing: number;
  disagreeing: number;
  selected: number;
  unspent: number;
  out: string;
  design: string;
  cells: SelectionDesign['cells'];
  warnings: string[];
}

export function register(program: Command, io: Io): void {
  program
    .command('select')
    .description('choose which pool items to annotate: every disagreement between two candidates plus an audit of agreements, or actively')
    .argument('<pool>', 'unlabelled pool (CSV or JSONL): item, model, output [, stratum, cluster, judge]')
    .requiredOption('--budget <n>', 'labels you can afford (items to annotate)')
    .option('-o, --output <file>', 'the annotation list to write (CSV: the chosen items, one row per model, score left empty); required')
    .addOption(deprecatedAlias('--out <file>'))
    .option('--design <file>', 'the design file to write (every pool item with its inclusion probability; default: the list name with .design.json)')
    .option('--a <model>', 'model A, the candidate side of A − B (default: the first of exactly two models)')
    .option('--b <model>', 'model B, the baseline side of A − B (default: the second of exactly two models)')
    .option('--method <method>', `${METHODS.join(', ')}: stratified agree/disagree sampling, or Poisson sampling favouring uncertain items (Zrnic & Candès)`, 'disagreement')
    .option('--audit-share <share>', 'share of the budget spent auditing items where the outputs agree', String(DEFAULT_AUDIT_SHARE))
    .option('--equality <mode>', `how outputs are compared: ${EQUALITY_MODES.join(', ')} (normalised: case and white space ignored)`, 'normalised')
    .option('--tolerance <x>', 'absolute tolerance of --equality numeric', '1e-9')
    .option('--output-column <name>', 'the column compared between candidates (e.g. a normalised answer)', 'output')
    .option('--judge-column <name>', 'judge scores in [0, 1] (used by --method active and stored for estimation), when the pool has the column', 'judge')
    .option('--sample-unit <unit>', `${SAMPLE_UNITS.join(', ')}: draw items one by one, or whole clusters (the pool's cluster column: every item of a chosen document labelled)`, 'item')
    .option(...seedOption('seed of the draws (same seed, same list)'))
    .action((poolPath, flags: SelectFlags, command) => {
      const ctx = contextOf(command, io);
      const budget = budgetFlag('--budget', flags.budget, 1) as number;
      const method = choiceFlag('--method', flags.method, METHODS) as (typeof METHODS)[number];
      const auditShare = numberFlag('--audit-share', flags.auditShare, method === 'active' ? { above: 0, below: 1 } : { min: 0, below: 1 }) as number;
      const equality = choiceFlag('--equality', flags.equality, EQUALITY_MODES) as EqualityMode;
      const tolerance = numberFlag('--tolerance', flags.tolerance, { min: 0 }) as number;
      const seed = seedFlag(flags.seed);
      const sampleUnit = choiceFlag('--sample-unit', flags.sampleUnit, SAMPLE_UNITS) as (typeof SAMPLE_UNITS)[number];
      if (sampleUnit === 'cluster' && method === 'active') throw new InputError('--method active draws items one by one; whole-cluster sampling is for the disagreement design', { file: '--sample-unit', value: sampleUnit });
      const out = takeAlias(io, flags.output, flags.out, { old: '--out', current: '--output' });
      if (out === undefined) throw new InputError('is required: the annotation list to write (-o FILE)', { file: '--output' });
      const designPath = flags.design ?? out.replace(/(\.csv)?$/i, '.design.json');
      if (designPath === out) throw new InputError('the design file and the list must be different files', { file: '--design', value: designPath });
      assertOutputsApart([{ flag: '--output', path: out }, { flag: '--design', path: designPath }], [{ flag: 'POOL', path: poolPath }]);
      preflightOutput(out, '--output');
      preflightOutput(designPath, '--design');

      const pool = loadPool(poolPath, { outputColumn: flags.outputColumn, judgeColumn: flags.judgeColumn });
      const [a, b] = pickPair(pool, flags);
      const items = poolItems(pool, a, b, { mode: equality, tolerance });
      const warnings: string[] = [];
      if (sampleUnit === 'cluster' && !pool.hasCluster) throw new InputError('has no cluster column: --sample-unit cluster samples whole clusters (documents)', { file: pool.source, field: 'cluster' });
      if (pool.hasCluster && sampleUnit === 'item') warnings.push('the pool has a cluster column: items are sampled one by one within cells, and compare --design computes the pool-level variance by cluster; --sample-unit cluster labels whole documents instead');
      if (method === 'active' && pool.hasJudge) {
        // The active design reads a judge score as the probability that an output is right; one
        // outside [0, 1] has no uncertainty, and its item would silently fall back to the default.
        const out = pool.rows.find((r) => (r.model === a || r.model === b) && !((r.judge as number) >= 0 && (r.judge as number) <= 1));
        if (out !== undefined) throw new InputError(`--method active reads judge scores as probabilities in [0, 1] (the chance an output is right); rescale the column, or use the disagreement design`, { file: poolPath, line: out.line, field: flags.judgeColumn, value: out.judge });
      }
      if (method === 'active' && !pool.hasJudge) warnings.push(`no "${flags.judgeColumn}" column: --method active weighs every disagreement alike`);
      if (budget > pool.items.length && method === 'active') throw new InputError(`must be at most the pool's ${pool.items.length} items for --method active`, { file: '--budget', value: budget });
      const design =
        method === 'active' ? activeDesign(items, { budget, auditShare, seed }) : sampleUnit === 'cluster' ? clusterDisagreementDesign(items, { budget, auditShare, seed }) : disagreementDesign(items, { budget, auditShare, seed });
      warnings.push(...design.warnings);

      const equalityName = equality === 'numeric' ? `numeric (tolerance ${tolerance}), else normalised` : equality;
      const file: DesignFile = {
        kind: 'benchplan-selection-design',
        version: 1,
        pool: poolPath,
        a,
        b,
        method: design.method,
        sampling: design.sampling,
        equality: `${equalityName} on column "${flags.outputColumn}"`,
        budget,
        auditShare: design.auditShare,
        seed,
        poolSize: design.poolSize,
        selected: design.selected,
        cells: design.cells,
        rows: design.rows,
      };
      // The pair is committed in order: the design first, then the list, which carries the
      // design's SHA-256 in every row. A kill between the two renames leaves the new design beside
      // the old list, which compare/gate/headline --design refuse (checkListMatchesDesign); a re-run repairs it.
      const designText = toJsonText(file);
      writeFileAtomic(designPath, designText);
      writeFileAtomic(out, annotationList(pool, design, a, b, designTextDigest(designText)));
      const agreeing = items.filter((x) => x.agree).length;
      const report: SelectReport = {
        pool: poolPath,
        a,
        b,
        method: design.method,
        sampling: design.sampling,
        sampleUnit,
        equality: file.equality,
        equalityMode: equality,
        tolerance,
        outputColumn: flags.outputColumn,
        judgeColumn: pool.hasJudge ? flags.judgeColumn : null,
        budget,
        auditShare: design.auditShare,
        seed,
        poolSize: design.poolSize,
        agreeing,
        disagreeing: items.length - agreeing,
        selected: design.selected,
        unspent: design.unspent,
        out,
        design: designPath,
        cells: design.cells,
        warnings,
      };
      emit(ctx, report, () => formatSelect(report));
    });
}

function pickPair(pool: PoolTable, flags: { a?: string; b?: string }): [string, string] {
  if ((flags.a === undefined) !== (flags.b === undefined)) throw new InputError('give both --a and --b, or neither (a pool of exactly two models)', { file: flags.a === undefined ? '--b' : '--a', value: flags.a ?? flags.b });
  if (flags.a === undefined) {
    if (pool.models.length !== 2) throw new InputError(`has ${pool.models.length} models (${pool.models.join(', ')}): name the two to compare with --a and --b`, { file: pool.source });
    return [pool.models[0], pool.models[1]];
  }
  const a = flags.a as string;
  const b = flags.b as string;
  if (a === b) throw new InputError('--a and --b must name two different models', { file: '--b', value: b });
  for (const [flag, m] of [['--a', a], ['--b', b]]) if (!pool.models.includes(m)) throw new InputError(`model is not in the pool (models: ${pool.models.join(', ')})`, { file: flag, value: m });
  return [a, b];
}

/** The list annotators fill in: the chosen items, one row per candidate, `score` empty, the design's SHA-256 in `design_digest`. */
function annotationList(pool: PoolTable, design: SelectionDesign, a: string, b: string, designDigest: string): string {
  const outputs = new Map<string, string>();
  for (const row of pool.rows) outputs.set(`${row.item}\u0000${row.model}`, row.output as string);
  const clusters = design.sampling === 'cluster';
  const header = ['item', 'model', 'output', 'score', ...(pool.hasStratum ? ['stratum'] : []), ...(clusters ? ['cluster'] : []), 'cell', 'inclusion_probability', DESIGN_DIGEST_COLUMN];
  const lines = [csvLine(header)];
  // Cluster sampling: a chosen document's items together, so annotators read it once.
  const first = new Map<string | undefined, number>();
  design.rows.forEach((r, k) => {
    if (!first.has(r.cluster)) first.set(r.cluster, k);
  });
  const rows = clusters ? design.rows.map((r, k) => ({ r, k })).sort((x, y) => (first.get(x.r.cluster) as number) - (first.get(y.r.cluster) as number) || x.k - y.k).map((x) => x.r) : design.rows;
  for (const r of rows) {
    if (!r.selected) continue;
    for (const m of [a, b]) lines.push(csvLine([r.item, m, outputs.get(`${r.item}\u0000${m}`), '', ...(pool.hasStratum ? [r.stratum] : []), ...(clusters ? [r.cluster] : []), r.cell, r.inclusionProbability, designDigest]));
  }
  return `${lines.join('\n')}\n`;
}

function formatSelect(r: SelectReport): string {
  const out: string[] = [];
  const agreeShare = r.agreeing / r.poolSize;
  out.push(`${r.a} vs ${r.b} on ${r.poolSize} pool items of ${r.pool}: outputs agree on ${r.agreeing} (${formatPercent(agreeShare, 0)}), differ on ${r.disagreeing} (equality: ${r.equality})`);
  out.push(
    r.sampling === 'cluster'
      ? `Design: whole clusters — every cluster with a disagreement (sampled if the budget is short) plus an audit of ${formatPercent(r.auditShare, 0)} of the budget on clusters where every output agrees; simple random samples of clusters within cells, every item of a chosen cluster labelled (seed ${r.seed}).`
      : r.method === 'disagreement'
      ? `Design: every disagreement (sampled if the budget is short) plus an audit of ${formatPercent(r.auditShare, 0)} of the budget on agreeing items; simple random samples within cells (seed ${r.seed}).`
      : `Design: active — Poisson sampling with probabilities favouring uncertain disagreements, ${formatPercent(r.auditShare, 0)} of the mass spread over every item (seed ${r.seed}); weight each label by 1/π.`,
  );
  out.push(
    r.sampling === 'cluster'
      ? formatTable(
          ['cell', 'clusters', 'chosen', 'items', 'items chosen', 'inclusion probability'],
          r.cells.map((c) => [c.cell, String(c.size), String(c.sampled), String(c.items), String(c.chosenItems), formatNumber(c.inclusionProbability, 3)]),
          { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
        )
      : formatTable(
          ['cell', 'items', 'chosen', 'inclusion probability'],
          r.cells.map((c) => [c.cell, String(c.size), String(c.sampled), formatNumber(c.inclusionProbability, 3)]),
          { align: ['left', 'right', 'right', 'right'] },
        ),
  );
  const spent = r.method === 'disagreement' && r.unspent > 0 ? `; ${r.unspent} of the budget ${r.budget} not needed` : ` (budget ${r.budget})`;
  out.push(`${r.selected} items to annotate${spent}.`);
  out.push(`Wrote ${r.out} (fill in the score column) and ${r.design}; read them back with: benchplan compare ${r.out} --design ${r.design}`);
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
