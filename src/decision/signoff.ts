import { linkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeTempFile } from '../data/atomic.js';
import { CheckFailed, InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import { archiveFolders, readArchiveVersion } from '../rotation/archive.js';
import { sha256File } from '../rotation/hash.js';
import { readArchiveHead } from '../rotation/head.js';
import { describeLockOwner, lockWithin, tryLock, type HeldLock } from '../rotation/lock.js';
import { readSignoffHead, SIGNOFF_HEAD_FILE, SIGNOFF_HEAD_FORMAT, SIGNOFF_LOCK_PATH, SIGNOFF_LOCK_WAIT_MS, signoffHeadText, type SignoffHead, type SignoffLink } from '../rotation/signoff-head.js';
import { makeArchiveFolder } from '../rotation/archive-folder.js';
import { lstatOrNull, readSignoff, SIGNOFF_FOLDER, SIGNOFF_RECORD_FORMAT, signoffRecordText, type Evidence, type EvidenceRole, type SignoffRecord } from '../rotation/signoff-record.js';
import { assertVersionIntact } from '../rotation/record-check.js';
import { versionRecordDigest } from '../rotation/record-digest.js';
import { checkVersionId } from '../rotation/version-id.js';
import { PLAN_FOLDER, verifyPlan, type PlanLink } from '../rotation/plan-record.js';
import { removeDeadWritersTemporaryFiles } from '../rotation/leftovers.js';
import { completeInterruptedSignoff, syncFolder } from '../rotation/signoff-recovery.js';

// The record's format, reading and checking live with the archive (rotation/signoff-record.ts), which verify walks.
export {
  EVIDENCE_ROLES,
  EvidenceSchema,
  MAX_SIGNOFF_BYTES,
  readSignoff,
  SIGNOFF_FOLDER,
  SIGNOFF_RECORD_FORMAT,
  signoffRecordText,
  SignoffRecordSchema,
  verifySignoff,
  type Evidence,
  type EvidenceRole,
  type SignoffCheck,
  type SignoffIssue,
  type SignoffRecord,
} from '../rotation/signoff-record.js';

/** What a sign-off needs. Paths are hashed now and named in the record as given. */
export interface SignoffInput {
  id: string;
  reviewer: string;
  /** The date of the decision, YYYY-MM-DD (the library never reads the clock). */
  date: string;
  chosen: string;
  /** The finalists of the shortlist (ShortlistResult.finalists); `chosen` must be one. */
  finalists: readonly string[];
  note?: string;
  /** The archive version decided on; default the head of the archive's hash chain. */
  version?: string;
  policyOwner?: string | null;
  /** The judge that scored the outputs, if any. */
  judge?: string | null;
  /** `reviewed` or `unreviewed`: the state of the gold labels, if known. */
  labels?: 'reviewed' | 'unreviewed' | null;
  evidence: ReadonlyArray<{ role: EvidenceRole; path: string }>;
  /** The analysis plan the decision was made under (stored in this archive: DIR/plans/ID.json), by id and record digest. */
  plan?: PlanLink | null;
  /** The departures from the plan allowed with --deviate, each with its reason (recorded only with a plan). */
  deviations?: ReadonlyArray<{ field: string; plan: unknown; used: unknown; reason: string }>;
}

/** What signoff wrote. */
export interface SignoffResult {
  record: SignoffRecord;
  /** The record's path. */
  path: string;
  /**
   * True when this call found its own earlier attempt interrupted after the head named it, and
   * completed that commit instead of writing a new record (the same decision, already chained).
   */
  completedInterrupted: boolean;
}


/** The plan must be stored in the archive the sign-off goes to, intact, with the digest the analysis ran under. */
function checkPlanInArchive(archiveDir: string, plan: PlanLink): PlanLink {
  const check = verifyPlan(archiveDir, plan.id);
  const path = join(archiveDir, PLAN_FOLDER, `${plan.id}.json`);
  if (check.recordDigest === null) {
    const problem = check.problems[0];
    throw new InputError(problem.kind === 'missing' ? `the plan "${plan.id}" is not in this archive: freeze it here with benchplan plan --archive ${archiveDir}` : problem.detail, { file: path });
  }
  if (check.problems.length > 0) throw new CheckFailed(`${path}: ${check.problems[0].detail}; run benchplan verify`);
  if (check.recordDigest !== plan.recordDigest) throw new InputError(`is not the plan the analysis ran under (record digest ${check.recordDigest.slice(0, 12)}… in the archive, ${plan.recordDigest.slice(0, 12)}… given)`, { file: path });
  return { id: plan.id, recordDigest: plan.recordDigest };
}

function hashEvidence(role: EvidenceRole, path: string): Evidence {
  try {
    const digest = sha256File(path, { regularOnly: true });
    return { role, path, sha256: digest.sha256, bytes: digest.bytes };
  } catch (error) {
    throw new InputError(`cannot read the ${role} file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
}

/**
 * Builds a sign-off record (pure but for hashing the evidence files and reading the archive
 * version): the reviewer, the date, the chosen candidate, the finalists, the note, the archive
 * version with its record digest and fingerprint, the policy's owner, the judge, whether the
 * labels were reviewed, and each evidence file's
 * SHA-256 (the digest `sha256sum FILE` prints). The version must be intact
 * (assertVersionIntact): nobody signs off on a changed benchmark.
 * @throws {InputError} for a bad id, an empty reviewer, a date that is not YYYY-MM-DD, a chosen
 *   candidate that is not a finalist, a version not in the archive, an unreadable evidence file.
 *   {CheckFailed} when the version's record was changed.
 * @example buildSignoffRecord('out/archive', { id: 'q4-pick', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha'], evidence: [] }).recordDigest // => 64 hex digits
 */
export function buildSignoffRecord(archiveDir: string, input: SignoffInput): SignoffRecord {
  const id = checkVersionId(input.id, '--id');
  if (`${id}.json` === SIGNOFF_HEAD_FILE) throw new InputError(`"${id}" is reserved (signoffs/${SIGNOFF_HEAD_FILE} is the sign-off chain's head)`, { file: '--id', value: input.id });
  const reviewer = String(input.reviewer ?? '').trim();
  if (reviewer === '') throw new InputError('name the reviewer who owns the decision', { file: '--reviewer', value: input.reviewer });
  // A newline would forge a second line in every listing of the record, an ANSI escape would repaint the terminal that shows it.
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]/u.test(reviewer)) throw new InputError('must be a plain name on one line: no newline, control character (ANSI escape), zero-width or direction character', { file: '--reviewer', value: input.reviewer });
  if (!isIsoDate(input.date)) throw new InputError('must be a date YYYY-MM-DD', { file: '--date', value: input.date });
  if (input.finalists.length === 0) throw new InputError('the shortlist has no finalist: there is nothing to sign off', { file: '--shortlist' });
  if (input.labels != null && input.labels !== 'reviewed' && input.labels !== 'unreviewed') throw new InputError('must be reviewed or unreviewed', { file: '--labels', value: input.labels });
  if (!input.finalists.includes(input.chosen)) throw new InputError(`must be one of the shortlist's finalists (${input.finalists.join(', ')})`, { file: '--chosen', value: input.chosen });
  archiveFolders(archiveDir);
  let version = input.version;
  if (version === undefined) {
    const head = readArchiveHead(archiveDir);
    if (!('head' in head)) throw new InputError('the archive has no head version; name the version decided on with --version', { file: archiveDir });
    version = head.head.version;
  }
  const record = readArchiveVersion(archiveDir, version);
  assertVersionIntact(record, join(archiveDir, 'versions', `${version}.json`));
  const evidence = input.evidence.map((e) => hashEvidence(e.role, e.path));
  const body = {
    format: SIGNOFF_RECORD_FORMAT,
    id,
    reviewer,
    date: input.date,
    chosen: input.chosen,
    finalists: [...input.finalists],
    note: input.note ?? '',
    archiveVersion: { version, recordDigest: record.recordDigest ?? versionRecordDigest(record), fingerprint: record.fingerprint },
    policyOwner: input.policyOwner ?? null,
    judge: input.judge ?? null,
    labels: input.labels ?? null,
    evidence,
    ...(input.plan == null ? {} : { plan: checkPlanInArchive(archiveDir, input.plan), deviations: (input.deviations ?? []).map((d) => ({ field: d.field, plan: d.plan, used: d.used, reason: d.reason })) }),
  };
  if (input.plan == null && (input.deviations ?? []).length > 0) throw new InputError('deviations are recorded only with the plan they depart from', { file: '--deviate' });
  return { ...body, recordDigest: versionRecordDigest(body) } as SignoffRecord;
}

/**
 * Records a decision in the archive, write-once and chained: under the archive's sign-off lock
 * (SIGNOFF_LOCK_PATH, taken with lockWithin, waiting up to SIGNOFF_LOCK_WAIT_MS), the record
 * gets the next place in the sign-off chain (`sequence`, and `previous`: the id and record
 * digest of the newest sign-off, as `signoffs/head.json` names it and as that record still
 * has), then `signoffs/head.json` is replaced (temporary file, flush, rename) and the record is
 * hard-linked into place as `DIR/signoffs/<id>.json` (0444), which fails when the name exists,
 * so a stored sign-off is never replaced. `verify` walks the chain from the head, so a deleted,
 * replaced or re-ordered sign-off is caught (verifySignoffChain), as well as an edited one
 * (verifySignoff). Any number of processes may sign off at once.
 * Crash-safe at every step: the record is written and flushed under a temporary name before
 * the head names it, so a writer killed between replacing the head and linking the record
 * leaves the head's record on disk; the next sign-off (of any id) completes that commit under
 * the lock (completeInterruptedSignoff, a roll forward), and a re-run of the same sign-off with
 * the same inputs returns the completed record. Temporary files of dead writers go on the next
 * run (removeDeadWritersTemporaryFiles). A missing record with no such file is a deletion:
 * verify reports it and the next sign-off refuses.
 * @returns the record and its path.
 * @throws {CheckFailed} when a sign-off of that id exists, the lock is held by a live writer
 *   past the wait, or the chain's newest sign-off is missing or not the record the head names
 *   (exit 1); the errors of buildSignoffRecord.
 * @example signoff('out/archive', { id: 'q4-pick', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha'], evidence: [{ role: 'scores', path: 'examples/scores.csv' }] }).path // => 'out/archive/signoffs/q4-pick.json'
 */
export function signoff(archiveDir: string, input: SignoffInput): SignoffResult {
  const draft = buildSignoffRecord(archiveDir, input);
  const folder = join(archiveDir, SIGNOFF_FOLDER);
  makeArchiveFolder(archiveDir, folder, SIGNOFF_FOLDER);
  makeArchiveFolder(archiveDir, join(archiveDir, 'locks'), 'locks');
  const path = join(folder, `${draft.id}.json`);
  const lock = takeSignoffLock(archiveDir);
  try {
    // A commit that died between replacing the head and linking its record left the record under
    // its temporary name: complete it (roll forward), so the chain is whole before it grows.
    const completed = completeInterrupted(archiveDir);
    removeDeadWritersTemporaryFiles(archiveDir);
    if (lstatOrNull(path)) {
      // The re-run of that very sign-off, with the same inputs: what it would write is on disk now.
      if (completed !== null && completed.id === draft.id && sameDecision(completed, draft)) return { record: completed, path, completedInterrupted: true };
      throw new CheckFailed(existsMessage(path, draft.id));
    }
    const tip = signoffChainTip(archiveDir);
    const { recordDigest: _unchained, ...body } = draft;
    const chained = { ...body, sequence: tip.sequence, previous: tip.previous };
    const record = { ...chained, recordDigest: versionRecordDigest(chained) } as SignoffRecord;
    const headPath = join(folder, SIGNOFF_HEAD_FILE);
    let temp: string;
    try {
      temp = writeTempFile(path, signoffRecordText(record), 0o444);
    } catch (error) {
      throw new InputError(`cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
    }
    try {
      const head: SignoffHead = { format: SIGNOFF_HEAD_FORMAT, id: record.id, recordDigest: record.recordDigest, sequence: tip.sequence, previous: tip.previous };
      writeHead(headPath, signoffHeadText(head));
      try {
        linkSync(temp, path);
        syncFolder(folder);
      } catch (error) {
        restoreHead(headPath, tip.text);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new CheckFailed(existsMessage(path, record.id));
        throw new InputError(`cannot write: ${code ?? String(error)}`, { file: path });
      }
    } finally {
      rmSync(temp, { force: true });
    }
    return { record, path, completedInterrupted: false };
  } finally {
    lock.release();
  }
}

function completeInterrupted(archiveDir: string): SignoffRecord | null {
  try {
    return completeInterruptedSignoff(archiveDir);
  } catch (error) {
    throw new InputError(`cannot complete the interrupted sign-off: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: join(archiveDir, SIGNOFF_FOLDER) });
  }
}

/** True when a stored record is the decision `draft` describes (all but its place in the chain). */
function sameDecision(stored: SignoffRecord, draft: SignoffRecord): boolean {
  const { recordDigest: _a, sequence: _s, previous: _p, ...a } = stored;
  const { recordDigest: _b, ...b } = draft;
  return versionRecordDigest(a) === versionRecordDigest(b);
}

function existsMessage(path: string, id: string): string {
  return `${path}: a sign-off "${id}" already exists; sign-offs are write-once (choose another --id)`;
}


function takeSignoffLock(archiveDir: string): HeldLock {
  const path = join(archiveDir, SIGNOFF_LOCK_PATH);
  let attempt;
  try {
    attempt = SIGNOFF_LOCK_WAIT_MS > 0 ? lockWithin(path, SIGNOFF_LOCK_WAIT_MS) : tryLock(path);
  } catch (error) {
    throw new InputError(`cannot create the lock: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  if ('held' in attempt) return attempt.held;
  throw new CheckFailed(`${archiveDir}: the sign-offs are locked by ${describeLockOwner(attempt.busy.owner)} (${SIGNOFF_LOCK_PATH}): another sign-off is being written; try again when it is done`);
}

/** The place the next sign-off takes, and the head's text as it was (to restore on failure). */
function signoffChainTip(archiveDir: string): { sequence: number; previous: SignoffLink | null; text: string | null } {
  const headPath = join(archiveDir, SIGNOFF_FOLDER, SIGNOFF_HEAD_FILE);
  const read = readSignoffHead(archiveDir);
  if ('problem' in read) throw new CheckFailed(`${headPath}: ${read.problem}; run benchplan verify`);
  if ('absent' in read) return { sequence: 1, previous: null, text: null };
  const h = read.head;
  const newest = join(archiveDir, SIGNOFF_FOLDER, `${h.id}.json`);
  const record = readSignoff(archiveDir, h.id);
  if (record === null) throw new CheckFailed(`${newest}: ${headPath} names it as the newest sign-off, but it is missing or does not read (deleted?); run benchplan verify`);
  if (record.recordDigest !== h.recordDigest || versionRecordDigest(record) !== h.recordDigest) throw new CheckFailed(`${newest}: recordDigest: not the record the sign-off chain holds for ${h.id} (replaced or edited?); run benchplan verify`);
  return { sequence: h.sequence + 1, previous: { id: h.id, recordDigest: h.recordDigest }, text: signoffHeadText(h) };
}

function writeHead(headPath: string, text: string): void {
  let temp = '';
  try {
    temp = writeTempFile(headPath, text, 0o644);
    renameSync(temp, headPath);
  } catch (error) {
    if (temp !== '') rmSync(temp, { force: true });
    throw new InputError(`cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: headPath });
  }
}

function restoreHead(headPath: string, text: string | null): void {
  if (text === null) rmSync(headPath, { force: true });
  else writeHead(headPath, text);
}
