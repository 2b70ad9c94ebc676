import { constants, closeSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeTempFile } from '../data/atomic.js';
import { CheckFailed, InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import { parseWith } from '../data/validate.js';
import { archiveFolders, readArchiveVersion } from '../rotation/archive.js';
import { sha256File } from '../rotation/hash.js';
import { readArchiveHead } from '../rotation/head.js';
import { assertVersionIntact } from '../rotation/record-check.js';
import { versionRecordDigest } from '../rotation/record-digest.js';
import { checkVersionId, VERSION_ID_PATTERN } from '../rotation/version-id.js';

/** The `format` of the sign-off records this benchplan writes. */
export const SIGNOFF_RECORD_FORMAT = 'benchplan-signoff/1';
/** The archive's folder of sign-off records: `DIR/signoffs/<id>.json`. */
export const SIGNOFF_FOLDER = 'signoffs';
/** A sign-off record may not be larger than this. */
export const MAX_SIGNOFF_BYTES = 1024 * 1024;

/** What an evidence file is to the decision. */
export const EVIDENCE_ROLES = ['scores', 'strata', 'policy', 'shortlist', 'review', 'agreement'] as const;
export type EvidenceRole = (typeof EVIDENCE_ROLES)[number];

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** One file the decision rests on, by its path as given and its content's SHA-256. */
export const EvidenceSchema = z.strictObject({ role: z.enum(EVIDENCE_ROLES), path: z.string().min(1), sha256: Sha256, bytes: z.number().int().nonnegative() });
export type Evidence = z.infer<typeof EvidenceSchema>;

/** The record `signoffs/<id>.json`: who chose what, when, from which finalists, on what evidence. */
export const SignoffRecordSchema = z.strictObject({
  format: z.literal(SIGNOFF_RECORD_FORMAT),
  id: z.string().regex(VERSION_ID_PATTERN),
  reviewer: z.string().min(1),
  date: z.string().refine(isIsoDate, { message: 'must be a date YYYY-MM-DD' }),
  chosen: z.string().min(1),
  finalists: z.array(z.string()).min(1),
  note: z.string(),
  /** The benchmark version the decision was made on, with the record digest it had then. */
  archiveVersion: z.strictObject({ version: z.string().regex(VERSION_ID_PATTERN), recordDigest: Sha256, fingerprint: Sha256 }),
  /** The owner of the cost policy, when a policy is part of the evidence. */
  policyOwner: z.string().nullable(),
  /** The judge (model or rubric) that scored the outputs, when one did (seeds/000: a record names its judge). */
  judge: z.string().nullable(),
  /** Whether the gold labels the scores rest on were reviewed, or some are still unreviewed (seeds/000). */
  labels: z.enum(['reviewed', 'unreviewed']).nullable(),
  evidence: z.array(EvidenceSchema),
  /** SHA-256 of the record's canonical JSON without this field (versionRecordDigest). */
  recordDigest: Sha256,
});
export type SignoffRecord = z.infer<typeof SignoffRecordSchema>;

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
}

/** What signoff wrote. */
export interface SignoffResult {
  record: SignoffRecord;
  /** The record's path. */
  path: string;
}

/** The record as stored: two-space JSON with a final newline, keys in the schema's order. */
export function signoffRecordText(record: SignoffRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
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
  const reviewer = String(input.reviewer ?? '').trim();
  if (reviewer === '') throw new InputError('name the reviewer who owns the decision', { file: '--reviewer', value: input.reviewer });
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
  };
  return { ...body, recordDigest: versionRecordDigest(body) } as SignoffRecord;
}

/**
 * Records a decision in the archive, write-once: `DIR/signoffs/<id>.json` is written to a
 * temporary file, flushed, and hard-linked into place, which fails when the name exists, so of
 * two sign-offs of one id (even at the same moment) exactly one is stored, and a stored one is
 * never replaced. The file is read-only (0444). `verify` re-checks it (verifySignoff).
 * @returns the record and its path.
 * @throws {CheckFailed} when a sign-off of that id exists (exit 1); the errors of buildSignoffRecord.
 * @example signoff('out/archive', { id: 'q4-pick', reviewer: 'R. Ahmed', date: '2026-11-30', chosen: 'alpha', finalists: ['alpha'], evidence: [{ role: 'scores', path: 'examples/scores.csv' }] }).path // => 'out/archive/signoffs/q4-pick.json'
 */
export function signoff(archiveDir: string, input: SignoffInput): SignoffResult {
  const record = buildSignoffRecord(archiveDir, input);
  const folder = join(archiveDir, SIGNOFF_FOLDER);
  const stat = lstatOrNull(folder);
  if (stat === null) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new InputError(`cannot create the folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: folder });
    }
  } else if (!stat.isDirectory()) throw new InputError(`${SIGNOFF_FOLDER} must be a folder inside the archive (it is ${stat.isSymbolicLink() ? 'a symbolic link, never followed' : 'a file'})`, { file: archiveDir });
  const path = join(folder, `${record.id}.json`);
  let temp: string;
  try {
    temp = writeTempFile(path, signoffRecordText(record), 0o444);
  } catch (error) {
    throw new InputError(`cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CheckFailed(`${path}: a sign-off "${record.id}" already exists; sign-offs are write-once (choose another --id)`);
    throw new InputError(`cannot write: ${code ?? String(error)}`, { file: path });
  } finally {
    rmSync(temp, { force: true });
  }
  return { record, path };
}

