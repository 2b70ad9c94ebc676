/**
 * Dates in version records are calendar days written `YYYY-MM-DD`. The library never reads the
 * clock: the CLI passes today's date (or `--date`) in.
 */

const DAY_MS = 86_400_000;

/** True for a real calendar day written `YYYY-MM-DD` (so `2026-02-30` is false). */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const days = isoDateToDays(text);
  return Number.isFinite(days) && daysToIsoDate(days) === text;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (NaN when it is not one). @example isoDateToDays('1970-01-02') // => 1 */
export function isoDateToDays(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
}

/** The `YYYY-MM-DD` date of a day count since 1970-01-01 (rounded down). @example daysToIsoDate(1) // => "1970-01-02" */
export function daysToIsoDate(days: number): string {
  return new Date(Math.floor(days) * DAY_MS).toISOString().slice(0, 10);
}
