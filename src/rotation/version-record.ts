import { z } from 'zod';
import { isIsoDate } from '../data/dates.js';
import { ChainLinkSchema } from './head.js';
import { VERSION_ID_PATTERN } from './version-id.js';

// The version record's format and schema: what a frozen version says about itself (archive.ts
// writes and reads it; record-check.ts checks it).
/**
 * The `format` field of the version records this benchplan writes; bump it if the record's
 * shape changes. Version 2 added `recordDigest`; version 3 the archive's hash chain
 * (`sequence`, `previous`) and the parent's record digest.
 */
export const VERSION_RECORD_FORMAT = 'benchplan-version/3';

/** Records frozen before the hash chain (they carry `recordDigest`); still read, with a verify note. */
export const VERSION_RECORD_FORMAT_V2 = 'benchplan-version/2';

/** The format of records frozen by an older benchplan, before records carried `recordDigest`; still read. */
export const VERSION_RECORD_FORMAT_V1 = 'benchplan-version/1';

/** A version record file may not be larger than this (a record of 100 000 items is about 30 MB). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

/** One item of a frozen version: where it sits, its label and provenance, and its content's hash. */
export const VersionItemSchema = z.strictObject({
  item: z.string().min(1),
  stratum: z.string().min(1),
  split: z.enum(['dev', 'eval']),
  label: z.union([z.string(), z.number(), z.boolean()]).optional(),
  added: z.string().optional(),
  source: z.string().optional(),
  /** SHA-256 of the content: the file `objects/<sha256>` holds it. */
  sha256: Sha256,
  /** The content's size in bytes. */
  bytes: z.number().int().nonnegative(),
});
export type VersionItem = z.infer<typeof VersionItemSchema>;

/** Per stratum: how many eval and dev items a version has. */
export const VersionStratumCountSchema = z.strictObject({ stratum: z.string(), eval: z.number().int(), dev: z.number().int() });
export type VersionStratumCount = z.infer<typeof VersionStratumCountSchema>;

/** The record `versions/<id>.json` of one frozen benchmark version. */
export const VersionRecordSchema = z
  .strictObject({
  format: z.enum([VERSION_RECORD_FORMAT_V1, VERSION_RECORD_FORMAT_V2, VERSION_RECORD_FORMAT]),
  version: z.string().regex(VERSION_ID_PATTERN),
  /** The day it was frozen, `YYYY-MM-DD`. */
  date: z.string().refine(isIsoDate, 'must be a date YYYY-MM-DD'),
  /** The annotation guideline version the labels follow, or null. */
  guideline: z.string().nullable(),
  fingerprint: Sha256,
  /**
   * SHA-256 of this record's canonical JSON without this field (`versionRecordDigest`): catches
   * an accidental edit of any field, including those the fingerprint leaves out (date, counts,
   * an item's added, source, bytes). Absent in `benchplan-version/1` records.
   */
  recordDigest: Sha256.optional(),
  /**
   * The archive's hash chain (format 3): this record's place in the order versions were frozen
   * into this archive (1 for the first chained one) and the version frozen just before it, with
   * that record's digest. A deleted, replaced or re-ordered record breaks the chain.
   */
  sequence: z.number().int().min(1).optional(),
  previous: ChainLinkSchema.nullable().optional(),
  /** The version this one was rotated from, with that version's fingerprint (and, format 3, record digest) at the time. */
  parent: z.strictObject({ version: z.string().regex(VERSION_ID_PATTERN), fingerprint: Sha256, recordDigest: Sha256.optional() }).nullable(),
  counts: z.strictObject({ items: z.number().int(), eval: z.number().int(), dev: z.number().int() }),
  strata: z.array(VersionStratumCountSchema),
  /** Sorted by item id. */
  items: z.array(VersionItemSchema),
  })
  .superRefine((record, ctx) => {
    // A current record without a field was edited (the field removed); an old one never had it.
    if (record.format !== VERSION_RECORD_FORMAT_V1 && record.recordDigest === undefined) {
      ctx.addIssue({ code: 'custom', path: ['recordDigest'], message: `is required in a ${record.format} record` });
    }
    if (record.format === VERSION_RECORD_FORMAT_V1 && record.recordDigest !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['recordDigest'], message: `a ${VERSION_RECORD_FORMAT_V1} record has none (the format says it was frozen before records carried one)` });
    }
    const chained = record.format === VERSION_RECORD_FORMAT;
    for (const [field, present] of [['sequence', record.sequence !== undefined], ['previous', record.previous !== undefined]] as const) {
      if (chained && !present) ctx.addIssue({ code: 'custom', path: [field], message: `is required in a ${VERSION_RECORD_FORMAT} record` });
      if (!chained && present) ctx.addIssue({ code: 'custom', path: [field], message: `a ${record.format} record has none (the format says it was frozen before the hash chain)` });
    }
    if (chained && record.parent && record.parent.recordDigest === undefined) ctx.addIssue({ code: 'custom', path: ['parent', 'recordDigest'], message: `is required in a ${VERSION_RECORD_FORMAT} record` });
    if (!chained && record.parent?.recordDigest !== undefined) ctx.addIssue({ code: 'custom', path: ['parent', 'recordDigest'], message: `a ${record.format} record has none` });
    if (chained && record.sequence !== undefined && record.previous !== undefined && (record.sequence === 1) !== (record.previous === null)) {
      ctx.addIssue({ code: 'custom', path: ['previous'], message: 'is null exactly for the first version of the chain (sequence 1)' });
    }
  });
