import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeTempFile } from '../data/atomic.js';
import { canonicalJson } from '../data/canonical-json.js';
import { InputError } from '../data/errors.js';
import { sha256Hex } from '../rotation/hash.js';
import { describeLockOwner, tryLock } from '../rotation/lock.js';
import { labelLoopStatus, proposeLabelBatch, recordLabelAnswers, startLabelLoop, type LabelAnswer, type LabelDraw, type LabelLoopOptions, type LabelLoopState, type LabelPoolItem, type LabelStatus } from './loop.js';

/** The log's file name inside a session folder. */
export const LABEL_LOG_FILE = 'log.jsonl';
/** The lock a writer (`start`, `record`) holds in the session folder while it appends. */
export const LABEL_LOCK_FILE = '.lock';
/** The `format` of a session log's header. */
export const LABEL_LOG_FORMAT = 'benchplan-label-session';

/** The first line of a session log: what the session is about and every setting of the loop. */
export interface LabelHeader {
  kind: 'header';
  format: typeof LABEL_LOG_FORMAT;
  formatVersion: 1;
  /** The benchplan version that started the session (informative: replay uses the running one). */
  tool: string;
  /** The pool file as given, its SHA-256 and the number of items. */
  pool: { path: string; sha256: string; items: number };
  baseline: string;
  candidate: string;
  /** The judge's source (a pool column or a scores file) and its SHA-256 when a file; null without a judge. */
  judge: { source: string; kind: 'column' | 'file'; sha256: string | null } | null;
  /** How `same` was decided, e.g. `normalised on column "output"`. */
  equality: string;
  /** The loop's options, with every default filled in, so a replay needs only the log. */
  options: LabelLoopOptions;
  /** The pool as the loop sees it, in pool order. */
  items: LabelPoolItem[];
}

/** A proposed batch: every draw with its probability, and the items that need a human label. */
export interface LabelProposalRecord {
  kind: 'proposal';
  batch: number;
  draws: LabelDraw[];
  toLabel: string[];
}

/** A batch of human answers as read from a filled batch file. */
export interface LabelAnswersRecord {
  kind: 'answers';
  batch: number;
  /** The answers file as given, and its SHA-256 (a file recorded twice is refused). */
  file: string;
  sha256: string;
  answers: LabelAnswer[];
}

/**
 * A status as the log holds it: JSON has no NaN or infinity, so a number the loop reports as NaN
 * (the estimate before any draw, the standard error before two) or ±Infinity is null here.
 */
export type LoggedLabelStatus = Omit<LabelStatus, 'estimate' | 'standardError' | 'confidenceInterval'> & {
  estimate: number | null;
  standardError: number | null;
  confidenceInterval: [number | null, number | null];
};

/** The loop's status after a batch of answers. */
export interface LabelStatusRecord {
  kind: 'status';
  batch: number;
  status: LoggedLabelStatus;
}

/** One record of the log, before its chain fields. */
export type LabelRecord = LabelHeader | LabelProposalRecord | LabelAnswersRecord | LabelStatusRecord;

/** A line of the log: the record, its position, the previous line's digest and its own. */
export type LabelLogLine = LabelRecord & { seq: number; prev: string | null; digest: string };

/** A session log as read and checked. */
export interface LabelLog {
  dir: string;
  path: string;
  /** The log's bytes as read (a writer appends to exactly these). */
  text: string;
  lines: LabelLogLine[];
  header: LabelHeader;
  /** Leftovers of a writer that was killed (temporary files): removed by the next writer. */
  leftovers: string[];
}

/** Where a replayed session stands. */
export interface LabelSessionState {
  state: LabelLoopState;
  /** The last status (null before the first answers). */
  status: LoggedLabelStatus | null;
  /** Every status in order. */
  history: LabelStatusRecord[];
  /** The batch waiting for answers, or null when the session has ended. */
  open: LabelProposalRecord | null;
  /** Answers recorded so far, by batch. */
  answers: LabelAnswersRecord[];
  /** True once a status with a final verdict (pass, fail, inconclusive) is in the log. */
  ended: boolean;
}

/** After this many proposals in a row that need no new label, the loop is not progressing: a bug. */
const MAX_EMPTY_PROPOSALS = 10_000;

/**
 * The digest of a log line: SHA-256 of the canonical JSON of the record with `seq` and `prev`
 * (the previous line's digest; null for the header), so editing, removing or reordering any
 * line breaks the chain from there on.
 * @example labelLineDigest({ kind: 'status', batch: 1, status: {} } as never, 2, 'ab').length // => 64
 */
