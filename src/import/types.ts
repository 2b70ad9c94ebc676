import type { ZipLimits } from './zip.js';

/** The result formats `benchplan import` reads. */
export const IMPORT_FORMATS = ['promptfoo', 'inspect', 'lm-eval'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Options of importResults; each applies to the formats named. */
export interface ImportOptions extends ZipLimits {
  /**
   * promptfoo: what identifies an item. `testIdx` (default with one file) pairs results by
   * test index; `vars` by a stable hash of the test's vars (keys starting with `_` and
   * `sessionId` left out), which is what matches the same test across files and repeats.
   */
  itemKey?: 'testIdx' | 'vars';
  /** promptfoo: the score field: `score` (default), `success` (0/1), or `namedScores.NAME`. */
  score?: string;
  /** Inspect: the scorer whose value is the score (default: the only one); `scorer.key` for dict values. */
  scorer?: string;
  /** lm-eval: the per-sample metric key (default: the only one the file records). */
  metric?: string;
  /** lm-eval: the filter whose rows to keep (default: the only one in the file). */
  filter?: string;
  /** The stratum key: promptfoo testCase.metadata.K or vars.K; Inspect metadata.K; lm-eval doc.K. */
  stratumKey?: string;
  /** The cluster key, looked up in the same places as the stratum key. */
  clusterKey?: string;
  /** Model names: one for every file, or one per file in order (overrides what the files say). */
  model?: readonly string[];
  /**
   * Inspect: how a sample's epochs become its score. Default: the reducer the log records
   * (`eval.config.epochs_reducer`, else `mean`). `mean` keeps every epoch as a repeat (benchplan
   * averages repeats, which is Inspect's mean); `median`, `mode`, `max`, `at_least_K`,
   * `pass_at_K` and `pass_k_K` (Inspect's at_least(K), pass_at(K), pass_k(K), threshold 1.0) give
   * one row per sample.
   */
  epochReducer?: string;
  /**
   * Leave item ids without the `task/` prefix and report each row's task in `task` instead (the
   * caller that joins several imports prefixes them consistently across all of them).
   */
  keepTask?: boolean;
  /** Keep each row's content digest (ImportedRow.digest); without it rows carry none. */
  withDigest?: boolean;
  /** Keep each row's `output` (the model's answer, where the file records it); default false. */
  keepOutputs?: boolean;
}

/** One row of the imported scores table (DESIGN.md "Scores table") plus lm-eval's doc hash. */
export interface ImportedRow {
  item: string;
  model: string;
  score: number;
  outcome?: string;
  stratum?: string;
  cluster?: string;
  repeat?: number;
  /** lm-eval's `doc_hash`, kept as an extra column (loadScores ignores unknown columns). */
  docHash?: string;
  /**
   * The item's content digest (see itemDigest): what the item was, so two runs can be checked
   * to have seen the same item under the same id. Absent when the file records no content.
   */
  digest?: string;
  /** The task the row came from, with options.keepTask (Inspect eval.task, lm-eval file name). */
  task?: string;
  /** What the model answered on the item, where the tool's file records it (promptfoo response.output, Inspect output.completion, lm-eval filtered_resps); for the review page. Not written by import. */
  output?: string;
}

/** Counts of one input file. */
export interface ImportedFile {
  file: string;
  /** Model name(s) the file's rows carry. */
  models: string[];
  /** Rows kept. */
  rows: number;
  /** Rows left out because the run errored (promptfoo failureReason 2, Inspect sample error). */
  errors: number;
  /** Rows left out because the chosen score is absent (Inspect sample not scored by the scorer). */
  unscored: number;
}

/** The epoch reducers readInspect applies (Inspect's names; at_least_K and pass_at_K take K ≥ 1). */
export const EPOCH_REDUCERS = ['mean', 'median', 'mode', 'max', 'at_least_K', 'pass_at_K', 'pass_k_K'] as const;

/** What importResults read, and the rows it made. */
export interface ImportResult {
  format: ImportFormat;
  /** The settings that produced the rows, echoed back. */
  settings: {
    itemKey: 'testIdx' | 'vars' | null;
    score: string | null;
    scorer: string | null;
    metric: string | null;
    filter: string | null;
    stratumKey: string | null;
    clusterKey: string | null;
    /** Inspect: the epoch reducer applied (null for other formats). */
    epochReducer: string | null;
  };
  files: ImportedFile[];
  rows: ImportedRow[];
  models: string[];
  itemCount: number;
  rowCount: number;
  /** Rows left out because the run errored, over all files. */
  errors: number;
  /** Rows left out because the chosen score was absent, over all files. */
  unscored: number;
  /** Whether the table carries an outcome column (Inspect C/I/P/N letters). */
  hasOutcome: boolean;
  /** Whether repeats were numbered by order of appearance because the files do not record them. */
  repeatsInferred: boolean;
  warnings: string[];
}