export type VersionRecord = z.infer<typeof VersionRecordSchema>;

/** The keys VersionItemSchema allows (a strict object), in its order. */
const VERSION_ITEM_KEYS: ReadonlySet<string> = new Set(Object.keys(VersionItemSchema.shape));
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/**
 * The items of a parsed record when every one is plainly valid, copied as `VersionItemSchema`
 * would give them (its keys, in its order); undefined when any is not, or may not be, so that the
 * caller parses the whole record with the schema and reports exactly what it reports. The check
 * is never laxer than the schema: a doubt (an unknown key, `__proto__`, a label of another type,
 * a size that is not a safe integer) falls back to it. At 10⁵ items this takes the schema's
 * per-item work out of every verify (issue 33); tests/rotation/record-fast-parse.test.ts checks
 * it against the schema item by item.
 * @example plainVersionItems([{ bytes: 3, sha256: 'a'.repeat(64), split: 'eval', stratum: 's', item: 'x' }]) // => [{ item: 'x', stratum: 's', split: 'eval', sha256: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', bytes: 3 }]
 */
export function plainVersionItems(items: unknown): VersionItem[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const out: VersionItem[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const x: unknown = items[i];
    if (typeof x !== 'object' || x === null || Array.isArray(x) || Object.getPrototypeOf(x) !== Object.prototype) return undefined;
    for (const key in x) if (!VERSION_ITEM_KEYS.has(key)) return undefined;
    const { item, stratum, split, label, added, source, sha256, bytes } = x as Record<string, unknown>;
    if (typeof item !== 'string' || item.length === 0 || typeof stratum !== 'string' || stratum.length === 0) return undefined;
    if (split !== 'dev' && split !== 'eval') return undefined;
    if (label !== undefined && typeof label !== 'string' && typeof label !== 'boolean' && !(typeof label === 'number' && Number.isFinite(label))) return undefined;
    if ((added !== undefined && typeof added !== 'string') || (source !== undefined && typeof source !== 'string')) return undefined;
    if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) return undefined;
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return undefined;
    const copy: VersionItem = { item, stratum, split } as VersionItem;
    if (label !== undefined) copy.label = label as string | number | boolean;
    if (added !== undefined) copy.added = added as string;
    if (source !== undefined) copy.source = source as string;
    copy.sha256 = sha256;
    copy.bytes = bytes;
    out[i] = copy;
  }
  return out;
}
