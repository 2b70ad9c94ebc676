import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import { csvCellText } from './csv-text.js';
import { InputError, showValue } from './errors.js';
import { parseJsonText } from './json-text.js';

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
 * The most bytes one table file (scores, annotations, JSONL manifest) may hold: 2 GiB, far
 * beyond any benchmark's rows (10,000 items × 10 models is ~10 MB). A file that passes it while
 * being read (it grows, or its size lies) is refused, so reading always ends.
 */
export const MAX_TABLE_BYTES = 2 * 1024 * 1024 * 1024;

/** Where an input file is named in an error: the file, or a manifest line and field that names it. */
export interface InputPlace {
  file: string;
  line?: number;
  field?: string;
  value?: unknown;
}

/**
 * The kind of a file, as an error message names it: `regular file`, `directory`, `fifo`,
 * `socket`, `character device`, `block device`.
 * @example fileKind(statSync('/dev/zero')) // => "character device"
 */
export function fileKind(stat: Stats): string {
  if (stat.isFile()) return 'regular file';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFIFO()) return 'fifo';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  if (stat.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

function placeOf(path: string, place: InputPlace | undefined): InputPlace {
  return place ?? { file: path };
}

/**
 * Opens an input file once and checks, on the open descriptor, that it is a regular file: the
 * one way in for every file benchplan reads (tables, YAML, JSON, item files, imports, report
 * inputs). The open uses O_NONBLOCK, so a FIFO with no writer does not block; `fstat` on the
 * descriptor (not a second `stat` of the path, which could name another file by then) then
 * refuses a FIFO, a device (`/dev/zero`, a terminal), a socket or a directory. A symbolic link
 * is followed, and what it points to is checked.
 * @param place how errors name the file (default: the path itself).
 * @returns the open descriptor (the caller closes it) and its size from fstat.
 * @throws {InputError} `FILE: not a regular file (got fifo)`, or `cannot read file: CODE`.
 * @example const { fd, size } = openInputFile('examples/strata.yaml'); closeSync(fd); size // => the file's bytes
 */
export function openInputFile(path: string, place?: InputPlace): { fd: number; size: number } {
  const where = placeOf(path, place);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A Unix socket cannot be opened (ENXIO); name its kind rather than the errno.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') {
      let kind = 'special file';
      try {
        kind = fileKind(statSync(path));
      } catch {
        // keep the generic kind
      }
      throw notRegular(kind, where);
    }
    throw new InputError(`cannot read file: ${code ?? String(error)}`, where);
  }
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, where);
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw notRegular(fileKind(stat), where);
  }
  return { fd, size: stat.size };
}

// `FILE: not a regular file (got fifo)`; for a file a manifest names, `FILE:LINE: path must name
// a regular file ("docs" is a directory)`.
function notRegular(kind: string, where: InputPlace): InputError {
  if (where.field !== undefined && 'value' in where) {
    return new InputError(`${where.field} must name a regular file (${showValue(where.value)} is a ${kind})`, noValue(where));
  }
  return new InputError(`not a regular file (got ${kind})`, noValue(where));
}

// "not a regular file (got fifo)": the kind is the value shown, so a place's own value is dropped.
function noValue(where: InputPlace): InputPlace {
  const { value: _value, ...rest } = where;
  return rest;
}

/** How much of an input file may be read, and how errors name it. */
export interface ReadLimit {
  /** Refuse a file with more bytes than this (checked on fstat's size, then on the bytes read). */
  maxBytes: number;
  /** How errors name the file (default: its path). */
  place?: InputPlace;
  /** The message for a file over the limit, given the bytes seen so far (or fstat's size). */
  tooLarge?: (bytes: number) => string;
}

/**
 * Reads an input file's bytes in chunks from one descriptor (`openInputFile`), stopping with an
 * error as soon as more than `maxBytes` have been read, whatever fstat said: a file that grows
 * while it is read, or a file system that reports a wrong size, cannot make a read go on or
 * fill memory. Each chunk is a fresh view of one reused buffer: use it before the next.
 * @param options the byte limit, how errors name the file, and the chunk size (default 1 MiB).
 * @throws {InputError} for a file that is not a regular file, cannot be read, or is over the limit.
 * Cost: O(file bytes) time, one chunk of memory.
 * @example for (const chunk of readInputChunks('examples/scores.csv', { maxBytes: 1 << 20 })) hash.update(chunk);
 */
