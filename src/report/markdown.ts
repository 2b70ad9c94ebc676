/**
 * Text of a name (a model, a stratum, a file) safe inside GitHub-flavoured Markdown: the
 * characters that start emphasis, code, links, HTML or a table cell are backslash-escaped, and
 * line breaks become spaces, so a name prints as itself in a job summary or a PR comment.
 * Reference: GFM spec §2.4 (backslash escapes), §4.10 (tables: `\|` inside a cell).
 * @example markdownText('gpt_4o [v2]') // => "gpt_4o \\[v2\\]"
 */
export function markdownText(text: string): string {
  // An underscore inside a word never starts emphasis (GFM §6.2), so `negative_control` stays readable.
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/_/g, (c, k: number, all: string) => (/[\p{L}\p{N}]/u.test(all[k - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[k + 1] ?? '') ? c : '\\_'));
}

/**
 * A GitHub-flavoured Markdown pipe table. Cells are written as given (escape names with
 * markdownText first); a `|` left in a cell is escaped so it cannot split the row.
 * @param header column titles.
 * @param rows one array of cells per row, as many as the header.
 * @param align per column, `left` (default) or `right` (numbers).
 * @example markdownTable(['model', 'mean'], [['a', '0.81']], ['left', 'right'])
 * // => "| model | mean |\n| --- | ---: |\n| a | 0.81 |"
 */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>, align: ReadonlyArray<'left' | 'right'> = []): string {
  const cell = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/(?<!\\)\|/g, '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `| ${header.map((_, k) => (align[k] === 'right' ? '---:' : '---')).join(' | ')} |`;
  return [line(header), rule, ...rows.map((row) => line(header.map((_, k) => row[k] ?? '')))].join('\n');
}

/**
 * A confidence level as people write it: 0.95 → "95%", 0.975 → "97.5%".
 * @example markdownLevel(0.975) // => "97.5%"
 */
export function markdownLevel(confidenceLevel: number): string {
  return `${+(confidenceLevel * 100).toFixed(4)}%`;
}

/**
 * A p-value for a table: "< 0.0001" below that, else two significant digits, with "≤" when it is
 * the smallest value B random sign flips can give, 1 / (B + 1) (the true p may be smaller).
 * @param permutations the number of random sign flips behind p, or 0 when p is exact or a t-test's.
 * @example markdownPValue(0.0001, 9999) // => "≤ 0.0001"
 */
export function markdownPValue(p: number, permutations = 0): string {
  if (Number.isNaN(p)) return 'NaN';
  if (permutations > 0 && Math.abs(p * (permutations + 1) - 1) < 1e-9) return `≤ ${Number(p.toPrecision(2))}`;
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(2)));
}

/** The warnings block that ends a Markdown report: none when there are none. */
export function markdownWarnings(warnings: readonly string[]): string[] {
  return warnings.length === 0 ? [] : ['', ...warnings.map((w) => `- ⚠️ warning: ${markdownText(w)}`)];
}

/** Joins a report's lines into one document ending in a newline. */
export function markdownDocument(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}