export function labelLineDigest(record: LabelRecord, seq: number, prev: string | null): string {
  return sha256Hex(canonicalJson({ ...record, seq, prev }));
}

/** Serialises records as log lines after `prev` (canonical JSON, one line each, chained). */
function toLines(records: readonly LabelRecord[], firstSeq: number, prev: string | null): string {
  let out = '';
  let last = prev;
  records.forEach((record, k) => {
    const seq = firstSeq + k;
    const digest = labelLineDigest(record, seq, last);
    out += `${canonicalJson({ ...record, seq, prev: last, digest })}\n`;
    last = digest;
  });
  return out;
}

/**
 * Every record a session's log holds after its header, regenerated from the header and the
 * answers: a proposal, then for each batch of answers the answers, the status and (while the
 * verdict is `continue`) the next proposal. A proposal that needs no new label (every draw
 * reused a known label) is followed directly by its status. This one function makes the log
 * when recording and checks it when replaying, so the two cannot drift apart.
 * @param header the session's header.
 * @param answers the answer batches so far, in order.
 * @param check called with each record as it is made (replay compares it with the log's).
 * @returns the records and the loop's state.
 * @throws {Error} what the loop throws for an answer it refuses (the caller names the file).
 */
export function labelSessionRecords(header: LabelHeader, answers: readonly LabelAnswersRecord[], check?: (record: LabelRecord, index: number) => void): { records: LabelRecord[]; session: LabelSessionState } {
  let state = startLabelLoop(header.items, header.options);
  const produced: LabelRecord[] = [];
  // Each record is checked as it is made (replay), so an edit is found where it first shows.
  const records = { push: (r: LabelRecord) => (check?.(r, produced.length), produced.push(r)) };
  const history: LabelStatusRecord[] = [];
  let batch = 0;
  let open: LabelProposalRecord | null = null;
  let ended = false;
  const advance = (): void => {
    for (let empty = 0; ; empty++) {
      if (empty > MAX_EMPTY_PROPOSALS) throw new Error(`labelSessionRecords: ${MAX_EMPTY_PROPOSALS} proposals in a row needed no label`);
      const proposed = proposeLabelBatch(state);
      state = proposed.state;
      batch += 1;
      const proposal: LabelProposalRecord = { kind: 'proposal', batch, draws: proposed.draws, toLabel: proposed.toLabel };
      records.push(proposal);
      if (proposed.toLabel.length > 0) {
        open = proposal;
        return;
      }
      if (settle()) return;
    }
  };
  const settle = (): boolean => {
    const status = loggedStatus(labelLoopStatus(state));
    const record: LabelStatusRecord = { kind: 'status', batch, status };
    records.push(record);
    history.push(record);
    if (status.verdict !== 'continue') {
      ended = true;
      open = null;
      return true;
    }
    return false;
  };
  advance();
  for (const given of answers) {
    if (open === null || ended) throw new Error(`answers for batch ${given.batch}, but the session has ended`);
    if (given.batch !== (open as LabelProposalRecord).batch) throw new Error(`answers for batch ${given.batch}, but the open batch is ${(open as LabelProposalRecord).batch}`);
    state = recordLabelAnswers(state, given.answers);
    records.push(given);
    open = null;
    if (!settle()) advance();
  }
  return { records: produced, session: { state, status: history.length > 0 ? history[history.length - 1].status : null, history, open, answers: [...answers], ended } };
}

/** The status with every non-finite number as null, so that it has one JSON form. */
function loggedStatus(status: LabelStatus): LoggedLabelStatus {
  const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
  return { ...status, estimate: finite(status.estimate), standardError: finite(status.standardError), confidenceInterval: [finite(status.confidenceInterval[0]), finite(status.confidenceInterval[1])] };
}

/**
 * Starts a session: creates the folder (which must not hold a log already) and writes the log
 * with its header and the first proposal, atomically (a reader sees no log or the whole first
 * step). Takes the session's lock while writing.
 * @param dir the session folder.
 * @param header the header (options with defaults filled in).
 * @returns the log as written and the session's state.
 * @throws {InputError} when the folder holds a session already, is being written by another
 *   process, or the loop refuses the pool or the options (message naming the option).
 */
