import { csvLine } from '../data/csv-text.js';
import { extname } from 'node:path';
import { InputError } from '../data/errors.js';
import { writeFileAtomic } from '../data/atomic.js';
import type { ImportedRow } from './types.js';

/** The columns a set of imported rows needs, in the order they are written. */
function columnsOf(rows: readonly ImportedRow[]): string[] {
  const has = (key: keyof ImportedRow) => rows.some((row) => row[key] !== undefined);
  const columns = ['item', 'model', 'score'];
  if (has('outcome')) columns.push('outcome');
  if (has('stratum')) columns.push('stratum');
  if (has('cluster')) columns.push('cluster');
  if (has('repeat')) columns.push('repeat');
  if (has('docHash')) columns.push('doc_hash');
  if (has('digest')) columns.push('digest');
  return columns;
}

function cell(row: ImportedRow, column: string): string | number | undefined {
  return column === 'doc_hash' ? row.docHash : (row as unknown as Record<string, string | number | undefined>)[column];
}


/**
 * The rows as scores-table text: CSV with a header row, or JSONL (one object a line). Columns:
 * item, model, score, then outcome, stratum, cluster, repeat, doc_hash and digest when any row has them.
 * Numbers are written in JavaScript's shortest round-trip form, so the text loads back to the
 * same values and the same rows give the same bytes.
 * @example formatImportedScores([{ item: 'a', model: 'm', score: 1 }], 'csv') // => "item,model,score\na,m,1\n"
 */
export function formatImportedScores(rows: readonly ImportedRow[], format: 'csv' | 'jsonl'): string {
  const columns = columnsOf(rows);
  if (format === 'csv') {
    const lines = [columns.join(',')];
    for (const row of rows) lines.push(csvLine(columns.map((c) => cell(row, c))));
    return `${lines.join('\n')}\n`;
  }
  let out = '';
  for (const row of rows) {
    const record: Record<string, string | number> = {};
    for (const c of columns) {
      const value = cell(row, c);
      if (value !== undefined) record[c] = value;
    }
    out += `${JSON.stringify(record)}\n`;
  }
  return out;
}

/** The table format an output path asks for: `.csv`, or `.jsonl` / `.ndjson`. */
export function importedScoresFormatOf(path: string): 'csv' | 'jsonl' {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new InputError('output must be a .csv or .jsonl file', { file: path, value: ext || '(no extension)' });
}

/**
 * Writes imported rows to a scores-table file, atomically (temporary file, then rename).
 * @throws {InputError} for an output that is not .csv/.jsonl or cannot be written.
 */
export function writeImportedScores(path: string, rows: readonly ImportedRow[]): void {
  writeFileAtomic(path, formatImportedScores(rows, importedScoresFormatOf(path)));
}
