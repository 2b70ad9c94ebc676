import type { AnnotationsTable } from '../data/annotations.js';
import { InputError } from '../data/errors.js';
import type { JudgeLabelsTable } from '../data/judge-labels.js';
import type { CostPolicy } from '../data/policy.js';
import type { ScoresTable } from '../data/scores.js';
import type { Strata } from '../data/strata-file.js';
import type { ReportDocument, ReportInput, ReportSection } from './html.js';
import { agreementSection } from './sections/agreement.js';
import { allocationSection } from './sections/allocation.js';
import { archiveSection } from './sections/archive.js';
import { compareSection } from './sections/compare.js';
import { rankingSection } from './sections/ranking.js';
import { headlineSection } from './sections/headline.js';
import { judgeSection, type JudgeSectionOptions } from './sections/judge.js';
import { historySection } from './sections/history.js';
import { labelSection, type LabelReportSource } from './sections/label.js';
import type { HistoryRun } from '../decision/history.js';
import type { ReportSettings } from './sections/settings.js';
import { sizingSection } from './sections/sizing.js';
import { sweepSection } from './sections/sweep.js';

/** The loaded inputs of a report; every one but the scores is optional. */
export interface ReportSources {
  /** The scores of the candidates on the benchmark (`--scores`). */
  scores: ScoresTable;
  /** A pilot run of two candidates, for sizing and allocation (`--pilot --a --b`). */
  pilot?: { table: ScoresTable; a: string; b: string };
  strata?: Strata;
  policy?: { policy: CostPolicy; source: string };
  annotations?: AnnotationsTable;
  /** An LLM judge's scores with human labels beside some (`--judge-labels`): the judge section, as `benchplan judge`. */
  judge?: { table: JudgeLabelsTable } & JudgeSectionOptions;
  /** A benchmark archive folder (`benchplan freeze`): versions, integrity and the last rotation. */
  archive?: string;
  /** Dated runs of the instrument (`--history-run DATE=FILE`): the weekly dashboard. */
  history?: readonly HistoryRun[];
  /** Re-runs of the previous version at the history's version boundaries, by run date (`--history-rerun`). */
  historyReruns?: readonly HistoryRun[];
  /** A labelling session (`--label-session DIR`), its log read and replayed. */
  label?: LabelReportSource;
}

/** Settings of a report. */
export interface BuildReportOptions {
  /** The benchplan version, printed in the report. */
  version: string;
  /** The input files' fingerprints (fingerprintFile / fingerprintFolder). */
  inputs: readonly ReportInput[];
  /** Seed of every bootstrap; default "0". */
  seed?: string;
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Bootstrap resamples (and sign-flip permutations); default 9999. */
  nResamples?: number;
  /** Items to allocate and to size for; default the number of items in the scores. */
  budget?: number;
  /** The gap to size for (score units of the pilot); default the gap the budget resolves. */
  mde?: number;
  title?: string;
  /** The model in production: the ranking section adds each model's difference from it and the selection-adjusted bound of "leader − incumbent"; default none. */
  incumbent?: string;
  /** Leave out items some model did not score, in every section that pairs models (--drop-unpaired); default false: refused, naming them. */
  dropUnpaired?: boolean;
}

/**
 * Computes every section the inputs allow, in the order a reader needs them: which models
 * differ, how sure the choice of the best is (three or more models), scores by stratum, the cost sweep, sizing, allocation, agreement, the LLM judge, the archive, the
 * history of runs. Each
 * section holds its chart, the numbers beside it, the settings and seeds behind them and its
 * warnings. No clock; the same inputs and settings give the same document. Reads files only for
 * the archive (to re-hash it).
 * @param sources the loaded inputs.
 * @param options version, fingerprints and settings.
 * @returns the report document (render it with reportHtml).
 * @throws {InputError} when an input given cannot be used (e.g. a policy with scores that have no
 *   outcome column), naming the file; a library precondition that fails on a section's data (a
 *   RangeError such as "agreement needs at least two annotators") is rethrown as an InputError
 *   naming the files that section reads: `annotations.csv: agreement needs …`.
 * @throws {RangeError} for settings outside their domain.
 */
