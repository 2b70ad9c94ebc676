/**
 * One CSV field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a
 * line break; as is otherwise. undefined is an empty field. The readers in read.ts undo exactly this.
 * @example csvField('a, "b"') // => "\"a, \"\"b\"\"\""
 */
export function csvField(value: string | number | undefined | null): string {
  const text = value === undefined || value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line break) from its fields. @example csvLine(['x', 1, undefined]) // => "x,1," */
export function csvLine(values: ReadonlyArray<string | number | undefined | null>): string {
  return values.map(csvField).join(',');
}
