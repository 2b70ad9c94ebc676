import { InputError } from '../data/errors.js';

/** Default of ImportByteBudget: 512 MiB of text held or parsed over every file of one import. */
export const DEFAULT_IMPORT_MAX_TOTAL_BYTES = 512 * 1024 * 1024;

/**
 * One byte budget over every file of one import: the bytes decompressed from archives and the
 * JSON text parsed whole or kept as parsed objects (a `.json` file, promptfoo `.jsonl`). A
 * per-file cap alone lets N hostile archives cost N times the cap, because every log is read
 * before any row is checked; one budget charged as the bytes arrive bounds the whole import.
 * importResults makes one per call; pass your own (options.budget) to share it or to watch `used`.
 * @example const budget = new ImportByteBudget(1024); budget.charge(1000, 'a.json'); budget.used // => 1000
 */
export class ImportByteBudget {
  /** The most bytes all files of the import may take together. */
  readonly limit: number;
  private taken = 0;

  /** @throws {RangeError} unless limit is a whole number ≥ 0. */
  constructor(limit: number = DEFAULT_IMPORT_MAX_TOTAL_BYTES) {
    if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`ImportByteBudget: limit must be a whole number of bytes ≥ 0 (got ${limit})`);
    this.limit = limit;
  }

  /** Bytes charged so far. */
  get used(): number {
    return this.taken;
  }

  /** Bytes left. */
  get remaining(): number {
    return this.limit - this.taken;
  }

  /**
   * Checks, before reading, that `bytes` more would fit.
   * @param where the file (and entry) the bytes would come from, for the message.
   * @throws {InputError} naming `where` when they would not.
   */
  check(bytes: number, where: string): void {
    if (bytes > this.remaining) {
      throw new InputError(
        `would take the bytes read in this import to ${this.taken + bytes}, over the limit of ${this.limit} for all files together (maxTotalBytes)`,
        { file: where },
      );
    }
  }

  /**
   * Charges bytes as they are read or decompressed.
   * @throws {InputError} naming `where` when the total would pass the limit (nothing is charged then).
   */
  charge(bytes: number, where: string): void {
    this.check(bytes, where);
    this.taken += bytes;
  }
}