export function buildReport(sources: ReportSources, options: BuildReportOptions): ReportDocument {
  const settings: ReportSettings = {
    seed: options.seed ?? '0',
    confidenceLevel: options.confidenceLevel ?? 0.95,
    nResamples: options.nResamples ?? 9999,
    dropUnpaired: options.dropUnpaired ?? false,
  };
  if (!(settings.confidenceLevel > 0 && settings.confidenceLevel < 1)) throw new RangeError(`buildReport: confidenceLevel must be in (0, 1) (got ${settings.confidenceLevel})`);
  if (!(Number.isInteger(settings.nResamples) && settings.nResamples >= 1)) throw new RangeError(`buildReport: nResamples must be a whole number ≥ 1 (got ${settings.nResamples})`);
  const { scores, pilot, strata, policy, annotations, archive } = sources;
  const budget = options.budget ?? scores.items.length;
  if (!(Number.isInteger(budget) && budget >= 1)) throw new RangeError(`buildReport: budget must be a whole number ≥ 1 (got ${budget})`);
  const sections: ReportSection[] = [];
  const notes: string[] = [];

  if (scores.models.length >= 2) sections.push(onInputs([scores.source], () => compareSection(scores, settings).section));
  if (scores.models.length >= 3) sections.push(onInputs([scores.source], () => rankingSection(scores, settings, options.incumbent ?? null).section));
  else if (options.incumbent !== undefined) throw new InputError('needs three or more models in the scores: the ranking section is drawn only then', { file: '--incumbent', value: options.incumbent });
  else notes.push(`${scores.source} has one model (${scores.models[0]}): no comparison.`);

  if (strata) {
    if (scores.hasStratum) sections.push(onInputs([scores.source, strata.source], () => headlineSection(scores, strata, settings).section));
    else notes.push(`${scores.source} has no stratum column: no per-stratum scores.`);
  }

  if (policy) {
    if (!scores.hasOutcome) throw new InputError('the cost sweep (--policy) needs an outcome column in the scores', { file: scores.source });
    sections.push(onInputs([scores.source, policy.source], () => sweepSection(scores, policy.policy, policy.source, settings).section));
  }

  if (pilot) {
    if (options.mde !== undefined && !(options.mde > 0 && Number.isFinite(options.mde))) throw new RangeError(`buildReport: mde must be a finite number > 0 (got ${options.mde})`);
    if (budget < 2) {
      // A variance-based size needs two items to resolve any gap: a setting when given, the scores' fault when not.
      if (options.budget !== undefined) throw new RangeError(`buildReport: sizing from a pilot needs a budget of at least 2 items (got ${budget})`);
      throw new InputError(`sizing from a pilot needs a budget of at least 2 items, and the scores hold ${budget}: give --budget`, { file: scores.source });
    }
    const sizingFiles = strata && pilot.table.hasStratum ? [pilot.table.source, strata.source] : [pilot.table.source];
    sections.push(onInputs(sizingFiles, () => sizingSection(pilot.table, pilot.a, pilot.b, budget, options.mde, strata, settings).section));
    if (strata) sections.push(onInputs([pilot.table.source, strata.source], () => allocationSection(pilot.table, pilot.a, pilot.b, strata, budget, settings).section));
    else notes.push('Give --strata FILE with the pilot to compare allocations.');
  }

  if (annotations) sections.push(onInputs([annotations.source], () => agreementSection(annotations, settings).section));

  const judge = sources.judge;
  if (judge) sections.push(onInputs([judge.table.source], () => judgeSection(judge.table, settings, judge).section));

  if (archive !== undefined) sections.push(onInputs([archive], () => archiveSection(archive).section));

  const history = sources.history;
  if (history !== undefined && history.length > 0) sections.push(onInputs(history.map((r) => r.table.source), () => historySection(history, strata, settings, sources.historyReruns).section));

  if (sources.label !== undefined) {
    const label = sources.label;
    sections.push(onInputs([label.log.path], () => labelSection(label).section));
  }

  return {
    title: options.title ?? 'benchplan report',
    version: options.version,
    inputs: options.inputs,
    settings: [
      ['seed', settings.seed],
      ['confidence level', String(settings.confidenceLevel)],
      ['bootstrap resamples', String(settings.nResamples)],
      ['budget (items)', `${budget}${options.budget === undefined ? ' (the items in the scores)' : ''}`],
    ],
    sections,
    notes,
  };
}

/**
 * RangeErrors the JavaScript engine throws (array and string sizes, recursion depth, number
 * formatting): a bug or exhausted resources, never a statement about the user's data.
 */
const ENGINE_RANGE_ERROR = /^(Invalid (typed )?array length|Invalid string length|Maximum call stack size exceeded|Array buffer allocation failed|Invalid count value|Invalid time value|Invalid code point|\S+\(\) (digits|argument|radix))/;

/**
 * Runs one section's computation on its input files. The library functions a section calls
 * check their preconditions with a RangeError naming the bad value but not the file it came
 * from ("agreement needs at least two annotators (got 1: x)"); here that becomes an InputError
 * naming the files the section reads, the first being the one whose data the section is about:
 * `annotations.csv: agreement needs at least two annotators (got 1: x)`, or
 * `pilot.csv (with strata.yaml): …`. A leading `functionName: ` is dropped as noise for the
 * reader of the message. Any other error (an engine RangeError, a TypeError) is a bug and
 * passes through with its stack.
 */
function onInputs<T>(files: readonly string[], compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof RangeError && !ENGINE_RANGE_ERROR.test(error.message)) {
      const where = files.length > 1 ? `${files[0]} (with ${files.slice(1).join(', ')})` : files[0];
      throw new InputError(error.message.replace(/^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*: /, ''), { file: where });
    }
    throw error;
  }
}