/** One thing wrong with a sign-off, or worth knowing about it. */
export interface SignoffIssue {
  kind: 'changed' | 'missing' | 'unreadable';
  /** Relative to the archive (`signoffs/<id>.json`), or the evidence file's path as recorded. */
  path: string;
  detail: string;
}

/** What verify finds about one sign-off. */
export interface SignoffCheck {
  id: string;
  /** Problems: the record edited, its version changed, an evidence file changed since. */
  problems: SignoffIssue[];
  /** Evidence files no longer where the record says (reported, not failed: they may live elsewhere). */
  notes: string[];
  /** Evidence files re-hashed and found unchanged. */
  evidenceChecked: number;
}

/** Reads a sign-off file without following a link or blocking; null and a problem when it will not read. */
function readSignoffText(path: string): { text: string } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ELOOP' ? 'a symbolic link (never followed)' : `cannot be read: ${code ?? String(error)}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: 'not a regular file (never read)' };
    if (stat.size > MAX_SIGNOFF_BYTES) return { problem: `${stat.size} bytes, more than a sign-off may hold (${MAX_SIGNOFF_BYTES}); not read` };
    return { text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads one stored sign-off (a regular file, not a link, at most MAX_SIGNOFF_BYTES, the
 * documented shape); null when it does not read. Its digest is not checked here (verifySignoff does).
 * @example readSignoff('out/archive', '2026Q4-pick')?.chosen // => 'alpha'
 */
export function readSignoff(archiveDir: string, id: string): SignoffRecord | null {
  const read = readSignoffText(join(archiveDir, SIGNOFF_FOLDER, `${checkVersionId(id, '--id')}.json`));
  if ('problem' in read) return null;
  try {
    const parsed = SignoffRecordSchema.safeParse(JSON.parse(read.text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Checks one stored sign-off: it must read and have the documented shape, carry its file name's
 * id, match its own record digest (any edit of the reviewer, date, choice, note, finalists or a
 * recorded digest is caught), name an archive version whose record still has the digest it had
 * at sign-off, and every evidence file that is still at its recorded path (resolved from the
 * current folder) must hash to the recorded SHA-256. An evidence file that is gone is a note.
 * Like a version's record digest, this catches edits, not forgery: keep the printed record
 * digest elsewhere. A deleted sign-off is not detected (sign-offs are not in the version chain).
 * @param versionDigests each version's record digest as computed now (from verifyArchive).
 * @returns problems, notes and how many evidence files were re-hashed.
 * @example verifySignoff('out/archive', 'q4-pick', new Map([['2026Q3', '…']])).problems // => [] (intact)
 */
export function verifySignoff(archiveDir: string, id: string, versionDigests: ReadonlyMap<string, string>): SignoffCheck {
  const rel = `${SIGNOFF_FOLDER}/${id}.json`;
  const out: SignoffCheck = { id, problems: [], notes: [], evidenceChecked: 0 };
  const read = readSignoffText(join(archiveDir, rel));
  if ('problem' in read) {
    out.problems.push({ kind: 'unreadable', path: rel, detail: read.problem });
    return out;
  }
  let record: SignoffRecord;
  try {
    record = parseWith(SignoffRecordSchema, JSON.parse(read.text), { file: rel }) as SignoffRecord;
  } catch (error) {
    out.problems.push({ kind: 'changed', path: rel, detail: `the sign-off no longer reads: ${(error as Error).message.replace(`${rel}: `, '')}` });
    return out;
  }
  if (record.id !== id) out.problems.push({ kind: 'changed', path: rel, detail: `the record says id "${record.id}" but its file name says "${id}"` });
  const digest = versionRecordDigest(record);
  if (digest !== record.recordDigest) out.problems.push({ kind: 'changed', path: rel, detail: `the sign-off was edited after it was written: its content no longer matches its record digest (recorded ${record.recordDigest.slice(0, 12)}…, computed ${digest.slice(0, 12)}…)` });
  if (!record.finalists.includes(record.chosen)) out.problems.push({ kind: 'changed', path: rel, detail: `chosen "${record.chosen}" is not among its finalists` });
  const v = record.archiveVersion;
  const now = versionDigests.get(v.version);
  if (now === undefined) out.problems.push({ kind: 'missing', path: `versions/${v.version}.json`, detail: `sign-off ${id} was made on it` });
  else if (now !== v.recordDigest) out.problems.push({ kind: 'changed', path: `versions/${v.version}.json`, detail: `its record digest is not the one sign-off ${id} recorded (${v.recordDigest.slice(0, 12)}…)` });
  for (const e of record.evidence) {
    const stat = lstatOrNull(e.path);
    if (stat === null) {
      out.notes.push(`${rel}: the ${e.role} file ${e.path} is not here (run verify where the evidence lives to re-check it)`);
      continue;
    }
    let now: { sha256: string; bytes: number };
    try {
      now = sha256File(e.path, { regularOnly: true });
    } catch (error) {
      out.problems.push({ kind: 'unreadable', path: e.path, detail: `the ${e.role} file of sign-off ${id} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
      continue;
    }
    if (now.sha256 !== e.sha256) out.problems.push({ kind: 'changed', path: e.path, detail: `the ${e.role} file of sign-off ${id} changed since it was signed (recorded ${e.sha256.slice(0, 12)}…, now ${now.sha256.slice(0, 12)}…)` });
    else out.evidenceChecked += 1;
  }
  return out;
}
