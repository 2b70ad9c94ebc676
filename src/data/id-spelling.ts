import { InputError } from './errors.js';

/**
 * Ids are read with surrounding white space trimmed in every input (`" a001 "` is item `a001`),
 * so a stray space after a comma in a hand-written CSV does not make a new item. But two
 * different spellings of one trimmed id in the same file (`a001` on one line, `a001 ` on
 * another) are refused, so nothing is merged silently. One checker per file and field.
 * Cost: nothing but a comparison per id while no id in the file carries white space (the usual
 * case); after that, one map look-up per id. Memory: one entry per padded id, plus (without a
 * `known` look-up) one per bare id.
 * @example const ids = new IdSpellings('s.csv', 'item'); ids.trimmed('a', 2); ids.trimmed('a ', 3) // throws
 */
export class IdSpellings {
  // trimmed id → its padded spelling and line, for ids first seen padded
  private readonly padded = new Map<string, { raw: string; line: number }>();
  // bare ids seen, kept only when the caller has no look-up of its own
  private readonly bare: Set<string> | undefined;
  private last: string | undefined;
  private lastTrimmed = '';

  /**
   * @param known whether an id (trimmed) was met on an earlier line of this file: the caller's
   *   own index of ids (an interner), so the checker need not keep a second one. Without it the
   *   checker keeps a set of the bare ids itself.
   */
  constructor(
    private readonly file: string,
    private readonly field: string,
    private readonly known?: (trimmed: string) => boolean,
  ) {
    if (known === undefined) this.bare = new Set();
  }

  /**
   * The id trimmed, after checking it is spelled as on every earlier line of this file.
   * @throws {InputError} `FILE:LINE: FIELD "a " differs from "a" (line N) only by surrounding white space`.
   */
  trimmed(raw: string, line: number): string {
    if (raw === this.last) return this.lastTrimmed;
    const trimmed = raw.trim();
    if (raw === trimmed) {
      if (this.padded.size > 0) {
        const earlier = this.padded.get(trimmed);
        if (earlier !== undefined) this.clash(raw, earlier.raw, `line ${earlier.line}`, line);
      }
      this.bare?.add(trimmed);
    } else {
      const earlier = this.padded.get(trimmed);
      if (earlier !== undefined) {
        if (earlier.raw !== raw) this.clash(raw, earlier.raw, `line ${earlier.line}`, line);
      } else {
        const seenBare = this.known ? this.known(trimmed) : (this.bare as Set<string>).has(trimmed);
        if (seenBare) this.clash(raw, trimmed, 'an earlier line', line);
        this.padded.set(trimmed, { raw, line });
      }
    }
    this.last = raw;
    this.lastTrimmed = trimmed;
    return trimmed;
  }

  private clash(raw: string, other: string, where: string, line: number): never {
    throw new InputError(
      `${this.field} ${JSON.stringify(raw)} differs from ${JSON.stringify(other)} (${where}) only by surrounding white space: ids are trimmed, so spell one id one way`,
      { file: this.file, line },
    );
  }
}
