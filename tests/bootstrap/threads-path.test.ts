import { beforeEach, describe, expect, it, vi } from 'vitest';

// Issue 33 item 2: where threadsThatPay keeps a job on one thread, `--threads 2` must run literally the
// code `--threads 1` runs. Every library function the comparison calls across modules (designs, auto's
// choice and interval, bootstraps, sign-flip tests) is wrapped to record its name and arguments, and the
// thread machinery (runParallel, the pool) to record that it was entered; compareModels' record and
// compareModelsParallel's at 2 threads must then be the same list, with no thread machinery in it.
const log = vi.hoisted(() => ({ calls: [] as Array<[string, unknown[]]> }));

function recorded<M extends Record<string, unknown>>(actual: M, names: string[]): M {
  const out: Record<string, unknown> = { ...actual };
  for (const name of names) {
    const f = actual[name] as (...args: unknown[]) => unknown;
    out[name] = (...args: unknown[]) => {
      log.calls.push([name, args]);
      return f(...args);
    };
  }
  return out as M;
}

vi.mock('../../src/bootstrap/design.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['buildDesign']));
vi.mock('../../src/paired/auto-interval.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['autoIntervalChoice', 'autoIntervalFromChoice', 'autoResultFromBootstrap']));
vi.mock('../../src/paired/choose-method.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['chooseIntervalMethod']));
vi.mock('../../src/bootstrap/mean.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['meanBootstrapOnDesign', 'meanResult', 'designTInterval']));
vi.mock('../../src/bootstrap/sign-flip.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['signFlipTest']));
vi.mock('../../src/bootstrap/parallel.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['runParallel', 'threadsThatPay']));
vi.mock('../../src/bootstrap/pool.js', async (importOriginal) => recorded(await importOriginal<Record<string, unknown>>(), ['runQueueOnPool']));

const { compareModels, compareModelsParallel } = await import('../../src/paired/compare-models.js');
const { alignModels, loadScores } = await import('../../src/data/index.js');
const { toJsonText } = await import('../../src/cli/io.js');
type AlignedScores = import('../../src/data/pairing.js').AlignedScores;

const THREAD_MACHINERY = ['runParallel', 'runQueueOnPool'];
const names = () => log.calls.map(([name]) => name);
/** The calls a run made, without threadsThatPay (the one call only the threaded entry makes: the decision itself). */
const library = () => log.calls.filter(([name]) => name !== 'threadsThatPay');

/** The bench's 0/1 case (bench/threads-crossover.mjs): k models × n items, item difficulty shared. */
function benchCase(k: number, n: number, binary: boolean): AlignedScores {
  let s = 12345;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const scores = Array.from({ length: k }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const difficulty = rnd();
    for (let m = 0; m < k; m++) scores[m][i] = binary ? (rnd() < 0.3 + 0.4 * difficulty ? 1 : 0) : 0.5 * difficulty + 0.5 * rnd();
  }
  return { source: 'bench', models: scores.map((_, m) => `m${m}`), items: Array.from({ length: n }, (_, i) => `i${i}`), scores, repeats: scores.map(() => new Int32Array(n).fill(1)), repeatVariance: scores.map(() => new Float64Array(n).fill(Number.NaN)), stratum: null, strata: [], cluster: null, clusters: [], dropped: 0, droppedItems: [] };
}

describe('where the rule picks one thread, --threads 2 runs exactly --threads 1\'s calls', () => {
  beforeEach(() => {
    log.calls = [];
  });

  const examples = () => alignModels(loadScores('examples/scores.csv'), ['alpha', 'beta', 'gamma']);
  const cases: Array<{ name: string; data: () => AlignedScores; options: { method?: 'auto' | 'bca' | 't'; nResamples?: number; seed?: string } }> = [
    { name: 'examples 0/1, auto (Tango: no resampling work)', data: examples, options: { method: 'auto' as const, nResamples: 999, seed: 'few' } },
    { name: 'examples 0/1, bca (the counts path: 3.3e5 draws in all)', data: examples, options: { method: 'bca' as const, nResamples: 999, seed: 'few' } },
    { name: 'examples 0/1, t', data: examples, options: { method: 't' as const } },
    { name: 'the bench\'s 10 models of 0/1 items (200 here), auto', data: () => benchCase(10, 200, true), options: { method: 'auto' as const } },
    { name: '2 models × 200 continuous items, bca (2.25e6 draws)', data: () => benchCase(2, 200, false), options: { nResamples: 9999 } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const data = c.data();
      const one = compareModels(data, c.options);
      const oneCalls = library();
      log.calls = [];
      const two = await compareModelsParallel(data, { ...c.options, threads: 2 });
      expect(names()).toContain('threadsThatPay');
      expect(names().filter((n) => THREAD_MACHINERY.includes(n))).toEqual([]);
      // the same functions, in the same order, on deep-equal arguments (options objects included: no
      // `threads` key reaches the one-thread code)
      expect(library()).toEqual(oneCalls);
      expect(toJsonText(two)).toBe(toJsonText(one));
      // auto chooses each pair's interval once (before: once to weigh the work, again inside each interval)
      if (c.options.method === 'auto') expect(names().filter((n) => n === 'chooseIntervalMethod')).toHaveLength(one.pairs.length);
    });
  }

  it('the record sees the thread machinery when the pool is used (so the checks above can fail)', async () => {
    const data = benchCase(2, 200, false);
    const options = { nResamples: 999, nPermutations: 999, seed: 'pool' };
    const one = compareModels(data, options);
    const oneCalls = library();
    log.calls = [];
    const two = await compareModelsParallel(data, { ...options, threads: 2, minParallelWork: 0 });
    expect(names().filter((n) => THREAD_MACHINERY.includes(n))).toEqual(THREAD_MACHINERY);
    expect(library()).not.toEqual(oneCalls);
    expect(toJsonText(two)).toBe(toJsonText(one));
  });
});
