import { join } from 'node:path';
import { z } from 'zod';
import { headText, readHeadFile, readSmallFile, Sha256 } from './head.js';
import { VERSION_ID_PATTERN } from './version-id.js';

export { readSmallFile };

/** The `format` of `DIR/signoffs/head.json`. */
export const SIGNOFF_HEAD_FORMAT = 'benchplan-signoff-head/1';

/** The file, inside the sign-off folder, that names the newest sign-off of the sign-off chain (so no sign-off may be called `head`). */
export const SIGNOFF_HEAD_FILE = 'head.json';

/** The lock file, relative to the archive, held while a sign-off is committed (record + head). */
export const SIGNOFF_LOCK_PATH = 'locks/.signoffs.lock';

/** How long a sign-off waits for another sign-off's commit (which holds the lock for milliseconds). */
export const SIGNOFF_LOCK_WAIT_MS = 20_000;

/** A link of the sign-off chain: a sign-off's id and the digest of its record. */
export const SignoffLinkSchema = z.strictObject({ id: z.string().regex(VERSION_ID_PATTERN), recordDigest: Sha256 });
export type SignoffLink = z.infer<typeof SignoffLinkSchema>;

/**
 * `DIR/signoffs/head.json`: the newest sign-off of the chain, its record digest, its place (1 for
 * the first chained sign-off) and the link before it. Like the archive's head.json, it binds the
 * whole series: deleting, replacing or re-ordering any chained sign-off breaks a link.
 */
export const SignoffHeadSchema = z.strictObject({
  format: z.literal(SIGNOFF_HEAD_FORMAT),
  id: z.string().regex(VERSION_ID_PATTERN),
  recordDigest: Sha256,
  sequence: z.number().int().min(1),
  previous: SignoffLinkSchema.nullable(),
});
export type SignoffHead = z.infer<typeof SignoffHeadSchema>;

/** What reading signoffs/head.json found. */
export type SignoffHeadRead = { head: SignoffHead } | { absent: true } | { problem: string };

/**
 * Reads `DIR/signoffs/head.json` (a regular file, not a link, at most 64 KiB, the documented shape).
 * @returns the head, `{ absent: true }`, or a problem in words (not a regular file, not JSON, wrong shape).
 * @example readSignoffHead('out/archive') // => { head: { format: 'benchplan-signoff-head/1', id: '2026Q4-pick', sequence: 1, previous: null, … } }
 */
export function readSignoffHead(archiveDir: string): SignoffHeadRead {
  return readHeadFile(join(archiveDir, 'signoffs', SIGNOFF_HEAD_FILE), SignoffHeadSchema, SIGNOFF_HEAD_FILE);
}

/** The head's text as stored: two-space JSON with a final newline (headText). */
export function signoffHeadText(head: SignoffHead): string {
  return headText(head);
}