export function startLabelSession(dir: string, header: LabelHeader): { log: LabelLog; session: LabelSessionState } {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new InputError(`cannot create the session folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: dir });
  }
  return withSessionLock(dir, () => {
    const path = join(dir, LABEL_LOG_FILE);
    if (existsSync(path)) throw new InputError('holds a session already: record answers with benchplan label record, or start in a new folder', { file: dir, value: LABEL_LOG_FILE });
    removeLeftovers(dir);
    let built: ReturnType<typeof labelSessionRecords>;
    let full: LabelHeader;
    try {
      // Every default resolved into the header: a later version's defaults cannot change a replay.
      full = { ...header, options: { ...startLabelLoop(header.items, header.options).options } };
      built = labelSessionRecords(full, []);
    } catch (error) {
      if (error instanceof RangeError || error instanceof TypeError) throw new InputError(error.message.replace(/^[a-zA-Z]+: /, ''), { file: header.pool.path });
      throw error;
    }
    const text = toLines([full, ...built.records], 1, null);
    commitLog(dir, '', text);
    return { log: parseLog(dir, text), session: built.session };
  });
}

/**
 * Records a batch of answers: under the session's lock, reads and checks the log, replays it,
 * checks the answers against the open batch, and appends the answers, the new status and the
 * next proposal in one atomic step (the whole new log is written beside the old and renamed
 * over it after an fsync, so a crash leaves the old log or the new one, never part of a step).
 * Before it appends, the log's lines are checked to be kept byte for byte.
 * @param dir the session folder.
 * @param answers the batch, as read from the answers file (batch number, file, digest, answers).
 * @returns the new log and state.
 * @throws {InputError} naming the answers file (and line when `lineOf` knows it) for answers the
 *   loop refuses, an older or unknown batch, a file recorded already, a session that has ended;
 *   naming the log line for a log that does not check.
 */
export function recordLabelSession(dir: string, answers: LabelAnswersRecord, lineOf: (id: string) => number | undefined = () => undefined): { log: LabelLog; session: LabelSessionState } {
  return withSessionLock(dir, () => {
    const log = readLabelLog(dir);
    const before = replayLabelLog(log);
    removeLeftovers(dir);
    const where = { file: answers.file };
    const recorded = before.answers.find((a) => a.sha256 === answers.sha256);
    if (recorded) throw new InputError(`was recorded already as the answers of batch ${recorded.batch}`, { ...where, value: answers.sha256.slice(0, 12) });
    if (before.ended) throw new InputError(`the session has ended (${before.status?.verdict}): there is nothing left to label`, { ...where, field: 'batch', value: answers.batch });
    const open = before.open as LabelProposalRecord;
    if (answers.batch < open.batch) throw new InputError(`is for batch ${answers.batch}, whose answers are recorded already; the open batch is ${open.batch}`, { ...where, field: 'batch', value: answers.batch });
    if (answers.batch > open.batch) throw new InputError(`is for batch ${answers.batch}, which has not been proposed; the open batch is ${open.batch}`, { ...where, field: 'batch', value: answers.batch });
    checkAnswers(log, before, answers, lineOf);
    let built: ReturnType<typeof labelSessionRecords>;
    try {
      built = labelSessionRecords(log.header, [...before.answers, answers]);
    } catch (error) {
      if (error instanceof InputError || !(error instanceof Error)) throw error;
      const id = answers.answers.find((a) => error.message.includes(`"${a.id}"`))?.id;
      throw new InputError(error.message, { ...where, line: id === undefined ? undefined : lineOf(id) });
    }
    const oldRecords = log.lines.length - 1;
    const added = built.records.slice(oldRecords);
    const last = log.lines[log.lines.length - 1];
    const text = log.text + toLines(added, last.seq + 1, last.digest);
    commitLog(dir, log.text, text);
    return { log: parseLog(dir, text), session: built.session };
  });
}

/**
 * The answers must be exactly the open batch's items, each once, both scores in the session's
 * score range: an item labelled in an earlier batch, one not asked for, one not in the pool, a
 * second answer, a missing answer or a score outside the range is refused, naming the item.
 */
function checkAnswers(log: LabelLog, session: LabelSessionState, answers: LabelAnswersRecord, lineOf: (id: string) => number | undefined): void {
  const open = session.open as LabelProposalRecord;
  const asked = new Set(open.toLabel);
  const earlier = new Map<string, number>();
  for (const a of session.answers) for (const x of a.answers) earlier.set(x.id, a.batch);
  const inPool = new Set(log.header.items.map((x) => x.id));
  const [lo, hi] = log.header.options.scoreRange ?? [0, 1];
  const seen = new Set<string>();
  for (const a of answers.answers) {
    const where = { file: answers.file, line: lineOf(a.id), field: 'item', value: a.id };
    if (seen.has(a.id)) throw new InputError(`item "${a.id}" has a second answer in this file`, where);
    seen.add(a.id);
    if (!asked.has(a.id)) {
      const batch = earlier.get(a.id);
      if (batch !== undefined) throw new InputError(`item "${a.id}" was labelled in batch ${batch} already: a second answer is refused (its first label stands)`, where);
      if (!inPool.has(a.id)) throw new InputError(`item "${a.id}" is not in the session's pool`, where);
      throw new InputError(`item "${a.id}" was not asked for in batch ${open.batch} (it asks for ${open.toLabel.length} items)`, where);
    }
    for (const field of ['baseline', 'candidate'] as const) {
      const x = a[field];
      if (!(Number.isFinite(x) && x >= lo && x <= hi)) throw new InputError(`${field} must lie in the session's score range [${lo}, ${hi}]`, { ...where, field, value: x });
    }
  }
  const missing = open.toLabel.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).map((id) => `"${id}"`).join(', ');
    throw new InputError(`batch ${open.batch} asks for ${open.toLabel.length} items and ${missing.length} have no answer (${shown}${missing.length > 5 ? ', …' : ''}): label every item of the batch (leaving out the hard ones would bias the estimate)`, { file: answers.file, field: 'item' });
  }
}

