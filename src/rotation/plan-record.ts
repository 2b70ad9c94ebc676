import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeTempFile } from '../data/atomic.js';
import { CheckFailed, InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import { parseJsonDocument } from '../data/json-document.js';
import { parseWith } from '../data/validate.js';
import { archiveFolders } from './archive.js';
import { lstatOrNull, makeArchiveFolder } from './archive-folder.js';
import { readSmallFile, Sha256 } from './head.js';
import { versionRecordDigest } from './record-digest.js';
import { checkVersionId, VERSION_ID_PATTERN } from './version-id.js';

// The analysis plan as the archive stores it (`plans/<id>.json`): its shape, writing (write-once)
// and checking, shared by `benchplan plan` (src/decision/plan.ts builds it) and verify, so the
// archive's verify does not depend on src/decision.

/** The `format` of the plan records this benchplan writes. */
export const PLAN_RECORD_FORMAT = 'benchplan-plan/1';
/** The archive's folder of plans: `DIR/plans/<id>.json`. */
export const PLAN_FOLDER = 'plans';
/** A plan may not be larger than this. */
export const MAX_PLAN_BYTES = 256 * 1024;

const Name = z.string().min(1);

/** The strata the plan fixes: the file's digest, its stratum names in file order, and the traffic shares when it has them. */
export const PlanStrataSchema = z.strictObject({
  source: z.string().min(1),
  sha256: Sha256,
  names: z.array(Name).min(1),
  traffic: z.record(z.string(), z.number().min(0).max(1)).nullable(),
});

/** The stopping rule: a fixed number of items, or a sequential (anytime-valid) design with its sequence and an item cap. */
export const PlanStoppingSchema = z.discriminatedUnion('rule', [
  z.strictObject({ rule: z.literal('fixed'), items: z.number().int().positive().nullable() }),
  z.strictObject({ rule: z.literal('sequential'), sequence: z.enum(['auto', 'agrapa', 'betting', 'eb']), maxItems: z.number().int().positive().nullable() }),
]);

/** The decision rule: the three verdicts, and what an inconclusive one is read as. */
export const PlanDecisionSchema = z.strictObject({
  verdicts: z.tuple([z.literal('pass'), z.literal('fail'), z.literal('inconclusive')]),
  inconclusive: z.enum(['inconclusive', 'pass', 'fail']),
});

/**
 * The settings a plan fixes. `null` means "not fixed by the plan": the analysis may choose.
 * Each has the name of the JSON field an analysis echoes (confidenceLevel, nResamples, seed).
 */
export const PlanSettingsSchema = z.strictObject({
  baseline: Name.nullable(),
  candidate: Name.nullable(),
  incumbent: Name.nullable(),
  models: z.array(Name).min(1).nullable(),
  margin: z.number().min(0).nullable(),
  mde: z.number().positive().nullable(),
  confidenceLevel: z.number().gt(0).lt(1).nullable(),
  method: Name.nullable(),
  nResamples: z.number().int().min(0).nullable(),
  seed: z.string().nullable(),
  cluster: z.boolean().nullable(),
  stratified: z.boolean().nullable(),
  perStratum: z.boolean().nullable(),
  strata: PlanStrataSchema.nullable(),
  stopping: PlanStoppingSchema.nullable(),
  budget: z.number().int().positive().nullable(),
  decision: PlanDecisionSchema,
});
export type PlanSettings = z.infer<typeof PlanSettingsSchema>;

/** The record `plans/<id>.json`: who planned what, when, before the data. */
export const PlanRecordSchema = z.strictObject({
  format: z.literal(PLAN_RECORD_FORMAT),
  id: z.string().regex(VERSION_ID_PATTERN),
  date: z.string().refine(isIsoDate, { message: 'must be a date YYYY-MM-DD' }),
  author: z.string().nullable(),
  note: z.string(),
  ...PlanSettingsSchema.shape,
  /** SHA-256 of the record's canonical JSON without this field (versionRecordDigest). */
  recordDigest: Sha256,
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;

/** A reference to a stored plan: its id and record digest (what a sign-off made under it records). */
export const PlanLinkSchema = z.strictObject({ id: z.string().regex(VERSION_ID_PATTERN), recordDigest: Sha256 });
export type PlanLink = z.infer<typeof PlanLinkSchema>;

/** A departure from the plan allowed with --deviate: the field, the plan's value, the value used, and why. */
export const DeviationSchema = z.strictObject({ field: z.string().min(1), plan: z.unknown(), used: z.unknown(), reason: z.string().min(1) });

/** The plan as stored: two-space JSON with a final newline, keys in the schema's order. */
export function planRecordText(plan: PlanRecord): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

/**
 * Reads a plan document from its text: JSON (a key named twice refused, with its line), the
 * documented shape (an unknown field or a wrong type names the field, its line and value), and
 * a record digest that matches its content (an edited plan is refused).
 * @param file the name used in messages.
 * @throws {InputError} naming the file, line, field and value.
 * @example parsePlanText(planRecordText(plan), 'plan.json').margin // => 0.02
 */
export function parsePlanText(text: string, file: string): PlanRecord {
  const { data, lineOf } = parseJsonDocument(text, file, 'write it with benchplan plan');
  const plan = parseWith(PlanRecordSchema, data, { file, lineOf }) as PlanRecord;
  const digest = versionRecordDigest(plan);
  if (digest !== plan.recordDigest) {
    throw new InputError(`the plan was edited after it was written: its content no longer matches its record digest (recorded ${plan.recordDigest.slice(0, 12)}…, computed ${digest.slice(0, 12)}…)`, { file, field: 'recordDigest' });
  }
  return plan;
}

/**
 * Reads a plan file (a regular file, never a link, at most MAX_PLAN_BYTES) and checks it (parsePlanText).
 * @throws {InputError} naming the file when it is absent, unreadable or not a valid plan.
 */
export function readPlanFile(path: string): PlanRecord {
  const read = readSmallFile(path, MAX_PLAN_BYTES);
  if ('absent' in read) throw new InputError('no such plan file', { file: path });
  if ('problem' in read) throw new InputError(read.problem, { file: path });
  return parsePlanText(read.text, path);
}

/** A plan's path in an archive. */
export function planPath(archiveDir: string, id: string): string {
  return join(archiveDir, PLAN_FOLDER, `${checkVersionId(id, '--id')}.json`);
}

/**
 * Stores a plan in the archive, write-once: written and flushed under a temporary name, then
 * hard-linked to `DIR/plans/<id>.json` (0444), which fails when the name exists, so a stored plan
 * is never replaced. The archive is created when absent (a plan may come before the benchmark).
 * @returns the path written.
 * @throws {CheckFailed} when a plan of that id exists (exit 1); {InputError} when the archive or
 *   its plans folder is not a folder, or the file system refuses.
 */
export function writePlanRecord(archiveDir: string, plan: PlanRecord): string {
  archiveFolders(archiveDir, { create: true });
  const folder = join(archiveDir, PLAN_FOLDER);
  makeArchiveFolder(archiveDir, folder, PLAN_FOLDER);
  const path = planPath(archiveDir, plan.id);
  const exists = `${path}: a plan "${plan.id}" already exists; plans are write-once (choose another --id)`;
  if (lstatOrNull(path) !== null) throw new CheckFailed(exists);
  let temp: string;
  try {
    temp = writeTempFile(path, planRecordText(plan), 0o444);
  } catch (error) {
    throw new InputError(`cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CheckFailed(exists);
    throw new InputError(`cannot write: ${code ?? String(error)}`, { file: path });
  } finally {
    rmSync(temp, { force: true });
  }
  return path;
}

/** One thing wrong with a stored plan. */
export interface PlanIssue {
  kind: 'changed' | 'missing' | 'unreadable';
  /** Relative to the archive (`plans/<id>.json`). */
  path: string;
  detail: string;
}

/**
 * Checks one stored plan for verify: it must read, have the documented shape, carry its file
 * name's id and match its own record digest (any edit of a margin, a name, the stopping rule is
 * caught). Like every record digest, this catches edits, not forgery; a sign-off made under the
 * plan records its digest too, so a plan replaced after a sign-off is caught there.
 * @returns the problems (empty when intact) and the digest computed now (null when it does not read).
 * @example verifyPlan('out/archive', 'q4-plan').problems // => []
 */
export function verifyPlan(archiveDir: string, id: string): { problems: PlanIssue[]; recordDigest: string | null } {
  const rel = `${PLAN_FOLDER}/${id}.json`;
  const read = readSmallFile(join(archiveDir, rel), MAX_PLAN_BYTES);
  if ('absent' in read) return { problems: [{ kind: 'missing', path: rel, detail: 'no such plan' }], recordDigest: null };
  if ('problem' in read) return { problems: [{ kind: 'unreadable', path: rel, detail: read.problem }], recordDigest: null };
  let plan: PlanRecord;
  try {
    const { data } = parseJsonDocument(read.text, rel, 'a plan');
    plan = parseWith(PlanRecordSchema, data, { file: rel }) as PlanRecord;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problems: [{ kind: 'changed', path: rel, detail: `the plan no longer reads: ${error.message.replace(new RegExp(`^${rel.replace(/[.]/g, '\\.')}(:\\d+)?: `), '')}` }], recordDigest: null };
  }
  const problems: PlanIssue[] = [];
  if (plan.id !== id) problems.push({ kind: 'changed', path: rel, detail: `the plan says id "${plan.id}" but its file name says "${id}"` });
  const digest = versionRecordDigest(plan);
  if (digest !== plan.recordDigest) problems.push({ kind: 'changed', path: rel, detail: `the plan was edited after it was written: its content no longer matches its record digest (recorded ${plan.recordDigest.slice(0, 12)}…, computed ${digest.slice(0, 12)}…)` });
  return { problems, recordDigest: digest };
}
