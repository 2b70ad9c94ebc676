import { readFileSync, statSync } from 'node:fs';
import YAML from 'yaml';
import type { z } from 'zod';
import { InputError } from './errors.js';
import { parseWith } from './validate.js';

/** YAML config files are small; anything larger than this is refused rather than parsed. */
const MAX_YAML_BYTES = 64 * 1024 * 1024;
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
 * @throws {InputError} with the file and line of the first syntax error.
 */
export function parseYamlText(text: string, file: string): YamlSource {
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true, schema: 'core' });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first.linePos?.[0]?.line;
    const what = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`invalid YAML: ${what}`, line === undefined ? { file } : { file, line });
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new InputError(`refused: ${(error as Error).message} (more than ${MAX_ALIASES} aliases)`, { file });
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

function offsetOf(parent: unknown, key: PropertyKey): number | undefined {
  if (YAML.isMap(parent)) {
    for (const pair of parent.items) {
      const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
      if (k && String(k.value) === String(key) && k.range) return k.range[0];
    }
  } else if (YAML.isSeq(parent) && typeof key === 'number') {
    const item = parent.items[key] as { range?: [number, number, number] } | undefined;
    if (item?.range) return item.range[0];
  }
  return undefined;
}

/**
 * Loads and validates a YAML file with a zod schema.
 * @throws {InputError} `file:line: path: message (got value)` for the first problem.
 */
export function loadYaml<S extends z.ZodType>(path: string, schema: S): { value: z.infer<S>; source: YamlSource } {
  const source = parseYamlText(readSmallText(path, MAX_YAML_BYTES), path);
  const value = parseWith(schema, source.data, { file: path, lineOf: source.lineOf });
  return { value, source };
}

/** Reads a whole small text file (configs, manifests), refusing one over the size limit. */
export function readSmallText(path: string, maxBytes = MAX_YAML_BYTES): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new InputError('is a directory, not a file', { file: path });
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: path });
  }
  if (size > maxBytes) throw new InputError(`is too large for a config file (${size} bytes; limit ${maxBytes})`, { file: path });
  const bytes = readFileSync(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError('is not valid UTF-8 text', { file: path });
  }
}