/**
 * Reads a session's log and checks it: every line is one JSON object; `seq` counts from 1; each
 * line's `prev` is the digest of the line before and its `digest` that of its own content; the
 * first line is a header this version reads. Temporary files a killed writer left are listed.
 * @throws {InputError} `DIR/log.jsonl:LINE: …` naming the field and value that do not check,
 *   or the folder when it holds no log.
 */
export function readLabelLog(dir: string): LabelLog {
  const path = join(dir, LABEL_LOG_FILE);
  let text: string;
  try {
    if (!lstatSync(path).isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOTREG' });
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(`holds no session log (${LABEL_LOG_FILE}): start one with benchplan label start`, { file: dir });
    throw new InputError(`cannot read the session log: ${code ?? String(error)}`, { file: path });
  }
  return parseLog(dir, text);
}

function parseLog(dir: string, text: string): LabelLog {
  const path = join(dir, LABEL_LOG_FILE);
  if (text.length === 0) throw new InputError('is empty: a session log starts with its header', { file: path, line: 1 });
  if (!text.endsWith('\n')) throw new InputError('ends in the middle of a line: the log was cut or edited (a benchplan writer replaces it whole)', { file: path, line: text.split('\n').length });
  const raw = text.slice(0, -1).split('\n');
  const lines: LabelLogLine[] = [];
  let prev: string | null = null;
  raw.forEach((lineText, k) => {
    const line = k + 1;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch {
      throw new InputError('is not a JSON object: the log was edited', { file: path, line, value: lineText });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError('is not a JSON object: the log was edited', { file: path, line, value: lineText });
    const record = value as Record<string, unknown>;
    if (record.seq !== line) throw new InputError(`seq must be ${line}: a line was removed, added or moved`, { file: path, line, field: 'seq', value: record.seq ?? null });
    if (record.prev !== prev) throw new InputError(`prev must be the digest of line ${line - 1}: a line was removed, added or edited`, { file: path, line, field: 'prev', value: record.prev ?? null });
    const { seq, prev: p, digest, ...body } = record;
    const expected = labelLineDigest(body as unknown as LabelRecord, seq as number, p as string | null);
    if (digest !== expected) throw new InputError('digest does not match the line: the line was edited', { file: path, line, field: 'digest', value: digest ?? null });
    if (canonicalJson(record) !== lineText) throw new InputError('is not in canonical form: the line was rewritten', { file: path, line, value: lineText });
    lines.push(record as unknown as LabelLogLine);
    prev = digest as string;
  });
  const header = lines[0] as unknown as LabelHeader;
  if (header.kind !== 'header' || header.format !== LABEL_LOG_FORMAT) throw new InputError(`the first line must be a ${LABEL_LOG_FORMAT} header`, { file: path, line: 1, field: 'format', value: (header as { format?: unknown }).format ?? null });
  if (header.formatVersion !== 1) throw new InputError('this benchplan reads session logs of format version 1', { file: path, line: 1, field: 'formatVersion', value: header.formatVersion });
  for (const l of lines.slice(1)) {
    if (l.kind !== 'proposal' && l.kind !== 'answers' && l.kind !== 'status') throw new InputError('kind must be proposal, answers or status', { file: path, line: l.seq, field: 'kind', value: (l as { kind: unknown }).kind });
  }
  return { dir, path, text, lines, header, leftovers: leftoversIn(dir) };
}

/**
 * Replays a session from its log: the loop restarted from the header's pool and seed and fed
 * the recorded answers must give every proposal and status in the log byte for byte (canonical
 * JSON). This is how a session resumes, and how an audit checks one.
 * @returns where the session stands.
 * @throws {InputError} `log.jsonl:LINE: … differs from the replay` at the first line that does not
 *   reproduce (the log was edited consistently, or another version of the loop proposes otherwise).
 */
export function replayLabelLog(log: LabelLog): LabelSessionState {
  const answers = log.lines.filter((l): l is LabelLogLine & LabelAnswersRecord => l.kind === 'answers').map(bodyOf) as LabelAnswersRecord[];
  const stored = log.lines.slice(1);
  const compare = (want: LabelRecord, k: number): void => {
    const line = k + 2;
    const have = stored[k];
    if (have === undefined) throw new InputError(`ends after line ${line - 1}, but the replay continues with a ${want.kind} of batch ${(want as { batch: number }).batch}: the last step was not written whole`, { file: log.path, line: line - 1 });
    const a = canonicalJson(bodyOf(have));
    const b = canonicalJson(want);
    if (a !== b) throw new InputError(`this ${have.kind} differs from the replay (the log was edited, or this version's loop differs from the one that wrote it)`, { file: log.path, line, field: firstDifference(bodyOf(have), want), value: a.slice(0, 60) });
  };
  let built: ReturnType<typeof labelSessionRecords>;
  try {
    built = labelSessionRecords(log.header, answers, compare);
  } catch (error) {
    if (!(error instanceof Error) || error instanceof InputError) throw error;
    throw new InputError(`the replay refuses the log: ${error.message}`, { file: log.path });
  }
  if (stored.length > built.records.length) {
    const have = stored[built.records.length];
    throw new InputError(`a ${have.kind} the replay does not produce (the session ended or waits for answers before it)`, { file: log.path, line: built.records.length + 2, field: 'kind', value: have.kind });
  }
  return built.session;
}

/** The record of a log line without its chain fields. */
function bodyOf(line: LabelLogLine): LabelRecord {
  const { seq: _s, prev: _p, digest: _d, ...body } = line;
  return body as LabelRecord;
}

function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])];
    for (const key of keys) {
      const x = (a as Record<string, unknown>)[key];
      const y = (b as Record<string, unknown>)[key];
      if (canonicalJson(x ?? null) !== canonicalJson(y ?? null)) return firstDifference(x, y, path === '' ? key : `${path}.${key}`);
    }
  }
  return path === '' ? 'record' : path;
}

