import { describePlace, failAt, type Place } from './fields.js';

/**
 * One spelling per id within one import. Ids are read with surrounding white space trimmed
 * (`idAt`: `" a1"` is item `a1`), as every loader does (`IdSpellings` in src/data), but two
 * different spellings of one trimmed id of one kind (an item id `a1` in one place, `" a1"` in
 * another, in one file or across the import's files, which are paired on these ids) are
 * refused, so nothing is merged silently. One checker per import; ids are told apart by kind
 * (`what`: "a sample id", "a stratum name", …).
 * Cost: one map look-up per id read. Memory: one entry per distinct id and kind.
 * @example const ids = new ImportIdSpellings(); ids.check('a sample id', 'a1', 'a1', p1); ids.check('a sample id', ' a1', 'a1', p2) // throws
 */
export class ImportIdSpellings {
  // kind \0 trimmed id → its first spelling and where it was read
  private readonly first = new Map<string, { raw: string; place: Place }>();

  /**
   * Checks that `raw` (which trims to `trimmed`) is spelled as every earlier id of this kind that trims the same.
   * @throws {InputError} `FILE[:LINE]: PATH: WHAT " a1" differs from "a1" (at FILE:LINE PATH) only by surrounding white space: … (got " a1")`.
   */
  check(what: string, raw: string, trimmed: string, place: Place): void {
    const key = `${what}\u0000${trimmed}`;
    const earlier = this.first.get(key);
    if (earlier === undefined) this.first.set(key, { raw, place });
    else if (earlier.raw !== raw) {
      throw failAt(
        place,
        `${what} ${JSON.stringify(raw)} differs from ${JSON.stringify(earlier.raw)} (at ${describePlace(earlier.place)}) only by surrounding white space: ids are trimmed, so spell one id one way`,
        raw,
      );
    }
  }
}
