/**
 * A strata precondition that failed for one named stratum (a missing traffic share, a cost,
 * a pilot sd): a RangeError that also carries the stratum's name and the bad value, so the CLI
 * can point at the stratum's line in the strata file.
 * @example new StratumRangeError('rare_clause', 'optimal allocation needs a cost', undefined).stratum // => 'rare_clause'
 */
export class StratumRangeError extends RangeError {
  readonly stratum: string;
  readonly value: unknown;
  readonly hasValue: boolean;

  /**
   * @param stratum the stratum's name.
   * @param what what is wrong, without the stratum's name (it is prefixed).
   * @param value the offending value; pass no third argument when there is none to quote.
   */
  constructor(stratum: string, what: string, ...value: [] | [unknown]) {
    super(`strata.${stratum}: ${what}${value.length > 0 ? ` (got ${String(value[0])})` : ''}`);
    this.name = 'StratumRangeError';
    this.stratum = stratum;
    this.value = value[0];
    this.hasValue = value.length > 0;
  }
}
