import { csvLine } from '../data/csv-text.js';
import type { AnnotationsTable } from '../data/annotations.js';
import { labelsByType } from './labels.js';

/** One item the annotators disagree on, for a third reader. */
export interface AdjudicationItem {
  type: string;
  item: string;
  /** Each annotator's label, aligned with `AdjudicationList.annotators`; null = missing. */
  labels: Array<string | null>;
  /** Distinct labels given. */
  distinct: number;
}

/** The items to adjudicate, by clause type in the order of the table. */
export interface AdjudicationList {
  /** Every annotator of the table, sorted: the label columns. */
  annotators: string[];
  items: AdjudicationItem[];
}

/**
 * The adjudication list: every item on which the annotators gave two or more different labels
 * (missing labels do not count as a disagreement), grouped by clause type, so a third reader
 * can settle them (the seed chapter: "adjudicate the disagreements with a third reader").
 * For span-only tables a label is the span `"start-end"`, so any span that is not an exact
 * match is listed.
 * Cost: O(rows).
 * @example adjudicationList(loadAnnotations('examples/annotations.csv')).items[0].type // => "payment_terms"
 */
export function adjudicationList(table: AnnotationsTable): AdjudicationList {
  const annotators = [...table.annotators].sort();
  const items: AdjudicationItem[] = [];
  for (const group of labelsByType(table)) {
    const column = group.annotators.map((name) => annotators.indexOf(name));
    group.items.forEach((item, i) => {
      const given = group.labels[i];
      const distinct = new Set(given.filter((label) => label !== null)).size;
      if (distinct < 2) return;
      const labels = annotators.map((): string | null => null);
      given.forEach((label, k) => {
        labels[column[k]] = label;
      });
      items.push({ type: group.type, item, labels, distinct });
    });
  }
  return { annotators, items };
}


/**
 * The adjudication list as CSV: `type,item,<one column per annotator>,adjudicated`, the last
 * column empty for the third reader to fill in. Missing labels are empty cells.
 * @example adjudicationCsv({ annotators: ['ana', 'ben'], items: [{ type: 't', item: 'a1', labels: ['x', 'y'], distinct: 2 }] })
 * // => "type,item,ana,ben,adjudicated\nt,a1,x,y,\n"
 */
export function adjudicationCsv(list: AdjudicationList): string {
  const header = ['type', 'item', ...list.annotators, 'adjudicated'];
  if (new Set(header).size !== header.length) throw new RangeError(`an annotator is named like a fixed column (type, item, adjudicated): ${list.annotators.join(', ')}`);
  const lines = [csvLine(header)];
  for (const row of list.items) lines.push(csvLine([row.type, row.item, ...row.labels, '']));
  return `${lines.join('\n')}\n`;
}
