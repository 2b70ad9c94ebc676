/** How two candidates' outputs are compared when deciding whether they agree. */
export const EQUALITY_MODES = ['exact', 'normalised', 'numeric'] as const;
export type EqualityMode = (typeof EQUALITY_MODES)[number];

/** Options of {@link outputsMatch}. */
export interface OutputEqualityOptions {
  /** exact: the same characters; normalised: the same after {@link normaliseOutput}; numeric: within `tolerance` when both parse as numbers, else normalised. Default normalised. */
  mode?: EqualityMode;
  /** Absolute tolerance of the numeric mode, ≥ 0; default 1e-9. */
  tolerance?: number;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * An output as the normalised comparison sees it: Unicode NFC, lower case, runs of white space
 * (spaces, tabs, line breaks) as one space, trimmed at both ends.
 * @example normaliseOutput('  Net 30\n days ') // => "net 30 days"
 */
export function normaliseOutput(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * Do two outputs count as the same answer? If the score is a function of (output, gold label),
 * two candidates that give the same answer get the same score whatever the label, so the item's
 * paired difference is 0 and it need not be annotated to estimate the difference.
 * Reference: the chapter's argument that agreeing items cancel out of a paired difference
 * ("Building a private benchmark"); the comparison modes mirror exact-match / normalised-match /
 * numeric-tolerance scorers of eval harnesses.
 * @param a output of candidate A; @param b output of candidate B.
 * @returns true when they match under the mode.
 * @throws {RangeError} for a negative or non-finite tolerance.
 * @example outputsMatch('Net 30', 'net  30', { mode: 'normalised' }) // => true
 * @example outputsMatch('0.30', '0.3', { mode: 'numeric' }) // => true
 */
export function outputsMatch(a: string, b: string, options: OutputEqualityOptions = {}): boolean {
  const mode = options.mode ?? 'normalised';
  const tolerance = options.tolerance ?? 1e-9;
  if (!(Number.isFinite(tolerance) && tolerance >= 0)) throw new RangeError(`tolerance must be a finite number ≥ 0 (got ${tolerance})`);
  if (mode === 'exact') return a === b;
  if (mode === 'numeric') {
    const x = a.trim();
    const y = b.trim();
    if (NUMBER.test(x) && NUMBER.test(y)) return Math.abs(Number(x) - Number(y)) <= tolerance;
  }
  return normaliseOutput(a) === normaliseOutput(b);
}
