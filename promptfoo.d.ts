// Types of benchplan's promptfoo extension (promptfoo.js): the afterAll hook and its parts.

/** The hook's settings; each falls back to its BENCHPLAN_* environment variable (promptfoo.js). */
export interface BenchplanHookOptions {
  /** The baseline promptfoo results file (.json or .jsonl). BENCHPLAN_BASELINE. */
  baseline?: string;
  /** The largest acceptable drop of this run − baseline, e.g. 0.02; absent: compare only. BENCHPLAN_MARGIN. */
  margin?: number;
  /** Set the exit status when the gate does not pass. BENCHPLAN_FAIL_ON_REGRESSION. */
  failOnRegression?: boolean;
  /** `score` (default), `success` or `namedScores.NAME`. BENCHPLAN_SCORE. */
  score?: string;
  /** testCase.metadata / vars key of each test's stratum: the gate checks every stratum too. */
  stratumKey?: string;
  /** The provider to use when a run has several. */
  baselineModel?: string;
  candidateModel?: string;
  /** A file the Markdown verdict is appended to (e.g. $GITHUB_STEP_SUMMARY). */
  markdown?: string;
  /** Seed of the resampling (default 0). */
  seed?: string | number;
  /** Bootstrap resamples (default 9999). */
  nResamples?: number;
  /** Interval method: bca, percentile, basic or t (default: benchplan's auto). */
  method?: string;
}

/** Where the hook prints, and the environment it reads (defaults: process.stdout, process.stderr, process.env). */
export interface BenchplanHookIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: Record<string, string | undefined>;
}

/** What promptfoo passes to an afterAll extension hook; only `results` is read. */
export interface PromptfooAfterAllContext {
  results: ReadonlyArray<Record<string, unknown>>;
  [key: string]: unknown;
}

/** The paired verdict of one eval against its baseline. */
export interface BaselineEvaluation {
  /** The readable report. */
  text: string;
  /** The Markdown summary. */
  markdown: string;
  /** Whether the gate passed; null without a margin (no gate). */
  passed: boolean | null;
  /** The gate's verdict (pass, fail or inconclusive); absent without a margin. */
  verdict?: 'pass' | 'fail' | 'inconclusive';
}

/** Pairs this eval's results with the baseline file test by test and reads the difference (never throws for bad data: returns or reports). */
export function evaluateAgainstBaseline(context: PromptfooAfterAllContext, settings: Record<string, unknown>): BaselineEvaluation;

/** Makes an afterAll hook with fixed settings, each falling back to its BENCHPLAN_* variable. */
export function benchplanHook(options?: BenchplanHookOptions, io?: BenchplanHookIo): (context: PromptfooAfterAllContext) => Promise<void>;

/** The hook with every setting from the BENCHPLAN_* variables: `file://node_modules/benchplan/promptfoo.js:afterAll`. */
export const afterAll: (context: PromptfooAfterAllContext) => Promise<void>;

declare const _default: { afterAll: typeof afterAll; benchplanHook: typeof benchplanHook };
export default _default;
