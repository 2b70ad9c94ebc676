import { createHash } from 'node:crypto';

/**
 * The SHA-256 of some bytes (or of a string's UTF-8 bytes), as 64 lowercase hex digits: the
 * name an item's content is stored under in the archive.
 * Reference: FIPS 180-4; the same digest as `sha256sum FILE`.
 * @example sha256Hex('abc') // => "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** True for a string of 64 lowercase hex digits: what `sha256Hex` returns. */
export function isSha256Hex(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/**
 * Orders strings by UTF-16 code units, the same on every machine and locale (localeCompare is
 * not): the canonical order of item ids in fingerprints and version records.
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
