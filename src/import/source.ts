import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../data/errors.js';
import type { ImportByteBudget } from './budget.js';
import { describePlace, failAt, type Place } from './fields.js';
import { parsePythonJson } from './python-json.js';
import type { ImportedRow } from './types.js';

/** A JSON document larger than this is refused (V8 cannot hold much larger strings anyway). */
export const MAX_JSON_BYTES = 512 * 1024 * 1024;

/**
 * The size of an input file in bytes.
 * @throws {InputError} when it cannot be read or is a folder.
 */
export function fileSize(file: string): number {
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new InputError('is a directory, not a file', { file });
    return stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file });
  }
}

/**
 * Reads a whole JSON file, charging its size to the import's byte budget first.
 * @throws {InputError} when the file cannot be read, is over MAX_JSON_BYTES or the budget, or is not JSON.
 */
export function readJsonFile(file: string, budget?: ImportByteBudget): unknown {
  const size = fileSize(file);
  if (size > MAX_JSON_BYTES) throw new InputError(`is ${size} bytes, over the ${MAX_JSON_BYTES}-byte limit for one JSON document; use the tool's JSONL output`, { file });
  budget?.charge(size, file);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code}`, { file });
    throw new InputError('is not valid UTF-8 text', { file });
  }
  try {
    // Python's json writes NaN and Infinity as bare tokens; they are read as numbers.
    return parsePythonJson(text);
  } catch (error) {
    throw new InputError(`not valid JSON: ${(error as Error).message}`, { file });
  }
}

/**
 * Reads a whole text file as UTF-8, charging its size to the budget first.
 * @throws {InputError} when it cannot be read, is over MAX_JSON_BYTES or the budget, or is not UTF-8.
 */
export function readTextFile(file: string, budget?: ImportByteBudget): string {
  const size = fileSize(file);
  if (size > MAX_JSON_BYTES) throw new InputError(`is ${size} bytes, over the ${MAX_JSON_BYTES}-byte limit for one file`, { file });
  budget?.charge(size, file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code}`, { file });
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
