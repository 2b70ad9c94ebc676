import { extname } from 'node:path';
import { InputError } from './errors.js';
import { openTable } from './read.js';

/** Each model's output text on each item: model → item → text (repeats joined, in file order). */
export type OutputsByModel = Map<string, Map<string, string>>;

/** The largest output text kept per (model, item): 1 MiB of characters; longer text is cut with a note. */
export const MAX_OUTPUT_CHARS = 1024 * 1024;

/** The line put between the outputs of an item's repeats. */
export const REPEAT_SEPARATOR = '\n\n— next repeat —\n\n';

/**
 * Reads the `output` column of a scores table (CSV or JSONL): what each model answered on each
 * item, for a person to read beside the score (the review page). The scores loader ignores the
 * column; this reads it on its own, with the same reader (so a neutralised `'=…` cell reads back
 * as `=…`). Repeats of an item are joined in file order with REPEAT_SEPARATOR; an empty cell is
 * no output. A JSONL `output` that is not a string is written as its JSON text.
 * @param path a .csv or .jsonl scores file.
 * @returns the outputs, or null when the file has no `output` column (or is not a table file).
 * @throws {InputError} as the table reader does (malformed CSV or JSONL), naming file and line.
 * @example loadOutputs('examples/rotation/scores-2026Q3-outputs.csv')?.get('alpha')?.size // => 80
 */
export function loadOutputs(path: string): OutputsByModel | null {
  const ext = extname(path).toLowerCase();
  if (ext !== '.csv' && ext !== '.jsonl' && ext !== '.ndjson') return null;
  const reader = openTable(path);
  if (reader.columns !== null && !reader.columns.includes('output')) return null;
  const out: OutputsByModel = new Map();
  let any = false;
  for (const { line, values } of reader.records) {
    const raw = values.output;
    if (raw === undefined || raw === null || raw === '') continue;
    const item = typeof values.item === 'string' || typeof values.item === 'number' ? String(values.item).trim() : '';
    const model = typeof values.model === 'string' || typeof values.model === 'number' ? String(values.model).trim() : '';
    if (item === '' || model === '') throw new InputError('a row with an output must name its item and model', { file: path, line });
    let text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    if (text.length > MAX_OUTPUT_CHARS) text = `${text.slice(0, MAX_OUTPUT_CHARS)}\n[… cut at ${MAX_OUTPUT_CHARS} characters]`;
    any = true;
    let byItem = out.get(model);
    if (byItem === undefined) out.set(model, (byItem = new Map()));
    const before = byItem.get(item);
    byItem.set(item, before === undefined ? text : `${before}${REPEAT_SEPARATOR}${text}`);
  }
  return any || reader.columns !== null ? out : null;
}

/** The outputs of several files merged (a model's item in two files: the texts joined as repeats). */
export function mergeOutputs(parts: ReadonlyArray<OutputsByModel | null>): OutputsByModel | null {
  const present = parts.filter((p): p is OutputsByModel => p !== null);
  if (present.length === 0) return null;
  const out: OutputsByModel = new Map();
  for (const part of present) {
    for (const [model, items] of part) {
      let byItem = out.get(model);
      if (byItem === undefined) out.set(model, (byItem = new Map()));
      for (const [item, text] of items) {
        const before = byItem.get(item);
        byItem.set(item, before === undefined ? text : `${before}${REPEAT_SEPARATOR}${text}`);
      }
    }
  }
  return out;
}
