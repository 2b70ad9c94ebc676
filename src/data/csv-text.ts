/**
 * Cells a spreadsheet would run as a formula: text starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return (OWASP, "CSV Injection"), or such text already behind leading `'`s.
 */
const FORMULA_LEADING = /^'*[=+\-@\t\r]/;
/** A plain decimal number (`-0.5`, `+3`, `1e-3`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A text cell made safe to open in a spreadsheet, the way OWASP recommends: a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so Excel, LibreOffice
 * and Google Sheets show it as text instead of running it (`=cmd|' /C calc'!A0` becomes
 * `'=cmd|' /C calc'!A0`). Numbers stay numbers: a number passed as a number, and text that is a
 * plain decimal number (`-0.5`), are written as they are. So that every text still reads back
 * exactly (`csvCellText` undoes this), text that already starts with `'`s before such a
 * character gets one more.
 * Reference: OWASP, "CSV Injection" (owasp.org/www-community/attacks/CSV_Injection).
 * @example neutraliseCell('=1+2') // => "'=1+2"
 * @example neutraliseCell('-0.5') // => "-0.5"
 */
export function neutraliseCell(text: string): string {
  return FORMULA_LEADING.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * The text a cell that `neutraliseCell` wrote stands for: one leading `'` dropped where one was
 * added. The CSV readers apply it to every field, so a table benchplan wrote reads back as the
 * rows it was written from.
 * @example csvCellText("'=1+2") // => "=1+2"
 * @example csvCellText("'quoted") // => "'quoted"
 */
export function csvCellText(cell: string): string {
  return cell.charCodeAt(0) === 39 && FORMULA_LEADING.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * One CSV field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a
 * line break; as is otherwise. undefined is an empty field. Text (not a number) that a
 * spreadsheet would run as a formula is neutralised first (`neutraliseCell`). The readers in
 * read.ts undo exactly this.
 * @example csvField('a, "b"') // => "\"a, \"\"b\"\"\""
 * @example csvField('=HYPERLINK("x")') // => "\"'=HYPERLINK(\"\"x\"\")\""
 * @example csvField(-0.5) // => "-0.5"
 */
export function csvField(value: string | number | undefined | null): string {
  const text = value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : neutraliseCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line break) from its fields. @example csvLine(['x', 1, undefined]) // => "x,1," */
export function csvLine(values: ReadonlyArray<string | number | undefined | null>): string {
  return values.map(csvField).join(',');
}
