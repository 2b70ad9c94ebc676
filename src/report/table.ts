/**
 * Plain-text tables for the terminal: columns padded to their widest cell, numbers right-aligned.
 * @example formatTable(['model', 'mean'], [['a', '0.81'], ['b', '0.75']])
 * // => "model  mean\n-----  ----\na      0.81\nb      0.75"
 */
export function formatTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, options: { align?: ReadonlyArray<'left' | 'right'> } = {}): string {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)));
  const widths = header.map((h, k) => Math.max(h.length, ...cells.map((row) => (row[k] ?? '').length)));
  const align = header.map((_, k) => options.align?.[k] ?? (rows.length > 0 && rows.every((row) => typeof row[k] === 'number' || /^[-+−]?[\d.]+%?$|^\[.*\]$|^NaN$/.test(String(row[k]))) ? 'right' : 'left'));
  const pad = (text: string, k: number) => (align[k] === 'right' ? text.padStart(widths[k]) : text.padEnd(widths[k]));
  const lines = [header.map(pad).join('  ').trimEnd(), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of cells) lines.push(header.map((_, k) => pad(row[k] ?? '', k)).join('  ').trimEnd());
  return lines.join('\n');
}

/**
 * A number for people: `digits` significant places for small values, fixed decimals otherwise;
 * NaN and infinities spelled out.
 * @example formatNumber(0.0412345) // => "0.0412"
 */
export function formatNumber(x: number, digits = 3): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x)) return String(x);
  const magnitude = Math.abs(x);
  if (magnitude >= 1000) return x.toFixed(0);
  if (magnitude >= 1) return x.toFixed(Math.max(0, digits - 1 - Math.floor(Math.log10(magnitude))) || 1);
  return Number(x.toPrecision(digits)).toString();
}

/** An interval as `[low, high]` with the same number formatting. */
export function formatInterval(interval: readonly [number, number], digits = 3): string {
  return `[${formatNumber(interval[0], digits)}, ${formatNumber(interval[1], digits)}]`;
}

/** A share in [0, 1] as a percentage with one decimal. @example formatPercent(0.2) // => "20.0%" */
export function formatPercent(share: number, decimals = 1): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(decimals)}%` : 'NaN';
}

/**
 * The warnings block that ends a readable report: a blank line, then `warning: …` lines; none
 * when there are none.
 * @example warningLines(['few items']) // => ['', 'warning: few items']
 */
export function warningLines(warnings: readonly string[]): string[] {
  return warnings.length === 0 ? [] : ['', ...warnings.map((w) => `warning: ${w}`)];
}
