import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from './errors.js';

/** One row of a table file: the 1-based line it starts on, and its fields by column name. */
export interface TableRecord {
  line: number;
  values: Record<string, unknown>;
}

/** A table file read record by record: its columns (CSV header, or keys seen in JSONL) and rows. */
export interface TableReader {
  format: 'csv' | 'jsonl';
  /** CSV: the header, known before the first row. JSONL: null (each object has its own keys). */
  columns: string[] | null;
  records: Iterable<TableRecord>;
}

const CHUNK = 1 << 20;
/** The longest line (JSONL) or record (CSV) read, in characters: far above any real row, far below V8's string limit. */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;

/**
 * Reads a text file in 1 MiB chunks, decoding UTF-8 as it goes, so a large file is never
 * held whole in memory. A byte-order mark is dropped.
 * @throws {InputError} when the file cannot be read or is not UTF-8.
 */
export function* readTextChunks(path: string, chunkSize = CHUNK): Generator<string> {
  let fd: number;
  try {
    if (statSync(path).isDirectory()) throw new InputError('is a directory, not a file', { file: path });
    fd = openSync(path, 'r');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const buffer = Buffer.allocUnsafe(chunkSize);
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, chunkSize, null);
      let text: string;
      try {
        text = decoder.decode(buffer.subarray(0, read), { stream: read > 0 });
      } catch {
        throw new InputError('is not valid UTF-8 text', { file: path });
      }
      if (text.length > 0) yield text;
      if (read === 0) break;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Splits chunks of text into lines, numbering from 1; `\r\n`, `\n` and a lone `\r` all end a line.
 * @throws {InputError} for a line longer than MAX_RECORD_CHARS (a file with no line breaks, say).
 */
export function* lines(chunks: Iterable<string>, file = '<text>'): Generator<{ line: number; text: string }> {
  let pending = '';
  let lineNumber = 0;
  let lastWasCR = false;
  for (const chunk of chunks) {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10 || c === 13) {
        if (c === 10 && lastWasCR && i === start && pending === '') {
          // second half of a \r\n split across or within chunks: already counted.
          start = i + 1;
          lastWasCR = false;
          continue;
        }
        lineNumber += 1;
        yield { line: lineNumber, text: pending + chunk.slice(start, i) };
        pending = '';
        lastWasCR = c === 13;
        start = i + 1;
      } else {
        lastWasCR = false;
      }
    }
    pending += chunk.slice(start);
    if (pending.length > MAX_RECORD_CHARS) {
      throw new InputError(`line is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB: not a table row`, { file, line: lineNumber + 1 });
    }
  }
  if (pending.length > 0) yield { line: lineNumber + 1, text: pending };
}

/**
 * RFC 4180 CSV records from chunks of text: fields may be quoted, quotes doubled inside,
 * commas and line breaks inside quotes kept. Each record carries the line it starts on.
 * Blank lines are skipped.
 * @throws {InputError} on an unterminated quote or text after a closing quote.
 */
