import type { Command } from '@commander-js/extra-typings';
import { CHART_OPTION, preflightChart, writeChart } from '../charts/index.js';
import { judgeCalibrationSpec } from '../charts/judge-calibration.js';
import { InputError } from '../data/errors.js';
import { loadJudgeLabels } from '../data/judge-labels.js';
import type { CorrectionSource } from '../judge/corrected-rates.js';
import { JudgeDataError, validateJudge, type JudgeValidation } from '../judge/validate-judge.js';
import { formatInterval, formatNumber, formatPercent, formatTable } from '../report/table.js';
import { budgetFlag, contextOf, emit, numberFlag, resamplesFlag, seedFlag, warningLines, type Io } from './io.js';
import { confidenceFlag, confidenceOption, seedOption } from './shared-flags.js';

/** The JSON document of `benchplan judge`. */
export interface JudgeReport extends JudgeValidation {
  table: string;
  columns: { human: string; judge: string; rerun: string | null; covariates: string[] };
  selfFamily: string[];
  mde: number | null;
  alpha: number;
  nPermutations: number;
  seed: string;
  assumeRandom: boolean;
}

const list = (raw: string | undefined): string[] => (raw === undefined ? [] : raw.split(',').map((s) => s.trim()).filter((s) => s !== ''));

export function register(program: Command, io: Io): void {
  program
    .command('judge')
    .description('validate an LLM judge against human labels: agreement, bias between candidates, bias probes, drift, corrected rates')
    .argument('<table>', 'CSV or JSONL: item, model, judge (the judge score), score (human label, empty when not labelled); optional stratum, cluster, length, position')
    .option('--judge <column>', 'column of the judge scores', 'judge')
    .option('--human <column>', 'column of the human labels (empty cell: not labelled)', 'score')
    .option('--rerun <column>', "column of the judge's scores in a second run on anchor items (empty: not re-judged): drift")
    .option('--self-family <models>', "comma-separated candidates from the judge's own model family: the self-preference probe")
    .option('--covariate <columns>', 'comma-separated numeric columns to probe as well (e.g. has_markdown,n_bullets)')
    .option('--threshold <t>', 'a graded judge counts as 1 at or above t (for kappa, sensitivity, specificity, Rogan–Gladen)')
    .option('--mde <gap>', 'also give the human labels a humans-only and a PPI++ interval of half-width mde/2 need (as size --judge)')
    .option(...confidenceOption('two-sided confidence level of the intervals'))
    .option('--alpha <a>', 'false-alarm rate across all bias probes (max-T step-down)', '0.05')
    .option('--permutations <n>', 'permutations of the bias probes (one draw serves every probe)', '999')
    .option(...seedOption('seed of the permutations'))
    .option('--bins <n>', 'calibration bins for a graded judge', '5')
    .option('--correction <source>', "Rogan–Gladen sensitivity and specificity: per-candidate (each candidate's own labelled rows) or pooled (all candidates')", 'per-candidate')
    .option(CHART_OPTION[0], 'also draw the calibration chart (the humans\' rate per judge-score bin) to FILE.svg or FILE.png')
    .option('--assume-random', 'the labelled items were drawn at random: skip PPI++\'s random-subset check')
    .addHelpText(
      'after',
      `
Exit status: 0 (the verdicts are in the report), 2 for bad input.

Examples:
  benchplan judge examples/judge-labels.csv --self-family gamma --rerun rerun --mde 0.1
  benchplan judge examples/pool-judged.csv --threshold 0.5 --chart out/calibration.svg --json`,
    )
    .action(async (tablePath, opts, cmd) => {
      const ctx = contextOf(cmd, io);
      if (opts.chart !== undefined) preflightChart(opts.chart);
      const confidenceLevel = confidenceFlag(opts.confidence);
      const alpha = numberFlag('--alpha', opts.alpha, { above: 0, below: 1 }) as number;
      const threshold = numberFlag('--threshold', opts.threshold, {});
      const mde = numberFlag('--mde', opts.mde, { above: 0 });
      const nPermutations = resamplesFlag(opts.permutations, 1, '--permutations') as number;
      const bins = budgetFlag('--bins', opts.bins, 2) as number;
      const seed = seedFlag(opts.seed);
      const covariates = list(opts.covariate);
      if (opts.correction !== 'per-candidate' && opts.correction !== 'pooled') throw new InputError('must be per-candidate or pooled', { file: '--correction', value: opts.correction });
      const correction: CorrectionSource = opts.correction;
      const selfFamily = list(opts.selfFamily);
      const table = loadJudgeLabels(tablePath, { judgeColumn: opts.judge, humanColumn: opts.human, ...(opts.rerun !== undefined ? { rerunColumn: opts.rerun } : {}), covariates });
      for (const m of selfFamily) if (!table.models.includes(m)) throw new InputError(`is not a candidate in ${tablePath} (candidates: ${table.models.join(', ')})`, { file: '--self-family', value: m });
      let result: JudgeValidation;
      try {
        result = validateJudge(table.rows, {
          confidenceLevel,
          alpha,
          nPermutations,
          seed,
          selfFamily,
          covariates,
          ...(threshold !== undefined ? { threshold } : {}),
          ...(mde !== undefined ? { mde } : {}),
          assumeRandom: Boolean(opts.assumeRandom),
          calibrationBins: bins,
          correction,
        });
      } catch (error) {
        if (error instanceof JudgeDataError) {
          const row = table.rows[error.rowIndex];
          const field = error.field === 'human' ? table.humanColumn : error.field === 'judge' ? table.judgeColumn : error.field;
          throw new InputError(error.message, { file: tablePath, line: row?.line, field, value: error.value });
        }
        if (error instanceof RangeError) throw new InputError(error.message, { file: tablePath });
        throw error;
      }
      const report: JudgeReport = {
        table: tablePath,
        columns: { human: table.humanColumn, judge: table.judgeColumn, rerun: table.rerunColumn, covariates: table.covariates },
        selfFamily,
        mde: mde ?? null,
        alpha,
        nPermutations,
        seed,
        assumeRandom: Boolean(opts.assumeRandom),
        ...result,
      };
      if (opts.chart !== undefined) await writeChart(judgeCalibrationSpec({ bins: report.calibration }), opts.chart);
      emit(ctx, report, () => formatJudgeReport(report));
    });
}

