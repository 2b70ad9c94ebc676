import type { Command } from '@commander-js/extra-typings';
import { confidenceFlag, confidenceOption, seedOption } from './shared-flags.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { preflightOutput, writeFileAtomic } from '../data/atomic.js';
import { requiredText, toFiniteNumber } from '../data/columns.js';
import { csvLine } from '../data/csv-text.js';
import { CheckFailed, InputError } from '../data/errors.js';
import { assertOutputsApart } from '../data/output-paths.js';
import { loadPool, type PoolTable } from '../data/pool.js';
import { openTable } from '../data/read.js';
import { loadScores } from '../data/scores.js';
import type { LabelAnswer, LabelPoolItem, LabelStatus } from '../label/loop.js';
import { readLabelLog, recordLabelSession, replayLabelLog, startLabelSession, type LabelAnswersRecord, type LabelHeader, type LabelLog, type LabelProposalRecord, type LabelSessionState, type LoggedLabelStatus } from '../label/session.js';
import { formatInterval, formatNumber, formatTable } from '../report/table.js';
import { sha256File } from '../rotation/hash.js';
import { EQUALITY_MODES, poolItems, type EqualityMode } from '../selection/index.js';
import { budgetFlag, choiceFlag, contextOf, emit, numberFlag, warningLines, type Context, type Io } from './io.js';
import { SCORE_RANGE_OPTION, scoreRangeFlag } from './sequential-flags.js';
import { VERSION } from './version.js';

const ACTIONS = ['start', 'record', 'status', 'replay'] as const;
type Action = (typeof ACTIONS)[number];

interface LabelFlags {
  session: string;
  baseline?: string;
  candidate?: string;
  judge?: string;
  margin?: string;
  budget?: string;
  seed: string;
  batch: string;
  confidence: string;
  scoreRange?: string;
  auditFloor?: string;
  assumeSameScore?: boolean;
  calibrateJudge?: boolean;
  equality: string;
  tolerance: string;
  outputColumn: string;
  out?: string;
}

/** The flags only `start` reads: given to another action they are refused, not ignored. */
const START_ONLY: ReadonlyArray<[keyof LabelFlags, string]> = [
  ['baseline', '--baseline'],
  ['candidate', '--candidate'],
  ['judge', '--judge'],
  ['margin', '--margin'],
  ['budget', '--budget'],
  ['scoreRange', '--score-range'],
  ['auditFloor', '--audit-floor'],
  ['assumeSameScore', '--assume-same-score'],
  ['calibrateJudge', '--calibrate-judge'],
];

/** `benchplan label … --json`: where the session stands. */
export interface LabelReport {
  action: Action;
  session: string;
  log: string;
  pool: string;
  baseline: string;
  candidate: string;
  judge: string | null;
  margin: number;
  budget: number;
  confidenceLevel: number;
  scoreRange: [number, number];
  seed: number;
  batchSize: number;
  poolSize: number;
  agreeing: number;
  /** continue while the session waits for labels; pass, fail or inconclusive once it has ended. */
  verdict: LabelStatus['verdict'];
  /** null before the first answers (and where the loop reports NaN). */
  estimate: number | null;
  confidenceInterval: [number | null, number | null] | null;
  labelsUsed: number;
  draws: number;
  labelsNeeded: number | null;
  reason: string;
  /** The open batch (null once ended), the file to fill and the items it asks for. */
  batch: number | null;
  batchFile: string | null;
  toLabel: string[];
  /** Every status so far, in order. */
  history: Array<{ batch: number } & LoggedLabelStatus>;
  /** Log lines checked (and, for replay, reproduced). */
  logLines: number;
  replayed: boolean;
  warnings: string[];
}

