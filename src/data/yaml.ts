import YAML from 'yaml';
import type { z } from 'zod';
import { InputError } from './errors.js';
import { readInputText } from './read.js';
import { parseWith } from './validate.js';

/** YAML config files are small; anything larger than this is refused rather than parsed. */
const MAX_YAML_BYTES = 64 * 1024 * 1024;
/** Config files (strata, cost policy) are a few lines; one over 1 MiB is a mistake, refused before parsing. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Aliases allowed before a document counts as an alias bomb (billion laughs). */
const MAX_ALIASES = 100;

/** A YAML document and a way to find the line a path sits on. */
export interface YamlSource {
  file: string;
  data: unknown;
  lineOf: (path: ReadonlyArray<PropertyKey>) => number | undefined;
}

/**
 * Reads YAML text safely: no custom tags (no code runs), duplicate keys refused, aliases
 * capped so an alias bomb fails fast instead of expanding.
 * Nesting is capped at MAX_YAML_DEPTH levels, checked on the text before the parser runs (the
 * parser recurses: 1,000 nested brackets overflow its stack, and 5,000 block levels exhaust
 * memory).
 * @param options.empty what the file should hold: given, an empty document (no content, or only
 *   comments) is refused as `FILE: is empty: expected …`.
 * @throws {InputError} with the file and line of the first syntax error, or of nesting too deep.
 */
export function parseYamlText(text: string, file: string, options: { empty?: string } = {}): YamlSource {
  checkNestingDepth(text, file);
  const lineCounter = new YAML.LineCounter();
  // The yaml package's own duplicate-key check compares every key with every earlier one (a
  // 20,000-stratum file took 15 s); duplicates are found below in one pass instead.
  const doc = YAML.parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: true, schema: 'core' });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first.linePos?.[0]?.line;
    const what = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`invalid YAML: ${what}`, line === undefined ? { file } : { file, line });
  }
  checkDuplicateKeys(doc, file, lineCounter);
  // A tag the core schema does not know (`!include`, `!!js/function`) would be read as a plain
  // string without a word: refuse it, at its line.
  const tag = doc.warnings.find((w) => /tag/i.test(w.message));
  if (tag !== undefined) {
    const line = tag.linePos?.[0]?.line;
    throw new InputError(`invalid YAML: ${tag.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`, line === undefined ? { file } : { file, line });
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new InputError(`refused: ${(error as Error).message} (more than ${MAX_ALIASES} aliases)`, { file });
  }
  if ((data === null || data === undefined) && options.empty !== undefined) {
    throw new InputError(`is empty: expected ${options.empty}`, { file });
  }
  // The line of the deepest part of the path that exists: the key for a map entry, the item for
  // a list entry, so an unknown or bad key is reported where it is written.
  const lineOf = (path: ReadonlyArray<PropertyKey>): number | undefined => {
    for (let depth = path.length; depth > 0; depth--) {
      const parent = depth === 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1) as unknown[], true);
      const offset = offsetOf(parent, path[depth - 1]);
      if (offset !== undefined) return lineCounter.linePos(offset).line;
    }
    const range = (doc.contents as { range?: [number, number, number] } | null)?.range;
    return range ? lineCounter.linePos(range[0]).line : undefined;
  };
  return { file, data, lineOf };
}

/** The deepest nesting a YAML input may have: far more than any config or manifest (they use 2 to 4). */
export const MAX_YAML_DEPTH = 100;

/**
 * Refuses text nested more than MAX_YAML_DEPTH levels, one pass, before parsing. Counts are an
 * upper bound of the real depth, so real files are never refused: block levels are the distinct
 * indentations open at a line (plus its leading `- ` markers), flow levels the open brackets
 * outside quotes and comments.
 */
