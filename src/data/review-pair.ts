import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from './errors.js';
import { openTable, readInputText } from './read.js';

/** Largest review page read for its digest: 256 MiB. */
const MAX_PAGE_BYTES = 256 * 1024 * 1024;

/** Where the page `benchplan review -o` writes prints the sample digest. */
const PAGE_DIGEST = /Sample digest <span class="hash">([0-9a-f]{64})<\/span>/;

/** One file of a review sample and the sample digest it carries (null: none found). */
export interface ReviewFileDigest {
  path: string;
  kind: 'page' | 'csv';
  digest: string | null;
}

/**
 * The sample digest a file written by `benchplan review` carries: the page's "Sample digest"
 * line, or the CSV's `sample_digest` column (every row must carry the same one).
 * @throws {InputError} for a CSV whose rows carry two digests, or a file of another kind.
 */
export function reviewFileDigest(path: string): ReviewFileDigest {
  const ext = extname(path).toLowerCase();
  if (ext === '.html' || ext === '.htm') {
    const match = PAGE_DIGEST.exec(readInputText(path, { maxBytes: MAX_PAGE_BYTES }));
    return { path, kind: 'page', digest: match ? (match[1] as string) : null };
  }
  if (ext !== '.csv') throw new InputError('must be the review page (.html) or CSV (.csv) that benchplan review wrote', { file: path, value: ext || '(no extension)' });
  const table = openTable(path);
  if (table.columns === null || !table.columns.includes('sample_digest')) throw new InputError('has no sample_digest column: give the CSV that benchplan review --csv wrote', { file: path, line: 1 });
  let digest: string | null = null;
  for (const record of table.records) {
    const value = String(record.values.sample_digest ?? '');
    if (digest === null) digest = value;
    else if (value !== digest) throw new InputError(`rows carry two sample digests (${digest} above): the file mixes two review samples`, { file: path, line: record.line, field: 'sample_digest', value });
  }
  return { path, kind: 'csv', digest };
}

/** The other file of a review pair beside `path`: the same name with .csv for a page, .html for a CSV; null when none exists. */
export function reviewPartnerBeside(path: string): string | null {
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  const candidates = ext.toLowerCase() === '.csv' ? [`${stem}.html`, `${stem}.htm`] : [`${stem}.csv`];
  for (const c of candidates) if (existsSync(c)) return c;
  return null;
}

/**
 * Checks that the review files a sign-off records belong to one review sample: the page and the
 * CSV given (or, given one, the other found beside it under the same name) carry the same sample
 * digest. `review` writes the CSV first and the page last, so a run killed between the two renames
 * leaves a new CSV beside an old page; this refuses that pair, so a sign-off never records the
 * digest of a sample the reviewer did not read.
 * @param paths the files given as `--review` (one or two).
 * @returns every file checked (the given ones, then a partner found beside them), with its digest.
 * @throws {InputError} naming both files and both digests when they differ, or two files of one kind.
 */
export function checkReviewPair(paths: readonly string[]): ReviewFileDigest[] {
  if (paths.length > 2) throw new InputError('give at most two review files: the page and its CSV', { file: '--review', value: paths.join(', ') });
  const files = paths.map(reviewFileDigest);
  if (files.length === 2 && files[0]?.kind === files[1]?.kind) throw new InputError(`both review files are a ${files[0]?.kind}: give the page and its CSV`, { file: '--review', value: paths.join(', ') });
  if (files.length === 1) {
    const partner = reviewPartnerBeside(paths[0] as string);
    if (partner !== null) files.push(reviewFileDigest(partner));
  }
  const page = files.find((f) => f.kind === 'page');
  const csv = files.find((f) => f.kind === 'csv');
  if (page !== undefined && page.digest === null) throw new InputError('carries no sample digest: give the page that benchplan review -o wrote', { file: page.path });
  if (page !== undefined && csv !== undefined && csv.digest !== null && page.digest !== csv.digest) {
    throw new InputError(
      `the page ${page.path} shows sample digest ${page.digest} but the CSV ${csv.path} carries ${csv.digest}: the two files come from different review samples (a run of benchplan review interrupted between its two writes, or one file replaced); re-run review and sign off the page the reviewer read`,
      { file: csv.path, field: 'sample_digest', value: csv.digest },
    );
  }
  return files;
}