export function register(program: Command, io: Io): void {
  program
    .command('label')
    .description('label until decided: a resumable session that proposes which items to label, reads the labels back and stops when the gate is settled')
    .argument('<action>', `${ACTIONS.join(', ')}`)
    .argument('[file]', 'start: the pool (CSV or JSONL: item, model, output [, stratum, judge]); record: the filled batch file')
    .requiredOption('--session <dir>', 'the session folder: its append-only log (log.jsonl) and the batch files')
    .option('--baseline <model>', 'start: the model to protect, the baseline side of candidate − baseline')
    .option('--candidate <model>', 'start: the model that must not be worse by more than --margin, the candidate side of candidate − baseline')
    .option('--judge <column|file>', "start: a judge's scores for both models: a column of the pool, or a scores table (item, model, score)")
    .option('--margin <x>', 'start: largest acceptable drop of candidate − baseline, in score units')
    .option('--budget <n>', 'start: the most human labels (distinct items) to spend')
    .option(...seedOption('start: seed of the draws, a whole number (same seed and answers, same proposals)'))
    .option('--batch <n>', 'start: draws per proposed batch', '20')
    .option(...confidenceOption('start: level of the anytime-valid confidence sequence'))
    .option(SCORE_RANGE_OPTION[0], `start: ${SCORE_RANGE_OPTION[1]}`)
    .option('--audit-floor <share>', 'start: the least share of sampling mass on items whose outputs agree (default: the loop\'s)')
    .option('--assume-same-score', 'start: bound an unlabelled item whose outputs agree as scoring the same (bolder bets; switched off, with a warning, once an audit finds otherwise; see docs/label-method.md)')
    .option('--calibrate-judge', "start: recalibrate the judge on the labels so far before each batch (predictable, so still valid; helps a biased or weak judge)")
    .option('--equality <mode>', `start: how outputs are compared: ${EQUALITY_MODES.join(', ')}`, 'normalised')
    .option('--tolerance <x>', 'start: absolute tolerance of --equality numeric', '1e-9')
    .option('--output-column <name>', "start: the pool's column compared between the models and shown to labellers", 'output')
    .option('-o, --out <file>', 'start, record: where to write the next batch to fill (default: SESSION/batch-NNN.csv)')
    .addHelpText(
      'after',
      `
Actions:
  start POOL   create the session and its log, and write the first batch to fill
  record FILE  read a filled batch (batch, item, baseline, candidate), append it to the log, print the
               status and write the next batch (or the final verdict)
  status       where the session stands (--json for the document)
  replay       re-run the log from its seed and answers and check every proposal and status reproduces

Exit status: 0 while the session runs (verdict "continue") and on pass; 1 fail; 3 inconclusive (the
budget is spent); 2 bad input: an item not asked for, a second answer, a label outside the score
range, answers for an older batch, an edited log, a session another process is writing (nothing is
appended then).

Example:
  benchplan label start examples/label-pool.csv --baseline current --candidate candidate --margin 0.05 --budget 120 --session out/label`,
    )
    .action((actionRaw, file, flags, cmd) => {
      const ctx = contextOf(cmd, io);
      const action = choiceFlag('ACTION', actionRaw, ACTIONS) as Action;
      if (action !== 'start') {
        for (const [key, flag] of START_ONLY) if (flags[key] !== undefined) throw new InputError(`is read by label start only: the session's settings are in its log`, { file: flag, value: flags[key] });
      }
      if ((action === 'status' || action === 'replay') && file !== undefined) throw new InputError(`label ${action} takes no file`, { file, value: file });
      if ((action === 'status' || action === 'replay') && flags.out !== undefined) throw new InputError(`label ${action} writes nothing`, { file: '--out', value: flags.out });
      if (action === 'start') return start(ctx, file, flags as LabelFlags);
      if (action === 'record') return record(ctx, file, flags as LabelFlags);
      const log = readLabelLog(flags.session);
      const session = replayLabelLog(log);
      const report = reportOf(action, log, session, null, []);
      if (action === 'status') restoreBatchFile(log, session, report);
      emit(ctx, report, () => formatLabel(report, log, session));
      if (action === 'status') finish(report);
    });
}