function checkNestingDepth(text: string, file: string): void {
  const indents: number[] = [];
  let flow = 0;
  let line = 0;
  for (const raw of text.split(/\r\n|\n|\r/)) {
    line += 1;
    let i = 0;
    while (i < raw.length && raw.charCodeAt(i) === 32) i++;
    if (i === raw.length || raw[i] === '#') continue;
    while (indents.length > 0 && indents[indents.length - 1] > i) indents.pop();
    if (indents.length === 0 || indents[indents.length - 1] < i) indents.push(i);
    let dashes = 0;
    let j = i;
    while (raw[j] === '-' && (raw[j + 1] === ' ' || j + 1 === raw.length)) {
      dashes += 1;
      j += 2;
      while (raw[j] === ' ') j++;
    }
    let quote = '';
    for (let k = i; k < raw.length; k++) {
      const c = raw[k];
      if (quote !== '') {
        if (c === quote) quote = '';
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (k === 0 || raw[k - 1] === ' ')) break;
      else if (c === '[' || c === '{') flow += 1;
      else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
      if (flow > MAX_YAML_DEPTH) break;
    }
    if (indents.length + dashes + flow > MAX_YAML_DEPTH) {
      throw new InputError(`is nested more than ${MAX_YAML_DEPTH} levels deep: refused before parsing`, { file, line });
    }
  }
}

/** Refuses a mapping that names a key twice, at the second key's line: O(keys). */
function checkDuplicateKeys(doc: YAML.Document, file: string, lineCounter: YAML.LineCounter): void {
  YAML.visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
        const name = String(k && typeof k === 'object' && 'value' in k ? k.value : k);
        const line = k?.range ? lineCounter.linePos(k.range[0]).line : undefined;
        if (seen.has(name)) {
          throw new InputError('invalid YAML: a mapping names the same key twice', { file, ...(line === undefined ? {} : { line }), value: name });
        }
        // A key named __proto__ is dropped (or worse) when the mapping becomes an object: refuse it.
        if (name === '__proto__') throw new InputError('a key may not be named __proto__ (it cannot be read as data)', { file, ...(line === undefined ? {} : { line }), value: name });
        seen.add(name);
      }
    },
  });
}

// Key → offset per map node, built on first use: looking up every key of a map one by one (as a
// strata file's lines are) would otherwise scan the map once per key, O(n²).
const keyOffsets = new WeakMap<object, Map<string, number>>();

function offsetOf(parent: unknown, key: PropertyKey): number | undefined {
  if (YAML.isMap(parent)) {
    let offsets = keyOffsets.get(parent);
    if (offsets === undefined) {
      offsets = new Map();
      for (const pair of parent.items) {
        const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
        if (k && k.range && !offsets.has(String(k.value))) offsets.set(String(k.value), k.range[0]);
      }
      keyOffsets.set(parent, offsets);
    }
    return offsets.get(String(key));
  }
  if (YAML.isSeq(parent) && typeof key === 'number') {
    const item = parent.items[key] as { range?: [number, number, number] } | undefined;
    if (item?.range) return item.range[0];
  }
  return undefined;
}

/**
 * Loads and validates a YAML file with a zod schema.
 * @param options.empty what the file should hold, for the message when it is empty.
 * @throws {InputError} `file:line: path: message (got value)` for the first problem.
 */
export function loadYaml<S extends z.ZodType>(path: string, schema: S, options: { empty?: string } = {}): { value: z.infer<S>; source: YamlSource } {
  const source = parseYamlText(readSmallText(path, MAX_CONFIG_BYTES), path, options);
  const value = parseWith(schema, source.data, { file: path, lineOf: source.lineOf });
  return { value, source };
}

/**
 * Reads a whole small text file (configs, manifests) through the shared bounded reader: a
 * regular file only (a FIFO, device, socket or folder is refused without blocking), refused
 * when over the size limit, whether fstat says so or the bytes read do.
 * @throws {InputError} `FILE: is too large for this kind of file (N bytes; limit M)`, `not a
 *   regular file (got KIND)`, `cannot read file: CODE` or `is not valid UTF-8 text`.
 */
export function readSmallText(path: string, maxBytes = MAX_YAML_BYTES): string {
  return readInputText(path, { maxBytes, tooLarge: (bytes) => `is too large for this kind of file (${bytes} bytes; limit ${maxBytes})` });
}