export function* csvRecords(chunks: Iterable<string>, file: string): Generator<{ line: number; fields: string[] }> {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterQuote = false; // just closed a quoted field; only a delimiter or line end may follow
  let fieldStarted = false;
  let line = 1;
  let recordLine = 1;
  let lastWasCR = false;
  // Ends the record in progress: returns it, or null for a blank line. (A plain function: a
  // generator per record, `yield* endRecord()`, cost a generator object for each of 10^6 rows.)
  const endRecord = (): { line: number; fields: string[] } | null => {
    fields.push(field);
    const blank = fields.length === 1 && fields[0] === '' && !fieldStarted;
    const record = blank ? null : { line: recordLine, fields };
    fields = [];
    field = '';
    fieldStarted = false;
    afterQuote = false;
    return record;
  };
  for (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const c = chunk.charCodeAt(i);
      if (inQuotes) {
        if (c === 34) {
          if (i + 1 < n) {
            if (chunk.charCodeAt(i + 1) === 34) {
              field += '"';
              i += 2;
              continue;
            }
            inQuotes = false;
            afterQuote = true;
            i += 1;
            continue;
          }
          // quote at the end of a chunk: decide on the next chunk's first character.
          inQuotes = false;
          afterQuote = true;
          i += 1;
          continue;
        }
        if (c === 10) line += lastWasCR ? 0 : 1;
        else if (c === 13) line += 1;
        lastWasCR = c === 13;
        // copy a run of ordinary characters at once
        let j = i + 1;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === 34 || d === 10 || d === 13) break;
          j++;
        }
        field += chunk.slice(i, j);
        i = j;
        continue;
      }
      if (c === 44) {
        fields.push(field);
        field = '';
        fieldStarted = true;
        afterQuote = false;
        lastWasCR = false;
        i += 1;
        continue;
      }
      if (c === 10 || c === 13) {
        if (c === 10 && lastWasCR) {
          lastWasCR = false;
          i += 1;
          continue;
        }
        const record = endRecord();
        if (record !== null) yield record;
        line += 1;
        recordLine = line;
        lastWasCR = c === 13;
        i += 1;
        continue;
      }
      lastWasCR = false;
      if (afterQuote) {
        if (c === 34) {
          // a doubled quote split across chunks: `"a""b"` with the split between the quotes
          field += '"';
          inQuotes = true;
          afterQuote = false;
          i += 1;
          continue;
        }
        throw new InputError('malformed CSV: text after a closing quote', { file, line, value: chunk.slice(i, i + 20) });
      }
      if (c === 34 && field.length === 0) {
        inQuotes = true;
        fieldStarted = true;
        i += 1;
        continue;
      }
      let j = i + 1;
      while (j < n) {
        const d = chunk.charCodeAt(j);
        if (d === 44 || d === 10 || d === 13) break;
        j++;
      }
      field += chunk.slice(i, j);
      fieldStarted = true;
      i = j;
    }
    // Once a chunk: a record still open after 64 MiB is not a table row (an unclosed quote, say).
    let open = field.length;
    for (const f of fields) open += f.length;
    if (open > MAX_RECORD_CHARS) {
      throw new InputError(`record is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB${inQuotes ? ' (a quoted field never closes?)' : ''}: not a table row`, { file, line: recordLine });
    }
  }
  if (inQuotes) throw new InputError('malformed CSV: a quoted field is never closed', { file, line: recordLine });
  if (field !== '' || fields.length > 0 || fieldStarted) {
    const record = endRecord();
    if (record !== null) yield record;
  }
}

/**
 * Opens a table file by its extension: `.csv` (header row) or `.jsonl` / `.ndjson` (one JSON
 * object a line). Records stream; nothing but the current chunk is held.
 * @throws {InputError} for another extension, a missing header, a row with the wrong number of
 *   fields, or a JSONL line that is not a JSON object.
 */
export function openTable(path: string): TableReader {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return openCsv(path);
  if (ext === '.jsonl' || ext === '.ndjson') return { format: 'jsonl', columns: null, records: jsonlRecords(path) };
  throw new InputError('unknown table format: use a .csv or .jsonl file', { file: path, value: ext || '(no extension)' });
}

function openCsv(path: string): TableReader {
  const iterator = csvRecords(readTextChunks(path), path)[Symbol.iterator]();
  const first = iterator.next();
  if (first.done) throw new InputError('is empty: expected a header row', { file: path, line: 1 });
  const header = first.value.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (name === '') throw new InputError('header has an empty column name', { file: path, line: first.value.line });
    if (seen.has(name)) throw new InputError('header names a column twice', { file: path, line: first.value.line, value: name });
    seen.add(name);
  }
  function* rows(): Generator<TableRecord> {
    for (;;) {
      const next = iterator.next();
      if (next.done) return;
      const { line, fields } = next.value;
      if (fields.length !== header.length) {
        throw new InputError(`expected ${header.length} fields as in the header, found ${fields.length}`, {
          file: path,
          line,
          value: fields.join(',').slice(0, 80),
        });
      }
      const values: Record<string, unknown> = {};
      for (let k = 0; k < header.length; k++) values[header[k]] = fields[k];
      yield { line, values };
    }
  }
  return { format: 'csv', columns: header, records: rows() };
}

/**
 * The objects of a JSONL file, one a line, with their line numbers; blank lines skipped.
 * @throws {InputError} for a line that is not valid JSON or not a JSON object.
 */
export function* jsonlRecords(path: string): Generator<TableRecord> {
  for (const { line, text } of lines(readTextChunks(path), path)) {
    const trimmed = text.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new InputError(`not valid JSON: ${(error as Error).message}`, { file: path, line, value: trimmed.slice(0, 60) });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InputError('each line must be a JSON object', { file: path, line, value: trimmed.slice(0, 60) });
    }
    yield { line, values: value as Record<string, unknown> };
  }
}
