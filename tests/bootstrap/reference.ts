import { readFileSync } from 'node:fs';

/** Reads a committed reference JSON under tests/reference/bootstrap/. */
export function referenceJson<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../reference/bootstrap/${name}`, import.meta.url), 'utf8')) as T;
}

/** null in the JSON stands for an infinite end of a one-sided interval. */
export function end(value: number | null, side: 'low' | 'high'): number {
  return value === null ? (side === 'low' ? -Infinity : Infinity) : value;
}

/** Largest |a − b| over pairs, treating equal infinities as 0 apart. */
export function maxAbsError(pairs: Array<[number, number]>): number {
  let worst = 0;
  for (const [x, y] of pairs) {
    const e = x === y ? 0 : Math.abs(x - y);
    if (Number.isNaN(e)) return NaN;
    worst = Math.max(worst, e);
  }
  return worst;
}
