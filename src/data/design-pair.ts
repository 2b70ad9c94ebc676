import { createHash } from 'node:crypto';
import { InputError } from './errors.js';
import { openTable, readInputBytes } from './read.js';

/** The list column that carries the SHA-256 of the design file `select` wrote with it. */
export const DESIGN_DIGEST_COLUMN = 'design_digest';

/** Largest design file hashed (as loadDesign reads): 64 MiB. */
const MAX_DESIGN_BYTES = 64 * 1024 * 1024;

/**
 * The SHA-256 of a design file's bytes: the value `sha256sum DESIGN` prints, which `select`
 * writes into every row of the annotation list it writes with the design.
 * Formula: hex(SHA-256(bytes)); text is encoded as UTF-8.
 * @example designTextDigest('{}\n') // => 'ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356'
 */
export function designTextDigest(text: string | Uint8Array): string {
  return createHash('sha256').update(typeof text === 'string' ? Buffer.from(text, 'utf8') : text).digest('hex');
}

/**
 * Checks that an annotation list and a design file were written by the same run of `select`:
 * every non-empty `design_digest` cell of the list must be the SHA-256 of the design file. A
 * `select` killed between its two renames (the design goes first, the list last) leaves the
 * new design beside the old list; this refuses that mix instead of weighting one run's labels
 * with another run's probabilities. A list without the column (written before it existed, or
 * built by hand) is not checked.
 * @throws {InputError} `LIST:LINE: design_digest: … (got DIGEST)` naming both files and both digests.
 */
export function checkListMatchesDesign(listPath: string, designPath: string): void {
  const table = openTable(listPath);
  if (table.columns !== null && !table.columns.includes(DESIGN_DIGEST_COLUMN)) return;
  let digest: string | undefined;
  for (const record of table.records) {
    const value = record.values[DESIGN_DIGEST_COLUMN];
    if (value === undefined || value === null || value === '') continue;
    digest ??= designTextDigest(readInputBytes(designPath, { maxBytes: MAX_DESIGN_BYTES }));
    if (String(value).trim() !== digest) {
      throw new InputError(
        `the list was written with a design whose sha256 is ${String(value)}, but ${designPath} has sha256 ${digest}: the two files come from different runs of benchplan select (a run interrupted between its two writes, or one file replaced); re-run select, or give the design written with this list`,
        { file: listPath, line: record.line, field: DESIGN_DIGEST_COLUMN, value },
      );
    }
  }
}
