import { readdirSync, statSync } from 'node:fs';
import { readInputHead } from '../data/read.js';
import { basename, dirname, join, relative } from 'node:path';
import { InputError } from '../data/errors.js';

/** The formats every command reads: the three tools' files and benchplan's own scores table. */
export const RESULT_FORMATS = ['promptfoo', 'inspect', 'lm-eval', 'table'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** What one path named on the command line holds. */
export interface DetectedSource {
  /** The path as given. */
  path: string;
  format: ResultFormat;
  /** The files to read: the path itself, or the result files found in a directory (sorted). */
  files: string[];
}

const SNIFF_BYTES = 256 * 1024;
const LFS_POINTER = 'version https://git-lfs.github.com/spec/';

/** The first bytes of a file, read like every input: a FIFO, device or folder is refused, never blocks. */
function head(file: string, bytes = SNIFF_BYTES): Buffer {
  return readInputHead(file, bytes);
}

/**
 * The keys of the first JSON object in a text prefix, at depth 1, and, when the text is an
 * array, the keys of its first element; whether more JSON follows the first value (JSONL).
 * A scan of strings and brackets only: no value is parsed, so a prefix of a large file will do.
 * @example sniffJsonKeys('{"evalId": "e", "results": {"version": 3}}').keys // => ['evalId', 'results']
 */
export function sniffJsonKeys(text: string): { first: string; keys: string[]; elementKeys: string[]; more: boolean } {
  const n = text.length;
  let i = 0;
  while (i < n && /\s/.test(text[i])) i++;
  const first = text[i] ?? '';
  const keys: string[] = [];
  const elementKeys: string[] = [];
  let depth = 0;
  let more = false;
  let ended = false;
  for (; i < n; i++) {
    const c = text[i];
    if (ended) {
      if (!/\s/.test(c)) {
        more = true;
        break;
      }
      continue;
    }
    if (c === '"') {
      const start = i + 1;
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      const str = text.slice(start, i);
      let j = i + 1;
      while (j < n && /\s/.test(text[j])) j++;
      if (text[j] === ':') {
        if (first === '{' && depth === 1) keys.push(str);
        if (first === '[' && depth === 2 && elementKeys !== null) elementKeys.push(str);
      }
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (first === '[' && depth === 1 && elementKeys.length > 0) {
        // the first element ended: its keys are all we need
        return { first, keys, elementKeys, more: false };
      }
      if (depth === 0) ended = true;
    }
  }
  return { first, keys, elementKeys, more };
}

/**
 * Which format a file holds, judged by its first 256 KiB (see detectSource); undefined when it is none of them.
 * @throws {InputError} for an lm-eval results file or a Git LFS pointer (which say what to give instead).
 * @example detectFileFormat('examples/promptfoo/main.json') // => 'promptfoo'
 */
export function detectFileFormat(file: string): ResultFormat | undefined {
  const bytes = head(file);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return 'inspect';
  const text = bytes.toString('utf8');
  if (text.startsWith(LFS_POINTER)) {
    throw new InputError('is a Git LFS pointer, not the file itself: fetch the file with `git lfs pull`', { file });
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const { first, keys, elementKeys, more } = sniffJsonKeys(text);
    const has = (k: string) => keys.includes(k);
    if (first === '[') {
      if (elementKeys.includes('doc_id')) return 'lm-eval';
      if (elementKeys.includes('testIdx') || elementKeys.includes('provider')) return 'promptfoo';
      return undefined;
    }
    if (has('doc_id')) return 'lm-eval';
    if (has('eval') && (has('version') || has('status') || has('samples'))) return 'inspect';
    if (has('results') && (has('configs') || has('versions') || has('n-samples') || has('group_subtasks') || has('higher_is_better'))) {
      const stamp = /_(\d{4}-\d{2}-\d{2}T[\d.-]+?)\.json$/.exec(basename(file))?.[1];
      let beside: string[] = [];
      try {
        beside = readdirSync(dirname(file)).filter((n) => /^samples_.*\.jsonl?$/.test(n) && (stamp === undefined || n.includes(stamp))).sort();
      } catch {
        beside = [];
      }
      const hint = beside.length > 0 ? `: here, ${beside.slice(0, 3).join(', ')}${beside.length > 3 ? ` and ${beside.length - 3} more` : ''}` : ' (none is beside this one: was the run made without --log_samples?)';
      throw new InputError(
        `is an lm-eval results file (aggregate metrics per task): benchplan pairs per-sample scores, from the samples_<task>_<timestamp>.jsonl files lm-eval writes with --log_samples${hint}; give those files or their directory`,
        { file },
      );
    }
    if (has('evalId') || (has('results') && !more)) return 'promptfoo';
    if (more && (has('testIdx') || has('promptIdx') || has('provider'))) return 'promptfoo';
    if (has('item') && has('model')) return 'table';
    return undefined;
  }
  // CSV: a header row naming item and model.
  const firstLine = text.split(/\r?\n/, 1)[0].replace(/^\uFEFF/, '');
  const columns = firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  if (columns.includes('item') && columns.includes('model')) return 'table';
  return undefined;
}

/** What a file that is none of the formats looks like, for the message. */
function describeUnknown(file: string): string {
  const bytes = head(file, 4096);
  if (bytes.length === 0) return 'empty (0 bytes)';
  if (bytes.includes(0)) return 'binary (it holds NUL bytes), not text';
  const text = bytes.toString('utf8').trimStart();
  if (text === '') return 'only white space';
  if (text.includes('\uFFFD')) return 'not valid UTF-8 text';
  if (text.startsWith('{')) {
    const { keys } = sniffJsonKeys(head(file).toString('utf8'));
    return `a JSON object with keys ${keys.slice(0, 8).join(', ') || '(none)'}`;
  }
  if (text.startsWith('[')) return 'a JSON array whose elements are not lm-eval samples or promptfoo results';
  return `text starting ${JSON.stringify(text.slice(0, 40))}`;
}

const WHAT_WE_READ =
  'promptfoo results (.json/.jsonl), an Inspect log (.eval/.json) or log directory, lm-eval samples (samples_<task>_<time>.jsonl) or output directory, or a benchplan scores table (CSV/JSONL with item, model, score)';

/** The result files in a directory, two levels deep (lm-eval writes <output>/<model>/samples_*.jsonl). */
function filesIn(dir: string, depth = 0): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read directory: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: dir });
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth < 2) out.push(...filesIn(path, depth + 1));
    } else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * Works out what a path holds, by content rather than by name: a file is sniffed (a ZIP archive
 * is an Inspect `.eval`; a JSON document's top-level keys tell promptfoo, Inspect and lm-eval
 * apart; a header row with item and model is a scores table); a directory contributes the result
 * files in it: Inspect logs (`*.eval`, `*.json` logs) or lm-eval samples (`samples_*`), one kind.
 * @param format skips the sniffing of a file (a directory is still searched for that format's files).
 * @throws {InputError} for a path that does not exist, a file of no known format (saying what it
 *   looks like and what benchplan reads), an lm-eval results file (naming the samples files it
 *   needs), a Git LFS pointer, or a directory holding no result files, or files of several tools.
 * @example detectSource('examples/tools/inspect').files.length // => 2
 */
export function detectSource(path: string, format?: ResultFormat): DetectedSource {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  if (!stat.isDirectory()) {
    if (format !== undefined) return { path, format, files: [path] };
    const found = detectFileFormat(path);
    if (found === undefined) throw new InputError(`is not a file benchplan reads: it is ${describeUnknown(path)}; expected ${WHAT_WE_READ} (or say which with --input-format)`, { file: path });
    return { path, format: found, files: [path] };
  }
  const byFormat = new Map<ResultFormat, string[]>();
  const skipped: string[] = [];
  for (const file of filesIn(path)) {
    const name = basename(file);
    // In a directory only the tools' own file names count: logs.json, results_*.json and notes are skipped.
    let kind: ResultFormat | undefined;
    if (/^samples_.*\.jsonl?$/.test(name)) kind = 'lm-eval';
    else if (/\.eval$/.test(name)) kind = 'inspect';
    else if (/\.json$/.test(name) && !/^results(_.*)?\.json$/.test(name) && name !== 'logs.json') {
      try {
        kind = detectFileFormat(file);
      } catch {
        kind = undefined;
      }
      if (kind === 'table') kind = undefined;
    }
    if (format !== undefined && kind !== format) kind = undefined;
    if (kind === undefined) {
      skipped.push(relative(path, file));
      continue;
    }
    const list = byFormat.get(kind) ?? [];
    list.push(file);
    byFormat.set(kind, list);
  }
  if (byFormat.size === 0) {
    const seen = skipped.length === 0 ? 'it is empty' : `it holds ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}`;
    throw new InputError(`is a directory with no result files in it (looked for Inspect *.eval / *.json logs and lm-eval samples_*.jsonl, two levels deep; ${seen})`, { file: path });
  }
  if (byFormat.size > 1) {
    throw new InputError(`is a directory with files of several tools (${[...byFormat.keys()].join(', ')}): name the files, or pick one with --input-format`, { file: path });
  }
  const [[kind, files]] = [...byFormat.entries()];
  return { path, format: kind, files };
}
