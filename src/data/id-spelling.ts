import { InputError } from './errors.js';

/**
 * Ids are read with surrounding white space trimmed in every input (`" a001 "` is item `a001`),
 * so a stray space after a comma in a hand-written CSV does not make a new item. But two
 * different spellings of one trimmed id in the same file (`a001` on one line, `a001 ` on
 * another) are refused, so nothing is merged silently. One checker per file and field.
 * Cost: O(1) per id (one map look-up; none when the id repeats the previous row's); one map
 * entry per distinct id.
 * @example const ids = new IdSpellings('s.csv', 'item'); ids.trimmed('a', 2); ids.trimmed('a ', 3) // throws
 */
export class IdSpellings {
  // trimmed id → the line of its first spelling; the spelling itself, when it was padded
  private readonly lines = new Map<string, number>();
  private readonly padded = new Map<string, string>();
  private last: string | undefined;
  private lastTrimmed = '';

  constructor(
    private readonly file: string,
    private readonly field: string,
  ) {}

  /**
   * The id trimmed, after checking it is spelled as on every earlier line of this file.
   * @throws {InputError} `FILE:LINE: FIELD "a " differs from "a" (line N) only by surrounding white space`.
   */
  trimmed(raw: string, line: number): string {
    if (raw === this.last) return this.lastTrimmed;
    const trimmed = raw.trim();
    const first = this.lines.get(trimmed);
    if (first === undefined) {
      this.lines.set(trimmed, line);
      if (raw !== trimmed) this.padded.set(trimmed, raw);
    } else {
      const spelling = this.padded.get(trimmed) ?? trimmed;
      if (spelling !== raw) {
        throw new InputError(
          `${this.field} ${JSON.stringify(raw)} differs from ${JSON.stringify(spelling)} (line ${first}) only by surrounding white space: ids are trimmed, so spell one id one way`,
          { file: this.file, line },
        );
      }
    }
    this.last = raw;
    this.lastTrimmed = trimmed;
    return trimmed;
  }
}
