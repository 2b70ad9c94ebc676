import type { AnnotationsTable } from '../data/annotations.js';

/**
 * Labels of one set of items by several annotators: rows are items, columns annotators,
 * `null` where an annotator left the item unlabelled (or never saw it).
 */
export type LabelMatrix = ReadonlyArray<ReadonlyArray<string | null>>;

/** A character span [start, end) of a document. */
export interface LabelSpan {
  start: number;
  end: number;
}

/** One clause type's labels, ready for the agreement coefficients. */
export interface TypeLabels {
  /** The clause type; `'all'` when the table has no `type` column. */
  type: string;
  /** Item ids in the order they first appear in the table. */
  items: string[];
  /** Annotators with at least one row of this type, sorted by name. */
  annotators: string[];
  /** items × annotators; null = missing. For span-only tables the label is `"start-end"`. */
  labels: Array<Array<string | null>>;
  /** items × annotators spans when the table has `start` / `end` columns, else null. */
  spans: Array<Array<LabelSpan | null>> | null;
}

/** The name used for the single group of a table without a `type` column. */
export const ALL_CLAUSE_TYPES = 'all';

/**
 * True when a table's labels are spans only: it has `start` / `end` columns and no label at all.
 * Then a span's text `"start-end"` serves as its label, so the nominal coefficients measure
 * exact-match agreement.
 */
export function labelsAreSpans(table: AnnotationsTable): boolean {
  return table.hasSpans && table.rows.every((row) => row.label === null);
}

/**
 * Groups an annotations table by clause type into item × annotator label matrices.
 * Types and items keep the order of their first row, so output follows the file.
 * Cost: O(rows).
 * @example labelsByType(loadAnnotations('examples/annotations.csv'))[0].type // => "payment_terms"
 */
export function labelsByType(table: AnnotationsTable): TypeLabels[] {
  const fromSpans = labelsAreSpans(table);
  const groups = new Map<string, { items: Map<string, number>; annotators: Set<string>; rows: AnnotationsTable['rows'] }>();
  for (const row of table.rows) {
    const type = row.type ?? ALL_CLAUSE_TYPES;
    let group = groups.get(type);
    if (!group) {
      group = { items: new Map(), annotators: new Set(), rows: [] };
      groups.set(type, group);
    }
    if (!group.items.has(row.item)) group.items.set(row.item, group.items.size);
    group.annotators.add(row.annotator);
    group.rows.push(row);
  }
  const result: TypeLabels[] = [];
  for (const [type, group] of groups) {
    const annotators = [...group.annotators].sort();
    const column = new Map(annotators.map((name, k) => [name, k]));
    const items = [...group.items.keys()];
    const labels = items.map(() => annotators.map((): string | null => null));
    const spans = table.hasSpans ? items.map(() => annotators.map((): LabelSpan | null => null)) : null;
    for (const row of group.rows) {
      const i = group.items.get(row.item) as number;
      const k = column.get(row.annotator) as number;
      const span = row.start !== undefined && row.end !== undefined ? { start: row.start, end: row.end } : null;
      labels[i][k] = fromSpans ? (span ? `${span.start}-${span.end}` : null) : row.label;
      if (spans) spans[i][k] = span;
    }
    result.push({ type, items, annotators, labels, spans });
  }
  return result;
}

/** The column of one annotator in a label matrix, as a vector over items. */
export function annotatorColumn(labels: LabelMatrix, column: number): Array<string | null> {
  return labels.map((row) => row[column] ?? null);
}