export function* readInputChunks(
  path: string,
  options: ReadLimit & { chunkSize?: number },
): Generator<Uint8Array> {
  const where = placeOf(path, options.place);
  const tooLarge = (bytes: number) =>
    new InputError(options.tooLarge?.(bytes) ?? `is larger than ${options.maxBytes} bytes, the limit for this kind of file`, where);
  const { fd, size } = openInputFile(path, options.place);
  try {
    if (size > options.maxBytes) throw tooLarge(size);
    const chunkSize = options.chunkSize ?? CHUNK;
    const buffer = Buffer.allocUnsafe(chunkSize);
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, chunkSize, null);
      } catch (error) {
        throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, where);
      }
      if (n === 0) return;
      total += n;
      if (total > options.maxBytes) throw tooLarge(total);
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `bytes` bytes of an input file (fewer when it is shorter), for sniffing its format:
 * opened like every input (`openInputFile`), so a FIFO, device, socket or folder is refused
 * without blocking instead of being sniffed.
 * @throws {InputError} `FILE: not a regular file (got fifo)`, or `cannot read file: CODE`.
 * @example readInputHead('examples/scores.csv', 4).toString() // => "item"
 */
export function readInputHead(path: string, bytes: number, place?: InputPlace): Buffer {
  const { fd } = openInputFile(path, place);
  try {
    const buffer = Buffer.alloc(bytes);
    let n = 0;
    try {
      n = readSync(fd, buffer, 0, bytes, 0);
    } catch (error) {
      throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, placeOf(path, place));
    }
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole input file's bytes, read within a byte limit (`readInputChunks`).
 * @throws {InputError} as readInputChunks.
 * @example readInputBytes('examples/strata.yaml', { maxBytes: 1 << 20 }).length // => the file's size
 */
export function readInputBytes(path: string, options: ReadLimit): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of readInputChunks(path, options)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/**
 * A whole input file as UTF-8 text (a byte-order mark dropped), read within a byte limit.
 * @throws {InputError} as readInputChunks, or when the bytes are not UTF-8.
 * @example readInputText('examples/strata.yaml', { maxBytes: 1 << 20 }).startsWith('#') // => true
 */
export function readInputText(path: string, options: ReadLimit): string {
  const bytes = readInputBytes(path, options);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError('is not valid UTF-8 text', noValue(placeOf(path, options.place)));
  }
}

/**
 * Reads a text file in 1 MiB chunks, decoding UTF-8 as it goes, so a large file is never
 * held whole in memory. A byte-order mark is dropped. The file must be a regular file of at
 * most `maxBytes` (default MAX_TABLE_BYTES) bytes (`readInputChunks`).
 * @throws {InputError} when the file is not a regular file, cannot be read, is too large or is not UTF-8.
 */
export function* readTextChunks(path: string, chunkSize = CHUNK, maxBytes = MAX_TABLE_BYTES): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  for (const chunk of readInputChunks(path, { maxBytes, chunkSize })) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputError('is not valid UTF-8 text', { file: path });
    }
    if (text.length > 0) yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw new InputError('is not valid UTF-8 text', { file: path });
  }
  if (rest.length > 0) yield rest;
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
 * object a line), or as `format` says whatever its name. Records stream; nothing but the current chunk is held.
 * @throws {InputError} for another extension, a missing header, a row with the wrong number of
 *   fields, or a JSONL line that is not a JSON object.
 */
export function openTable(path: string, format?: 'csv' | 'jsonl'): TableReader {
  const ext = extname(path).toLowerCase();
  if (format === 'csv' || (format === undefined && ext === '.csv')) return openCsv(path);
  if (format === 'jsonl' || (format === undefined && (ext === '.jsonl' || ext === '.ndjson'))) return { format: 'jsonl', columns: null, records: jsonlRecords(path) };
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
      // A cell benchplan wrote as `'=…` (a formula neutralised, csv-text.ts) reads back as `=…`.
      for (let k = 0; k < header.length; k++) values[header[k]] = fields[k].charCodeAt(0) === 39 ? csvCellText(fields[k]) : fields[k];
      yield { line, values };
    }
  }
  return { format: 'csv', columns: header, records: rows() };
}

/**
 * The objects of a JSONL file, one a line, with their line numbers; blank lines skipped.
 * @throws {InputError} for a line that is not valid JSON, names a key twice, or is not a JSON object.
 */
export function* jsonlRecords(path: string): Generator<TableRecord> {
  for (const { line, text } of lines(readTextChunks(path), path)) {
    const trimmed = text.trim();
    if (trimmed === '') continue;
    const value = parseJsonText(trimmed, { file: path, line });
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InputError('each line must be a JSON object', { file: path, line, value: trimmed.slice(0, 60) });
    }
    yield { line, values: value as Record<string, unknown> };
  }
}
