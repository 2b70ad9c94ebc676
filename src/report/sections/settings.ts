/** Settings shared by the report's sections. */
export interface ReportSettings {
  /** Seed of every bootstrap; default "0". */
  seed: string;
  /** Confidence level of every interval, in (0, 1). */
  confidenceLevel: number;
  /** Bootstrap resamples. */
  nResamples: number;
}
