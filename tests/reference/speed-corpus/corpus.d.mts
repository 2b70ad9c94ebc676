// Types of corpus.mjs (plain JS, shared by make.mjs and tests/bootstrap/speed-identical.test.ts).
export interface CorpusCase {
  id: string;
  kind: 'auto' | 'compare' | 'gate';
  a: unknown[] | null;
  b: unknown[];
  c?: unknown[];
  options: Record<string, unknown>;
  float: boolean;
  stratum?: number[];
  stratified?: boolean;
}
export function corpus(): CorpusCase[];
export function outcome(run: () => unknown): string;
export function runCase(c: CorpusCase, lib: Record<string, (...args: never[]) => unknown>): string;
