/** Settings shared by the report's sections. */
export interface ReportSettings {
  /** Seed of every bootstrap; default "0". */
  seed: string;
  /** Confidence level of every interval, in (0, 1). */
  confidenceLevel: number;
  /** Bootstrap resamples. */
  nResamples: number;
  /**
   * Leave out items some model did not score (the CLI's --drop-unpaired), as compare and gate do;
   * default false: unpaired items are refused with a message naming them.
   */
  dropUnpaired?: boolean;
}