function start(ctx: Context, poolPath: string | undefined, flags: LabelFlags): void {
  if (poolPath === undefined) throw new InputError('label start needs the pool: benchplan label start POOL --baseline A --candidate B --margin M --budget N --session DIR', { file: 'POOL' });
  for (const [key, flag] of [['baseline', '--baseline'], ['candidate', '--candidate'], ['margin', '--margin'], ['budget', '--budget']] as const) {
    if (flags[key] === undefined) throw new InputError('is required by label start', { file: flag });
  }
  const margin = numberFlag('--margin', flags.margin, { min: 0 }) as number;
  const budget = budgetFlag('--budget', flags.budget, 1) as number;
  const seed = numberFlag('--seed', flags.seed, { integer: true, min: 0, max: 2 ** 32 - 1 }) as number;
  const batchSize = numberFlag('--batch', flags.batch, { integer: true, min: 1, max: 100_000 }) as number;
  const confidence = confidenceFlag(flags.confidence);
  const scoreRange = scoreRangeFlag(flags.scoreRange) ?? [0, 1];
  const auditFloor = numberFlag('--audit-floor', flags.auditFloor, { min: 0, below: 1 });
  const equality = choiceFlag('--equality', flags.equality, EQUALITY_MODES) as EqualityMode;
  const tolerance = numberFlag('--tolerance', flags.tolerance, { min: 0 }) as number;
  const baseline = flags.baseline as string;
  const candidate = flags.candidate as string;
  if (baseline === candidate) throw new InputError('--baseline and --candidate must name two different models', { file: '--candidate', value: candidate });
  const batchFile = flags.out ?? join(flags.session, 'batch-001.csv');
  assertOutputsApart([{ flag: '--out', path: batchFile }, { flag: '--session', path: join(flags.session, 'log.jsonl') }], [{ flag: 'POOL', path: poolPath }, ...(flags.judge !== undefined && isFile(flags.judge) ? [{ flag: '--judge', path: flags.judge }] : [])]);

  const judgeIsFile = flags.judge !== undefined && isFile(flags.judge);
  if (flags.judge !== undefined && !judgeIsFile && /[\\/]|\.(csv|jsonl|ndjson)$/i.test(flags.judge)) throw new InputError('is neither an existing file nor a column name', { file: '--judge', value: flags.judge });
  const pool = loadPool(poolPath, { outputColumn: flags.outputColumn, ...(flags.judge !== undefined && !judgeIsFile ? { judgeColumn: flags.judge, requireJudge: true } : {}) });
  for (const [flag, m] of [['--baseline', baseline], ['--candidate', candidate]]) if (!pool.models.includes(m)) throw new InputError(`model is not in the pool (models: ${pool.models.join(', ')})`, { file: flag, value: m });
  const items = poolItems(pool, baseline, candidate, { mode: equality, tolerance });
  const judged = flags.judge === undefined ? null : judgeIsFile ? judgeFromFile(flags.judge, baseline, candidate, items.map((x) => x.item), scoreRange) : judgeFromColumn(pool, flags.judge, baseline, candidate, scoreRange);
  const loopItems: LabelPoolItem[] = items.map((x) => ({
    id: x.item,
    same: x.agree,
    ...(judged ? { judge: judged.get(x.item) as number } : {}),
    ...(pool.hasStratum ? { stratum: x.stratum } : {}),
  }));
  preflightOutput(batchFile, '--out');
  const header: LabelHeader = {
    kind: 'header',
    format: 'benchplan-label-session',
    formatVersion: 1,
    tool: VERSION,
    pool: { path: poolPath, sha256: sha256File(poolPath).sha256, items: loopItems.length },
    baseline,
    candidate,
    judge: flags.judge === undefined ? null : { source: flags.judge, kind: judgeIsFile ? 'file' : 'column', sha256: judgeIsFile ? sha256File(flags.judge).sha256 : null },
    equality: `${equality === 'numeric' ? `numeric (tolerance ${tolerance}), else normalised` : equality} on column "${flags.outputColumn}"`,
    options: { margin, budget, seed, batchSize, confidence, scoreRange, ...(auditFloor === undefined ? {} : { auditFloor }), ...(flags.assumeSameScore ? { assumeSameScore: true } : {}), ...(flags.calibrateJudge ? { calibrateJudge: true } : {}) },
    items: loopItems,
  };
  const { log, session } = startLabelSession(flags.session, header);
  const report = reportOf('start', log, session, batchFile, []);
  writeBatchFile(pool, log, session, batchFile);
  emit(ctx, report, () => formatLabel(report, log, session, pool));
}

function record(ctx: Context, answersPath: string | undefined, flags: LabelFlags): void {
  if (answersPath === undefined) throw new InputError('label record needs the filled batch file: benchplan label record FILE --session DIR', { file: 'FILE' });
  const before = readLabelLog(flags.session);
  const scoreRange = before.header.options.scoreRange ?? [0, 1];
  const { answers, lines } = readAnswers(answersPath, scoreRange);
  // The pool shows the next batch's outputs: checked before anything is appended.
  const loadedPool = poolOf(before);
  const { log, session } = recordLabelSession(flags.session, answers, (id) => lines.get(id));
  const batchFile = session.open === null ? null : (flags.out ?? join(flags.session, `batch-${String(session.open.batch).padStart(3, '0')}.csv`));
  const warnings: string[] = [];
  const report = reportOf('record', log, session, batchFile, warnings);
  const pool = batchFile === null ? undefined : loadedPool;
  if (pool !== undefined) writeBatchFile(pool, log, session, batchFile as string);
  emit(ctx, report, () => formatLabel(report, log, session, pool));
  finish(report);
}