/** Temporary files a killed writer left in the session folder. */
function leftoversIn(dir: string): string[] {
  try {
    // The log's, a batch file's or the lock's temporary file: `.NAME.PID.K.tmp` (writeTempFile).
    return readdirSync(dir).filter((name) => /^\..+\.\d+\.\d+\.tmp$/.test(name)).sort();
  } catch {
    return [];
  }
}

function removeLeftovers(dir: string): void {
  for (const name of leftoversIn(dir)) rmSync(join(dir, name), { force: true });
}

/**
 * Replaces the log by `text`, which must extend the log's current bytes `before`: written to a
 * temporary file, flushed, renamed over the log, and the folder flushed so the rename survives
 * a power cut.
 */
function commitLog(dir: string, before: string, text: string): void {
  if (!text.startsWith(before)) throw new Error('commitLog: a session log only grows');
  const path = join(dir, LABEL_LOG_FILE);
  let temp = '';
  try {
    temp = writeTempFile(path, text, 0o444);
    renameSync(temp, path);
    temp = '';
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (temp !== '') rmSync(temp, { force: true });
    throw new InputError(`cannot write the session log: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}

/** Runs `write` holding the session's lock; another writer finds it held and is refused. */
function withSessionLock<T>(dir: string, write: () => T): T {
  const path = join(dir, LABEL_LOCK_FILE);
  let attempt: ReturnType<typeof tryLock>;
  try {
    attempt = tryLock(path);
  } catch (error) {
    throw new InputError(`cannot take the session's lock: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  if ('busy' in attempt) throw new InputError(`another benchplan label is writing this session (${describeLockOwner(attempt.busy.owner)}): nothing was recorded; try again when it is done`, { file: dir });
  try {
    return write();
  } finally {
    attempt.held.release();
  }
}