const pct = (x: number) => (Number.isFinite(x) ? formatPercent(x, 1) : 'NaN');
const pctInterval = (i: readonly [number, number]) => (Number.isFinite(i[0]) ? `[${pct(i[0])}, ${pct(i[1])}]` : '[NaN, NaN]');
const num = (x: number) => formatNumber(x);

/** The readable report of `benchplan judge`. */
export function formatJudgeReport(r: JudgeReport): string {
  const level = formatPercent(r.confidenceLevel, 0).replace('.0%', '%');
  const out: string[] = [];
  out.push(`Judge "${r.columns.judge}" against human labels "${r.columns.human}" in ${r.table}: ${r.nRows} rows, ${r.nLabelled} labelled, candidates ${r.models.join(', ')} (${r.kind} judgments${r.threshold !== null ? `, judge ≥ ${r.threshold} counts as 1` : ''}; ${level} intervals)`);
  out.push('');
  out.push('1. Agreement');
  const groups = [r.agreement.overall, ...r.agreement.byCandidate, ...r.agreement.byStratum];
  const label = (g: (typeof groups)[number]) => (g.group === 'all' ? 'all' : `${g.group} ${g.name}`);
  if (r.kind === 'binary') {
    out.push(
      formatTable(
        ['group', 'n', 'accuracy', 'kappa (SE)', 'sensitivity', 'specificity'],
        groups.map((g) => [
          label(g),
          String(g.n),
          `${pct(g.accuracy?.estimate ?? NaN)} ${pctInterval(g.accuracy?.confidenceInterval ?? [NaN, NaN])}`,
          `${num(g.kappa?.estimate ?? NaN)} (${num(g.kappa?.standardError ?? NaN)})`,
          `${pct(g.sensitivity?.estimate ?? NaN)} ${pctInterval(g.sensitivity?.confidenceInterval ?? [NaN, NaN])}`,
          `${pct(g.specificity?.estimate ?? NaN)} ${pctInterval(g.specificity?.confidenceInterval ?? [NaN, NaN])}`,
        ]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
      ),
    );
  } else {
    out.push(
      formatTable(
        ['group', 'n', 'correlation', 'interval', 'judge − human', 'interval'],
        groups.map((g) => [label(g), String(g.n), num(g.correlation?.estimate ?? NaN), formatInterval(g.correlation?.confidenceInterval ?? [NaN, NaN]), num(g.meanError.estimate), formatInterval(g.meanError.confidenceInterval)]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
      ),
    );
  }
  if (r.calibration) {
    out.push('');
    out.push('Calibration: the humans\' mean per judge-score bin');
    out.push(formatTable(['judge scores', 'n', 'judge mean', 'human mean', 'interval'], r.calibration.map((b) => [`${num(b.low)}–${num(b.high)}`, String(b.n), num(b.judgeMean), num(b.humanMean), formatInterval(b.confidenceInterval)]), { align: ['left', 'right', 'right', 'right', 'right'] }));
  }
  out.push('');
  out.push('2. Does the judge treat the candidates alike? (A − B; error = judge − human)');
  out.push(
    formatTable(
      ['A − B', 'error difference', 'interval', 'judge only', 'humans only', 'PPI++', 'labelled/judged'],
      r.candidates.map((c) => [
        `${c.a} − ${c.b}`,
        num(c.errorDifference.estimate),
        formatInterval(c.errorDifference.confidenceInterval),
        `${num(c.judgeOnly.estimate)} ${formatInterval(c.judgeOnly.confidenceInterval)}`,
        `${num(c.humanOnly.estimate)} ${formatInterval(c.humanOnly.confidenceInterval)}`,
        c.ppi ? `${num(c.ppi.estimate)} ${formatInterval(c.ppi.confidenceInterval)}` : '-',
        `${c.nLabelled}/${c.nJudged}`,
      ]),
      { align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'] },
    ),
  );
  out.push('An error difference whose interval excludes 0 is a bias a judge-only A − B carries; PPI++ removes it when the labels are a random subset.');
  const needs = r.candidates.filter((c) => c.labelsNeeded !== null);
  if (needs.length > 0) {
    out.push(`Human labels for a ${level} interval of ±${num((r.mde as number) / 2)} on A − B (as size --judge --judged-items):`);
    for (const c of needs) {
      const l = c.labelsNeeded as NonNullable<typeof c.labelsNeeded>;
      out.push(`  ${c.a} − ${c.b}: humans only ${l.plain}, PPI++ ${l.ppi} (judge–human correlation of A − B ${formatNumber(l.judgeCorrelation, 2)}, ${l.judgedItems} judged items)`);
    }
  }
  out.push('');
  if (r.probes && r.probes.probes.length > 0) {
    const p = r.probes;
    out.push(`3. Bias probes: judge − human regressed on ${p.probes.map((x) => x.name).join(', ')}, controlling for the human label (${p.n} labelled rows; HC3 SEs; Freedman–Lane permutation p, ${p.nPermutations} permutations${p.exchangeabilityBlocks > 1 ? ' within the human label' : ''}, seed ${p.seed}; ${p.multiplicity === 'holm' ? 'Holm' : 'max-T step-down'} across probes at ${p.alpha})`);
    out.push(
      formatTable(
        ['probe', 'effect', 'HC3 SE', 'interval', 'p', p.multiplicity === 'holm' ? 'Holm p' : 'max-T p', 'verdict'],
        p.probes.map((x) => [x.name, num(x.estimate), num(x.standardError), formatInterval(x.confidenceInterval), formatNumber(x.pValue, 3), formatNumber(x.adjustedPValue, 3), x.verdict]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'] },
      ),
    );
  } else out.push('3. Bias probes: none (no length or position column, no --self-family or --covariate)');
  out.push('');
  if (r.drift) {
    const d = r.drift;
    out.push(`4. Drift on ${d.n} anchor rows (column "${r.columns.rerun}" − "${r.columns.judge}"): change ${num(d.change.estimate)} ${formatInterval(d.change.confidenceInterval)}; ${d.flipped.length} changed${d.up !== null ? ` (${d.up} up, ${d.down} down; McNemar exact p = ${formatNumber(d.pValue as number, 3)})` : ''}`);
    if (d.flipped.length > 0) out.push(`  changed: ${d.flipped.slice(0, 8).map((f) => `${f.item}/${f.model} ${f.before}→${f.after}`).join(', ')}${d.flipped.length > 8 ? `, … (${d.flipped.length - 8} more in --json)` : ''}`);
  } else out.push('4. Drift: no --rerun column');
  out.push('');
  if (r.correctedRates) {
    const from = r.correction === 'pooled' ? 'sensitivity and specificity pooled over the candidates' : "each candidate's sensitivity and specificity on its own labelled rows";
    out.push(`5. Judge-only rate CORRECTED for the judge's error (Rogan–Gladen, ${from}; delta-method interval includes their uncertainty)`);
    out.push(
      formatTable(
        ['candidate', 'judge rate', 'sensitivity', 'specificity', 'corrected', 'interval', 'humans (labelled)', 'interval'],
        r.correctedRates.map((c) => [c.model, pct(c.judgeRate), pct(c.sensitivity), pct(c.specificity), pct(c.estimate), pctInterval(c.confidenceInterval), `${pct(c.humanRate.estimate)} (${c.humanRate.trials})`, pctInterval(c.humanRate.confidenceInterval)]),
        { align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'] },
      ),
    );
    if (r.correctedDifferences && r.correctedDifferences.length > 0) {
      out.push('Corrected A − B (linearised over items, carrying the dependence of the two corrections):');
      out.push(formatTable(['A − B', 'corrected', 'SE', 'interval'], r.correctedDifferences.map((d) => [`${d.a} − ${d.b}`, num(d.estimate), num(d.standardError), formatInterval(d.confidenceInterval)]), { align: ['left', 'right', 'right', 'right'] }));
    }
  } else out.push('5. Corrected rate: needs 0/1 human labels and a 0/1 judge (or --threshold)');
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