/** Ends the command with the verdict's exit status once the session has ended (as gate). */
function finish(report: LabelReport): void {
  if (report.verdict === 'fail') throw new CheckFailed(`label: the session failed: ${report.reason}`, report, 1);
  if (report.verdict === 'inconclusive') throw new CheckFailed(`label: the session is inconclusive: ${report.reason}`, report, 3);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Judge differences candidate − baseline from the pool's judge column. */
function judgeFromColumn(pool: PoolTable, column: string, baseline: string, candidate: string, range: [number, number]): Map<string, number> {
  const byModel = new Map<string, { b?: number; c?: number; line: number }>();
  for (const row of pool.rows) {
    if (row.model !== baseline && row.model !== candidate) continue;
    const x = row.judge as number;
    if (!(x >= range[0] && x <= range[1])) throw new InputError(`the judge's score must lie in the score range [${range.join(', ')}]`, { file: pool.source, line: row.line, field: column, value: x });
    const e = byModel.get(row.item) ?? { line: row.line };
    if (row.model === baseline) e.b = x;
    else e.c = x;
    byModel.set(row.item, e);
  }
  return new Map([...byModel].map(([item, e]) => [item, (e.c as number) - (e.b as number)]));
}

/** Judge differences candidate − baseline from a scores table of the judge. */
function judgeFromFile(path: string, baseline: string, candidate: string, items: readonly string[], range: [number, number]): Map<string, number> {
  const table = loadScores(path);
  for (const [flag, m] of [['--baseline', baseline], ['--candidate', candidate]]) if (!table.models.includes(m)) throw new InputError(`model is not in the judge's scores (models: ${table.models.join(', ')})`, { file: path, field: 'model', value: m });
  const b = table.models.indexOf(baseline);
  const c = table.models.indexOf(candidate);
  const sums = new Map<string, { b: number[]; c: number[] }>();
  for (let r = 0; r < table.rowCount; r++) {
    const m = table.model[r];
    if (m !== b && m !== c) continue;
    const x = table.score[r];
    if (!(x >= range[0] && x <= range[1])) throw new InputError(`the judge's score must lie in the score range [${range.join(', ')}]`, { file: path, line: table.line[r], field: 'score', value: x });
    const item = table.items[table.item[r]];
    const e = sums.get(item) ?? { b: [], c: [] };
    (m === b ? e.b : e.c).push(x);
    sums.set(item, e);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const out = new Map<string, number>();
  for (const item of items) {
    const e = sums.get(item);
    if (!e || e.b.length === 0 || e.c.length === 0) throw new InputError(`item "${item}" of the pool has no judge score for ${!e || e.b.length === 0 ? baseline : candidate}`, { file: path, field: 'item', value: item });
    out.set(item, mean(e.c) - mean(e.b));
  }
  return out;
}

/**
 * Reads a filled batch: columns batch, item (or id), baseline, candidate; one batch number on
 * every row; each item once; both scores finite numbers in the score range.
 */
function readAnswers(path: string, range: [number, number]): { answers: LabelAnswersRecord; lines: Map<string, number> } {
  const reader = openTable(path);
  const answers: LabelAnswer[] = [];
  const lines = new Map<string, number>();
  let batch: number | undefined;
  let idColumn: string | undefined;
  const check = (columns: readonly string[], line: number): void => {
    idColumn = columns.includes('item') ? 'item' : columns.includes('id') ? 'id' : undefined;
    for (const name of ['batch', idColumn ?? 'item', 'baseline', 'candidate']) if (!columns.includes(name)) throw new InputError(`missing required column "${name}"`, { file: path, line, value: columns.join(',') });
  };
  if (reader.columns) check(reader.columns, 1);
  let first = true;
  for (const { line, values } of reader.records) {
    if (first && !reader.columns) check(Object.keys(values), line);
    first = false;
    const b = toFiniteNumber(values.batch);
    if (b === undefined || !Number.isInteger(b) || b < 1) throw new InputError('batch must be the batch number the file was written for', { file: path, line, field: 'batch', value: values.batch ?? null });
    if (batch !== undefined && b !== batch) throw new InputError(`batch must be the same on every row (${batch} on the first)`, { file: path, line, field: 'batch', value: values.batch });
    batch = b;
    const id = requiredText(values, idColumn as string, path, line);
    const seen = lines.get(id);
    if (seen !== undefined) throw new InputError(`item "${id}" has a second answer (first on line ${seen})`, { file: path, line, field: idColumn, value: id });
    lines.set(id, line);
    const score = (field: 'baseline' | 'candidate'): number => {
      const raw = values[field];
      if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) throw new InputError(`${field} is not filled in for item "${id}"`, { file: path, line, field, value: raw ?? null });
      const x = toFiniteNumber(raw);
      if (x === undefined) throw new InputError(`${field} must be a number`, { file: path, line, field, value: raw });
      if (!(x >= range[0] && x <= range[1])) throw new InputError(`${field} must lie in the session's score range [${range.join(', ')}]`, { file: path, line, field, value: raw });
      return x;
    };
    answers.push({ id, baseline: score('baseline'), candidate: score('candidate') });
  }
  if (batch === undefined) throw new InputError('has no answers', { file: path });
  return { answers: { kind: 'answers', batch, file: path, sha256: sha256File(path).sha256, answers }, lines };
}

/** The pool the session was started on, checked against the digest in its header. */
function poolOf(log: LabelLog): PoolTable {
  const path = log.header.pool.path;
  let digest: string;
  try {
    digest = sha256File(path).sha256;
  } catch (error) {
    throw new InputError(`cannot read the session's pool (needed to show the next batch's outputs): ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  if (digest !== log.header.pool.sha256) throw new InputError(`has changed since the session started (SHA-256 ${digest.slice(0, 12)}…, the log says ${log.header.pool.sha256.slice(0, 12)}…)`, { file: path });
  const column = /on column "(.*)"$/.exec(log.header.equality)?.[1] ?? 'output';
  return loadPool(path, { outputColumn: column });
}

/** The file labellers fill: the open batch's items with both outputs, scores left empty. */
function writeBatchFile(pool: PoolTable, log: LabelLog, session: LabelSessionState, path: string): void {
  const open = session.open as LabelProposalRecord;
  const outputs = new Map<string, string>();
  for (const row of pool.rows) outputs.set(`${row.item}\u0000${row.model}`, row.output ?? '');
  const strata = new Map(log.header.items.map((x) => [x.id, x.stratum]));
  const hasStratum = log.header.items.some((x) => x.stratum !== undefined);
  const rows = [csvLine(['batch', 'item', ...(hasStratum ? ['stratum'] : []), 'baseline_output', 'candidate_output', 'baseline', 'candidate'])];
  for (const id of open.toLabel) {
    rows.push(csvLine([open.batch, id, ...(hasStratum ? [strata.get(id)] : []), outputs.get(`${id}\u0000${log.header.baseline}`), outputs.get(`${id}\u0000${log.header.candidate}`), '', '']));
  }
  writeFileAtomic(path, `${rows.join('\n')}\n`);
}

/** `status` rewrites the open batch's default file if a crash lost it (it is derived from the log). */
function restoreBatchFile(log: LabelLog, session: LabelSessionState, report: LabelReport): void {
  if (session.open === null || report.batchFile === null || existsSync(report.batchFile)) return;
  writeBatchFile(poolOf(log), log, session, report.batchFile);
  report.warnings.push(`${report.batchFile} was missing (a command was stopped after it wrote the log): written again from the log`);
}

function reportOf(action: Action, log: LabelLog, session: LabelSessionState, batchFile: string | null, warnings: string[]): LabelReport {
  const h = log.header;
  const o = h.options;
  const s = session.status;
  const defaultFile = session.open === null ? null : join(log.dir, `batch-${String(session.open.batch).padStart(3, '0')}.csv`);
  const all = [...warnings, ...(s === null ? [] : s.warnings)];
  if (log.leftovers.length > 0 && action !== 'record') all.push(`${log.leftovers.length} temporary file(s) of a stopped writer are in the session folder (${log.leftovers.join(', ')}); the next label record removes them`);
  return {
    action,
    session: log.dir,
    log: log.path,
    pool: h.pool.path,
    baseline: h.baseline,
    candidate: h.candidate,
    judge: h.judge === null ? null : h.judge.source,
    margin: o.margin,
    budget: o.budget,
    confidenceLevel: o.confidence ?? 0.95,
    scoreRange: o.scoreRange ?? [0, 1],
    seed: o.seed,
    batchSize: o.batchSize ?? 20,
    poolSize: h.items.length,
    agreeing: h.items.filter((x) => x.same).length,
    verdict: s === null ? 'continue' : s.verdict,
    estimate: s === null ? null : s.estimate,
    confidenceInterval: s === null ? null : s.confidenceInterval,
    labelsUsed: s === null ? 0 : s.labelsUsed,
    draws: s === null ? (session.open?.draws.length ?? 0) : s.draws,
    labelsNeeded: s === null ? null : s.labelsNeeded,
    reason: s === null ? 'no labels yet' : s.reason,
    batch: session.open === null ? null : session.open.batch,
    batchFile: session.open === null ? null : (batchFile ?? defaultFile),
    toLabel: session.open === null ? [] : [...session.open.toLabel],
    history: session.history.map((r) => ({ batch: r.batch, ...r.status })),
    logLines: log.lines.length,
    replayed: true,
    warnings: all,
  };
}

/** A cell of the batch table: outputs cut to a readable width. */
function cut(text: string | undefined, width = 48): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function formatLabel(r: LabelReport, log: LabelLog, session: LabelSessionState, pool?: PoolTable): string {
  const out: string[] = [];
  const level = `${Math.round(r.confidenceLevel * 1000) / 10}%`;
  out.push(`Session ${r.session}: ${r.candidate} − ${r.baseline} on ${r.poolSize} pool items (${r.agreeing} with the same output), margin ${formatNumber(r.margin)}, budget ${r.budget} labels${r.judge === null ? '' : `, judge ${r.judge}`}.`);
  if (r.history.length > 0) {
    out.push('');
    out.push(
      formatTable(
        ['batch', 'labels', 'draws', 'estimate', `${level} sequence`, 'verdict'],
        r.history.map((s) => [String(s.batch), String(s.labelsUsed), String(s.draws), formatNumber(s.estimate ?? NaN), formatInterval([s.confidenceInterval[0] ?? -Infinity, s.confidenceInterval[1] ?? Infinity]), s.verdict]),
        { align: ['right', 'right', 'right', 'right', 'left', 'left'] },
      ),
    );
  }
  out.push('');
  if (r.verdict === 'continue') {
    out.push(`verdict: continue — ${r.reason}`);
  } else {
    const what = r.verdict === 'pass' ? `pass: ${r.candidate} is not worse than ${r.baseline} by more than ${formatNumber(r.margin)}` : r.verdict === 'fail' ? `fail: ${r.candidate} is worse than ${r.baseline} by more than ${formatNumber(r.margin)}` : `inconclusive: the budget is spent${r.labelsNeeded === null ? '' : `; about ${r.labelsNeeded} more labels would decide it`}`;
    out.push(`verdict: ${what} (${r.reason}); ${r.labelsUsed} labels used of ${r.budget}.`);
  }
  if (r.action === 'replay') out.push(`replay: all ${r.logLines} log lines check, and every proposal and status reproduces byte for byte from seed ${r.seed} and the recorded answers.`);
  if (session.open !== null && r.action !== 'replay') {
    const open = session.open;
    const reused = open.draws.filter((d) => d.reused).length;
    out.push(`Batch ${open.batch}: ${open.draws.length} draws, ${open.toLabel.length} item${open.toLabel.length === 1 ? '' : 's'} to label${reused > 0 ? ` (${reused} draw${reused === 1 ? '' : 's'} reuse${reused === 1 ? 's' : ''} a label already given)` : ''}.`);
    if (pool !== undefined) {
      const outputs = new Map<string, string>();
      for (const row of pool.rows) outputs.set(`${row.item}\u0000${row.model}`, row.output ?? '');
      out.push(formatTable(['item', r.baseline, r.candidate], open.toLabel.map((id) => [id, cut(outputs.get(`${id}\u0000${r.baseline}`)), cut(outputs.get(`${id}\u0000${r.candidate}`))]), { align: ['left', 'left', 'left'] }));
    } else {
      out.push(`items: ${open.toLabel.join(', ')}`);
    }
    out.push(`Fill in the baseline and candidate columns of ${r.batchFile}, then: benchplan label record ${r.batchFile} --session ${r.session}`);
  }
  void log;
  out.push(...warningLines(r.warnings));
  return out.join('\n');
}
