import { closeSync } from 'node:fs';
import { firstDuplicateKey } from '../data/json-text.js';
import { openInputFile, readInputChunks } from '../data/read.js';
import { InputError } from '../data/errors.js';
import type { ImportByteBudget } from './budget.js';
import { describePlace, failAt, type Place } from './fields.js';
import { parsePythonJson } from './python-json.js';
import type { ImportedRow } from './types.js';

/** A JSON document larger than this is refused (V8 cannot hold much larger strings anyway). */
export const MAX_JSON_BYTES = 512 * 1024 * 1024;

/**
 * The size of an input file in bytes, from fstat on the opened file (`openInputFile`).
 * @throws {InputError} when it cannot be read or is not a regular file (a folder, FIFO, device or socket).
 */
export function fileSize(file: string): number {
  const { fd, size } = openInputFile(file);
  closeSync(fd);
  return size;
}

/**
 * Reads a whole JSON file through the shared bounded reader (`readTextFile`) and parses it as
 * Python's json writes it (bare NaN and Infinity are numbers, `parsePythonJson`), refusing an
 * object that names a key twice (`firstDuplicateKey`: JSON.parse would keep the last silently).
 * @throws {InputError} when the file cannot be read, is not a regular file, is over MAX_JSON_BYTES
 *   or the budget, is not UTF-8, or is not JSON (duplicate keys in an object included).
 */
export function readJsonFile(file: string, budget?: ImportByteBudget): unknown {
  const text = readTextFile(file, budget);
  let value: unknown;
  try {
    // Python's json writes NaN and Infinity as bare tokens; they are read as numbers.
    value = parsePythonJson(text);
  } catch (error) {
    throw new InputError(`not valid JSON: ${(error as Error).message}`, { file });
  }
  const duplicate = text.includes('{') ? firstDuplicateKey(text) : undefined;
  if (duplicate !== undefined) {
    throw new InputError('an object names the same key twice (JSON keys must be unique)', { file, line: duplicate.line, value: duplicate.key });
  }
  return value;
}

/**
 * Reads a whole text file as UTF-8 through the shared bounded reader, charging its bytes to the
 * import's byte budget as they arrive: the size fstat gives is charged first, so an over-budget
 * file is refused before it is read, and bytes past that size (a file that grows) are charged too.
 * A FIFO, device, socket or folder is refused without blocking (`openInputFile`).
 * @throws {InputError} when it cannot be read, is not a regular file, is over MAX_JSON_BYTES or
 *   the budget, or is not UTF-8.
 */
export function readTextFile(file: string, budget?: ImportByteBudget): string {
  const size = fileSize(file);
  // A JSONL file is already the tool's line-by-line output: advising JSONL for it would send the user in a circle.
  const jsonl = /\.jsonl$/i.test(file);
  const tooLarge = (n: number) =>
    jsonl ? `is ${n} bytes, over the ${MAX_JSON_BYTES}-byte limit for one imported file; split it into several files (e.g. one per task or model) and import them together` : `is ${n} bytes, over the ${MAX_JSON_BYTES}-byte limit for one JSON document; use the tool's JSONL output`;
  if (size > MAX_JSON_BYTES) throw new InputError(tooLarge(size), { file });
  budget?.charge(size, file);
  const parts: Buffer[] = [];
  let read = 0;
  for (const chunk of readInputChunks(file, { maxBytes: MAX_JSON_BYTES, tooLarge })) {
    read += chunk.length;
    if (read > size) budget?.charge(Math.min(chunk.length, read - size), file);
    parts.push(Buffer.from(chunk));
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts));
  } catch {
    throw new InputError('is not valid UTF-8 text', { file });
  }
}

/** A row on its way into the table, with the place it was read from. */
export interface PlacedRow extends ImportedRow {
  place: Place;
}

/**
 * Checks rows the way loadScores will, but names the source places: no two rows with the same
 * (item, model, repeat), and one stratum and one cluster per item.
 * @param hint appended to a duplicate-row message: how to tell the rows apart in this format.
 * @throws {InputError} at the second of two clashing rows.
 */
export function checkRows(rows: readonly PlacedRow[], hint: string): void {
  const seen = new Map<string, Place>();
  const itemInfo = new Map<string, { stratum: string | undefined; cluster: string | undefined; place: Place }>();
  for (const row of rows) {
    const key = `${row.item}\u0000${row.model}\u0000${row.repeat ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const repeat = row.repeat === undefined ? '' : `, repeat ${row.repeat}`;
      throw failAt(row.place, `a second row for item "${row.item}", model "${row.model}"${repeat} (the first is at ${describePlace(first)}); ${hint}`);
    }
    seen.set(key, row.place);
    const info = itemInfo.get(row.item);
    if (info === undefined) itemInfo.set(row.item, { stratum: row.stratum, cluster: row.cluster, place: row.place });
    else {
      if (info.stratum !== row.stratum) {
        throw failAt(row.place, `item "${row.item}" has stratum "${info.stratum}" at ${describePlace(info.place)} but a different stratum here`, row.stratum);
      }
      if (info.cluster !== row.cluster) {
        throw failAt(row.place, `item "${row.item}" has cluster "${info.cluster}" at ${describePlace(info.place)} but a different cluster here`, row.cluster);
      }
    }
  }
}

/** The model name(s) given with --model: one for all files, or one per file. */
export function modelOverride(models: readonly string[] | undefined, files: readonly string[]): (fileIndex: number) => string | undefined {
  if (models === undefined || models.length === 0) return () => undefined;
  for (const name of models) {
    if (typeof name !== 'string' || name.trim() === '') throw new InputError('must be a non-empty name', { file: '--model', value: name });
  }
  if (models.length !== 1 && models.length !== files.length) {
    throw new InputError(`give one model name for all files or one per file (${files.length} files, ${models.length} names)`, { file: '--model', value: models.join(',') });
  }
  return (k) => (models.length === 1 ? models[0] : models[k]).trim();
}
