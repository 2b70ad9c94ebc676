import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import { parseJsonText } from '../data/json-text.js';
import { parseWith } from '../data/validate.js';
import { sha256File } from './hash.js';
import { readSmallFile } from './head.js';
import { versionRecordDigest } from './record-digest.js';
import { SignoffLinkSchema } from './signoff-head.js';
export { lstatOrNull } from './archive-folder.js';
import { lstatOrNull } from './archive-folder.js';
import { DeviationSchema, PlanLinkSchema, verifyPlan } from './plan-record.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

// The sign-off record as the archive stores it (`signoffs/<id>.json`): its format, reading and
// checking, shared by the writer (src/decision/signoff.ts) and verify (verify.ts), so that the
// archive's verify does not depend on src/decision.

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
  /** The analysis plan the decision was made under (benchplan plan), by id and record digest; absent when none was given. */
  plan: PlanLinkSchema.optional(),
  /** The departures from that plan allowed with --deviate (here and in the shortlist), each with its reason; absent without a plan. */
  deviations: z.array(DeviationSchema).optional(),
  /** Its place in the archive's sign-off chain (1 for the first); absent in sign-offs written before the chain. */
  sequence: z.number().int().min(1).optional(),
  /** The sign-off before it in the chain (null for the first); absent in sign-offs written before the chain. */
  previous: SignoffLinkSchema.nullable().optional(),
  /** SHA-256 of the record's canonical JSON without this field (versionRecordDigest). */
  recordDigest: Sha256,
});
export type SignoffRecord = z.infer<typeof SignoffRecordSchema>;

/** The record as stored: two-space JSON with a final newline, keys in the schema's order. */
export function signoffRecordText(record: SignoffRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
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

/** Reads a sign-off file without following a link or blocking; a problem when it will not read. */
function readSignoffText(path: string): { text: string } | { problem: string } {
  const read = readSmallFile(path, MAX_SIGNOFF_BYTES);
  return 'absent' in read ? { problem: 'cannot be read: ENOENT' } : read;
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
    const parsed = SignoffRecordSchema.safeParse(parseJsonText(read.text, { file: id }));
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
 * digest elsewhere. Deleted, replaced and re-ordered sign-offs are verifySignoffChain's part.
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
    // parseJsonText refuses a key named twice: JSON.parse keeps the last, so a forged first value would pass the digest check.
    record = parseWith(SignoffRecordSchema, parseJsonText(read.text, { file: rel }), { file: rel }) as SignoffRecord;
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
  if (record.plan !== undefined) {
    const plan = verifyPlan(archiveDir, record.plan.id);
    const planRel = `plans/${record.plan.id}.json`;
    if (plan.recordDigest === null && plan.problems.some((p) => p.kind === 'missing')) out.problems.push({ kind: 'missing', path: planRel, detail: `sign-off ${id} was made under it` });
    else if (plan.recordDigest !== null && plan.recordDigest !== record.plan.recordDigest) out.problems.push({ kind: 'changed', path: planRel, detail: `its record digest is not the one sign-off ${id} recorded (${record.plan.recordDigest.slice(0, 12)}…)` });
  }
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
