import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseJsonText } from '../data/json-text.js';
import { parseWith } from '../data/validate.js';
import { VERSION_ID_PATTERN } from './version-id.js';

/** The `format` of `DIR/head.json`. */
export const ARCHIVE_HEAD_FORMAT = 'benchplan-head/1';

/** The file, relative to the archive, that names the newest version of the archive's hash chain. */
export const ARCHIVE_HEAD_FILE = 'head.json';

/** A SHA-256 digest as stored in a head file. */
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

/** A link of the hash chain: a version and the digest of its record. */
export const ChainLinkSchema = z.strictObject({ version: z.string().regex(VERSION_ID_PATTERN), recordDigest: Sha256 });
export type ChainLink = z.infer<typeof ChainLinkSchema>;

/**
 * `DIR/head.json`: the newest version of the archive's hash chain, its record digest, its place
 * in the chain (1 for the first chained version) and the link before it (so a commit that died
 * after writing the head but before its record can be rolled back).
 */
export const ArchiveHeadSchema = z.strictObject({
  format: z.literal(ARCHIVE_HEAD_FORMAT),
  version: z.string().regex(VERSION_ID_PATTERN),
  recordDigest: Sha256,
  sequence: z.number().int().min(1),
  previous: ChainLinkSchema.nullable(),
});
export type ArchiveHead = z.infer<typeof ArchiveHeadSchema>;

/** What reading head.json found. */
export type HeadRead = { head: ArchiveHead } | { absent: true } | { problem: string };

/**
 * Reads a small file without following a link or blocking (O_NONBLOCK, then fstat: only a
 * regular file of at most `maxBytes` is read).
 * @returns the text, `{ absent: true }` when there is no such file, or a problem in words.
 * @example readSmallFile('out/archive/head.json', 65536) // => { text: '{ "format": … }' }
 */
export function readSmallFile(path: string, maxBytes: number): { text: string } | { absent: true } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { absent: true };
    return { problem: code === 'ELOOP' ? 'a symbolic link (never followed)' : `cannot be read: ${code ?? String(error)}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: 'not a regular file (never read)' };
    if (stat.size > maxBytes) return { problem: `${stat.size} bytes, more than it may hold (${maxBytes}); not read` };
    return { text: readFileSync(fd, 'utf8') };
  } catch (error) {
    return { problem: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a chain's head file (the archive's head.json, the sign-off chain's): readSmallFile (a
 * regular file of at most 64 KiB, never a link), then JSON, then `schema`.
 * @returns the head, `{ absent: true }`, or a problem in words (not a regular file, not JSON, wrong shape).
 */
export function readHeadFile<T>(path: string, schema: z.ZodType<T>, fileName: string): { head: T } | { absent: true } | { problem: string } {
  const read = readSmallFile(path, 65536);
  if (!('text' in read)) return read;
  let data: unknown;
  try {
    // A key named twice is refused (JSON.parse would keep the last one silently).
    data = parseJsonText(read.text, { file: fileName });
  } catch (error) {
    return { problem: (error as Error).message.replace(`${fileName}: `, '') };
  }
  try {
    return { head: parseWith(schema, data, { file: fileName }) as T };
  } catch (error) {
    return { problem: (error as Error).message.replace(`${fileName}: `, '') };
  }
}

/**
 * Reads `DIR/head.json` without following a link or blocking (readHeadFile).
 * @returns the head, `{ absent: true }`, or a problem in words (not a regular file, not JSON, wrong shape).
 */
export function readArchiveHead(archiveDir: string): HeadRead {
  return readHeadFile(join(archiveDir, ARCHIVE_HEAD_FILE), ArchiveHeadSchema, ARCHIVE_HEAD_FILE);
}

/** A head file's text as stored (the archive's, the sign-off chain's): two-space JSON with a final newline. */
export function headText(head: object): string {
  return `${JSON.stringify(head, null, 2)}\n`;
}

/** The archive head's text as stored. */
export function archiveHeadText(head: ArchiveHead): string {
  return headText(head);
}
