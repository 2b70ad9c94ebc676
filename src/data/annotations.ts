import { toFiniteNumber, toText } from './columns.js';
import { IdSpellings } from './id-spelling.js';
import { InputError } from './errors.js';
import { openTable } from './read.js';

/** One annotator's label for one item (DESIGN.md "Annotations"). */
export interface Annotation {
  item: string;
  annotator: string;
  /** The label, or null when the annotator left the item unlabelled. */
  label: string | null;
  /** Clause type; null when the table has no type column. */
  type: string | null;
  /** Character span [start, end) when the labels are spans. */
  start?: number;
  end?: number;
  line: number;
}

export interface AnnotationsTable {
  source: string;
  rows: Annotation[];
  annotators: string[];
  hasType: boolean;
  hasSpans: boolean;
}

/**
 * Checks annotation rows: ids present, each (item, annotator) once, an item's type the same
 * for every annotator, spans whole numbers with start ≤ end. An empty label is a missing one.
 * @throws {InputError} naming the file, line and value.
 */
export function annotationsFromRecords(records: Iterable<{ line: number; values: Record<string, unknown> }>, source: string, columns: string[] | null): AnnotationsTable {
  const rows: Annotation[] = [];
  const seen = new Map<string, number>();
  const itemType = new Map<string, { type: string | null; line: number }>();
  const annotators = new Set<string>();
  let hasType: boolean | null = columns ? columns.includes('type') : null;
  let hasSpans: boolean | null = columns ? columns.includes('start') || columns.includes('end') : null;
  let hasLabel: boolean | null = columns ? columns.includes('label') : null;
  let firstLine = 0;
  if (columns) {
    for (const name of ['item', 'annotator']) if (!columns.includes(name)) throw new InputError(`missing required column "${name}"`, { file: source, line: 1, value: columns.join(',') });
    if (!columns.includes('label') && !hasSpans) throw new InputError('missing required column "label" (or "start" and "end" for spans)', { file: source, line: 1, value: columns.join(',') });
    if (hasSpans && !(columns.includes('start') && columns.includes('end'))) throw new InputError('span labels need both "start" and "end" columns', { file: source, line: 1, value: columns.join(',') });
  }
  const spellings = new Map<string, IdSpellings>();
  for (const { line, values } of records) {
    const id = (field: string): string => {
      const text = toText(values[field]);
      if (text === undefined || text.trim() === '') throw new InputError(`${field} must be a non-empty string`, { file: source, line, value: values[field] ?? '' });
      let checker = spellings.get(field);
      if (checker === undefined) spellings.set(field, (checker = new IdSpellings(source, field)));
      return checker.trimmed(text, line);
    };
    if (columns === null) {
      // JSONL: the first row decides which columns the table has; every later row must agree,
      // as a CSV header would make it.
      const present = { type: values.type !== undefined, spans: values.start !== undefined || values.end !== undefined, label: values.label !== undefined };
      if (hasType === null) {
        hasType = present.type;
        hasSpans = present.spans;
        hasLabel = present.label;
        firstLine = line;
        if (!hasLabel && !hasSpans) throw new InputError('each row needs a "label" (or "start" and "end" for spans)', { file: source, line, value: Object.keys(values).join(',') });
      } else {
        for (const [name, has, had] of [['type', present.type, hasType], ['start/end', present.spans, hasSpans], ['label', present.label, hasLabel]] as const) {
          if (has !== had) {
            throw new InputError(has ? `"${name}" appears here but not on line ${firstLine}` : `"${name}" is missing here but present on line ${firstLine}`, { file: source, line });
          }
        }
      }
    }
    const item = id('item');
    const annotator = id('annotator');
    const rawLabel = values.label;
    const labelText = rawLabel === undefined || rawLabel === null ? null : toText(rawLabel) ?? (typeof rawLabel === 'boolean' ? String(rawLabel) : undefined);
    if (labelText === undefined) throw new InputError('label must be a string or a number', { file: source, line, value: rawLabel });
    const label = labelText === null || labelText.trim() === '' ? null : labelText.trim();
    const type = hasType ? id('type') : null;
    const row: Annotation = { item, annotator, label, type, line };
    if (hasSpans) {
      const emptySpan = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
      if (!(emptySpan(values.start) && emptySpan(values.end))) {
        const start = toFiniteNumber(values.start);
        const end = toFiniteNumber(values.end);
        if (start === undefined || !Number.isInteger(start) || start < 0) throw new InputError('start must be a whole number ≥ 0', { file: source, line, value: values.start });
        if (end === undefined || !Number.isInteger(end) || end < start) throw new InputError('end must be a whole number ≥ start', { file: source, line, value: values.end });
        row.start = start;
        row.end = end;
      }
    }
    const key = `${item}\u0000${annotator}`;
    const first = seen.get(key);
    if (first !== undefined) throw new InputError(`annotator "${annotator}" labels item "${item}" twice (first on line ${first})`, { file: source, line, value: item });
    seen.set(key, line);
    const known = itemType.get(item);
    if (known && known.type !== type) throw new InputError(`item "${item}" has type "${known.type}" on line ${known.line} but a different type here`, { file: source, line, value: type });
    if (!known) itemType.set(item, { type, line });
    annotators.add(annotator);
    rows.push(row);
  }
  if (rows.length === 0) throw new InputError('has no annotation rows', { file: source });
  return { source, rows, annotators: [...annotators].sort(), hasType: hasType ?? false, hasSpans: hasSpans ?? false };
}

/**
 * Loads an annotations table (CSV or JSONL): `item`, `annotator`, `label`, optional `type`,
 * optional `start` / `end` for span labels.
 */
export function loadAnnotations(path: string): AnnotationsTable {
  const reader = openTable(path);
  return annotationsFromRecords(reader.records, path, reader.columns);
}
