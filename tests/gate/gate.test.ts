import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nonInferiorityFromScores, nonInferiorityGate } from '../../src/gate/gate.js';
import { expectNoRegression, RegressionError } from '../../src/testing/index.js';
import { bootstrapMeanDifference } from '../../src/bootstrap/mean.js';
import { tInterval } from '../../src/paired/t-interval.js';
import { pairScores } from '../../src/data/pairing.js';
import { loadScores } from '../../src/data/scores.js';
import { createRng } from '../../src/random/index.js';
import { normalQuantile } from '../../src/distributions/index.js';

interface Bound {
  n: number;
  estimate: number;
  lowerBound: number;
}
interface RefCase {
  candidate: string;
  baseline: string;
  confidenceLevel: number;
  overall: Bound;
  strata: Record<string, Bound>;
}
const reference = JSON.parse(readFileSync('tests/reference/gate/t_bounds.json', 'utf8')) as { cases: RefCase[] };
const table = loadScores('examples/scores.csv');
const dir = mkdtempSync(join(tmpdir(), 'benchplan-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('nonInferiorityGate: the one-sided lower bound', () => {
  it('matches scipy ttest_rel(alternative="greater").confidence_interval().low with method t, overall and per stratum', () => {
    // Reference: tests/reference/gate/t_bounds.py (scipy 1.10.1) on examples/scores.csv.
    let worst = 0;
    for (const ref of reference.cases) {
      const result = nonInferiorityGate(table, { baseline: ref.baseline, candidate: ref.candidate, margin: 0.02, method: 't', confidenceLevel: ref.confidenceLevel, perStratum: true });
      expect(result.overall.n).toBe(ref.overall.n);
      expect(result.overall.estimate).toBeCloseTo(ref.overall.estimate, 14);
      worst = Math.max(worst, Math.abs(result.overall.lowerBound - ref.overall.lowerBound));
      for (const check of result.strata) {
        const want = ref.strata[check.stratum as string];
        expect(check.n).toBe(want.n);
        worst = Math.max(worst, Math.abs(check.lowerBound - want.lowerBound));
      }
    }
    // Observed max abs error 4.3e-12 (the engine's t quantile); the bootstrap module checks its t interval to 1e-10.
    expect(worst).toBeLessThan(1e-10);
  });

  it('is the lower end of the two-sided interval at level 2·c − 1', () => {
    const paired = pairScores(table, 'alpha', 'beta');
    const gate = nonInferiorityFromScores({ candidate: paired.scoreA, baseline: paired.scoreB }, { margin: 0, method: 't', confidenceLevel: 0.95 });
    expect(gate.overall.lowerBound).toBeCloseTo(tInterval(paired.differences, { confidenceLevel: 0.9 }).confidenceInterval[0], 14);
  });

  it('uses the paired bootstrap with alternative "greater"; stratum h draws from the stream seed:stratum:h', () => {
    const paired = pairScores(table, 'alpha', 'beta');
    const result = nonInferiorityGate(table, { baseline: 'beta', candidate: 'alpha', margin: 0.02, method: 'bca', seed: 7, nResamples: 1999, cluster: true, perStratum: true });
    const direct = bootstrapMeanDifference(paired.scoreA, paired.scoreB, { alternative: 'greater', seed: 7, nResamples: 1999, cluster: paired.cluster });
    expect(result.overall.lowerBound).toBe(direct.confidenceInterval[0]);
    expect(result.overall.nClusters).toBe(direct.nClusters);
    const h = paired.strata.indexOf('rare_clause');
    const idx = [...paired.stratum!.keys()].filter((i) => paired.stratum![i] === h);
    const clusterIds = new Map<number, number>();
    const cluster = Int32Array.from(idx, (i) => {
      const c = paired.cluster![i];
      if (!clusterIds.has(c)) clusterIds.set(c, clusterIds.size);
      return clusterIds.get(c)!;
    });
    const stratum = bootstrapMeanDifference(
      idx.map((i) => paired.scoreA[i]),
      idx.map((i) => paired.scoreB[i]),
      { alternative: 'greater', seed: '7:stratum:rare_clause', nResamples: 1999, cluster },
    );
    expect(result.strata.find((c) => c.stratum === 'rare_clause')!.lowerBound).toBe(stratum.confidenceInterval[0]);
  });

  it('passes exactly when the bound is above −margin', () => {
    const paired = pairScores(table, 'alpha', 'beta');
    const data = { candidate: paired.scoreB, baseline: paired.scoreA }; // beta − alpha: estimate −0.1525
    const L = nonInferiorityFromScores(data, { margin: 0, method: 't' }).overall.lowerBound;
    expect(nonInferiorityFromScores(data, { margin: -L + 1e-9, method: 't' }).passed).toBe(true);
    expect(nonInferiorityFromScores(data, { margin: -L, method: 't' }).passed).toBe(false);
    const far = nonInferiorityFromScores(data, { margin: 0.05, method: 't' });
    expect(far.verdict).toBe('fail');
    expect(far.overall.reason).toMatch(/^regression: the upper bound -0\.116 is below -0\.05: a drop larger than the margin is shown/);
  });

  it('fails exactly when the upper bound is below −margin, and is inconclusive between the two bounds', () => {
    const paired = pairScores(table, 'alpha', 'beta');
    const data = { candidate: paired.scoreB, baseline: paired.scoreA }; // beta − alpha: estimate −0.1525
    const at = nonInferiorityFromScores(data, { margin: 0, method: 't' }).overall;
    // The t interval is symmetric: the upper bound is as far above the estimate as the lower is below.
    expect(at.upperBound - at.estimate).toBeCloseTo(at.estimate - at.lowerBound, 12);
    const U = at.upperBound;
    expect(nonInferiorityFromScores(data, { margin: -U - 1e-9, method: 't' }).verdict).toBe('fail');
    expect(nonInferiorityFromScores(data, { margin: -U, method: 't' }).verdict).toBe('inconclusive');
    expect(nonInferiorityFromScores(data, { margin: -at.lowerBound, method: 't' }).verdict).toBe('inconclusive');
  });

  it('holds the false-fail rate at α: normal differences with mean exactly −margin fail about 5% of the time', () => {
    // The mirror of the false-pass check below: at δ = −margin the t upper bound lies below −margin with
    // probability exactly α = 0.05. 4000 runs: Monte Carlo SE √(0.05·0.95/4000) = 0.0034; tolerance 4 SE.
    const rng = createRng('gate-type-one-fail');
    const margin = 0.1;
    const n = 30;
    const runs = 4000;
    let fails = 0;
    let passes = 0;
    const zero = new Float64Array(n);
    for (let r = 0; r < runs; r++) {
      const d = Float64Array.from({ length: n }, () => -margin + 0.3 * rng.nextNormal());
      const v = nonInferiorityFromScores({ candidate: d, baseline: zero }, { margin, method: 't' }).verdict;
      if (v === 'fail') fails += 1;
      if (v === 'pass') passes += 1;
    }
    expect(Math.abs(fails / runs - 0.05)).toBeLessThan(4 * Math.sqrt((0.05 * 0.95) / runs));
    expect(Math.abs(passes / runs - 0.05)).toBeLessThan(4 * Math.sqrt((0.05 * 0.95) / runs));
  });

  it('holds the false-pass rate at α: normal differences with mean exactly −margin pass about 5% of the time', () => {
    // At δ = −margin the t bound passes with probability exactly α = 0.05 (normal data). 4000 runs:
    // Monte Carlo SE √(0.05·0.95/4000) = 0.0034; the tolerance is 4 SE.
    const rng = createRng('gate-type-one');
    const margin = 0.1;
    const n = 30;
    const runs = 4000;
    let passes = 0;
    const zero = new Float64Array(n);
    for (let r = 0; r < runs; r++) {
      const d = Float64Array.from({ length: n }, () => -margin + 0.3 * rng.nextNormal());
      if (nonInferiorityFromScores({ candidate: d, baseline: zero }, { margin, method: 't' }).passed) passes += 1;
    }
    expect(Math.abs(passes / runs - 0.05)).toBeLessThan(4 * Math.sqrt((0.05 * 0.95) / runs));
  });

  it('a stratum with one item is inconclusive, and identical models are bounded by their constant difference but not passed', () => {
    const one = nonInferiorityFromScores(
      { candidate: [1, 1, 0, 1], baseline: [1, 1, 0, 0], stratum: Int32Array.from([0, 0, 0, 1]), strataNames: ['big', 'tiny'] },
      { margin: 0.5, method: 'percentile', perStratum: true, nResamples: 999 },
    );
    const tiny = one.strata.find((c) => c.stratum === 'tiny')!;
    expect([tiny.verdict, tiny.reason]).toEqual(['inconclusive', 'inconclusive: too few items (1) to bound the difference']);
    expect(one.failed).toContain('tiny');
    expect(one.inconclusive).toContain('tiny');
    // A constant difference is a degenerate interval (a point mass): the bound is that value, but it
    // vouches for nothing beyond these items, so the verdict is inconclusive, not pass.
    const same = nonInferiorityFromScores({ candidate: [1, 0, 1], baseline: [1, 0, 1] }, { margin: 0 + 0.01, method: 'bca' });
    expect([same.verdict, same.passed, same.overall.lowerBound]).toEqual(['inconclusive', false, 0]);
    expect(same.warnings[0]).toMatch(/same difference \(0\)/);
  });

  it('echoes its settings and is the same for the same seed', () => {
    const a = nonInferiorityGate(table, { baseline: 'beta', candidate: 'alpha', margin: 0.02, method: 'bca', nResamples: 999, seed: 'pr-42', perStratum: true });
    const b = nonInferiorityGate(table, { baseline: 'beta', candidate: 'alpha', margin: 0.02, method: 'bca', nResamples: 999, seed: 'pr-42', perStratum: true });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a).toMatchObject({ margin: 0.02, threshold: -0.02, method: 'bca', confidenceLevel: 0.95, alternative: 'greater', nResamples: 999, seed: 'pr-42', perStratum: true, n: 400 });
  });

  it('rejects bad settings', () => {
    const data = { candidate: [1, 0], baseline: [0, 1] };
    expect(() => nonInferiorityFromScores(data, { margin: -0.1 })).toThrow(RangeError);
    expect(() => nonInferiorityFromScores(data, { margin: 0.1, confidenceLevel: 1 })).toThrow(/confidenceLevel must be a number in \(0, 1\)/);
    expect(() => nonInferiorityFromScores({ candidate: [1], baseline: [1, 2] }, { margin: 0.1 })).toThrow(/same length/);
    expect(() => nonInferiorityFromScores(data, { margin: 0.1, perStratum: true })).toThrow(/perStratum needs a stratum per item/);
  });
});

describe('expectNoRegression', () => {
  it('returns the result when the candidate is non-inferior', () => {
    const result = expectNoRegression(table, { baseline: 'beta', candidate: 'alpha', margin: 0.02, nResamples: 999 });
    expect(result.passed).toBe(true);
  });

  it('throws a RegressionError whose message is the verdict then the report, with the result attached', () => {
    let error: unknown;
    try {
      expectNoRegression('examples/scores.csv', { baseline: 'beta', candidate: 'alpha', margin: 0.02, perStratum: true, cluster: true, nResamples: 999 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RegressionError);
    const e = error as RegressionError;
    expect(e.message.split('\n')[0]).toBe('neither a regression nor its absence is shown: alpha − beta: 2 of 4 strata inconclusive (routine, negative_control)');
    expect(e.message).toMatch(/negative_control: inconclusive: the estimate -0\.05 is below -0\.02, but the cr2 upper bound -0\.0143 is not: a drop larger than the margin is not yet shown; about 53 clusters \(≈ 136 items at 2\.56 per cluster\) at this spread \(SE 0\.0212 on 39 clusters\) would show the drop/);
    expect(e.report.failed).toEqual(['routine', 'negative_control']);
    expect(e.report.inconclusive).toEqual(['routine', 'negative_control']);
    expect(e.report.verdict).toBe('inconclusive');
    expect(e.report.overall.passed).toBe(true);
  });

  it('takes per-item arrays', () => {
    expect(() => expectNoRegression({ candidate: [0, 0, 0, 1, 0, 0], baseline: [1, 1, 1, 1, 0, 1] }, { margin: 0.05, method: 't' })).toThrow(/^regression shown: candidate − baseline: 95% upper bound -0\.242 < -0\.05/);
    const scoresPath = join(dir, 'tiny.csv');
    writeFileSync(scoresPath, 'item,model,score\na,main,1\na,pr,1\nb,main,0\nb,pr,1\nc,main,1\nc,pr,1\n');
    expect(() => expectNoRegression(scoresPath, { baseline: 'main', candidate: 'nope', margin: 0.1 })).toThrow(/model "nope" is not in the scores/);
  });
});

describe('JSDoc example', () => {
  it('nonInferiorityFromScores', () => {
    // d = [0, 1, 0, 0]: mean 0.25, SE 0.25; scipy stats.t.ppf(0.95, 3) → 2.3533634348018264, so L = −0.338 ≤ −0.1.
    const result = nonInferiorityFromScores({ candidate: [1, 1, 0, 1], baseline: [1, 0, 0, 1] }, { margin: 0.1, method: 't' });
    expect(result.passed).toBe(false);
    expect(result.overall.lowerBound).toBeCloseTo(0.25 - 2.3533634348018264 * 0.25, 12);
  });
});

describe('layering (issue #13 item 5)', () => {
  it('src/gate/gate.ts neither imports the report layer nor loads files', () => {
    const source = readFileSync('src/gate/gate.ts', 'utf8');
    expect(source).not.toMatch(/from '\.\.\/report\//);
    expect(source).not.toMatch(/loadScores|node:fs/);
  });

  it('reasonNumber writes numbers as report formatNumber(x, 3) does', async () => {
    const { reasonNumber } = await import('../../src/gate/gate.js');
    const { formatNumber } = await import('../../src/report/table.js');
    const values = [0, -0.05, 0.0412345, -0.15250000001, 1.23456, 12.3456, 123.456, 2500.4, NaN, Infinity, -Infinity, 7, -0.000123456, 0.99999];
    for (const x of values) expect(reasonNumber(x)).toBe(formatNumber(x, 3));
  });
});

describe('method auto', () => {
  it('picks tango for 0/1 scores and bounds all-agreeing items at −z²/(n − 1 + z²) (n/(n − 1) correction), never [0, 0]', () => {
    const ones = new Float64Array(39).fill(1);
    const r = nonInferiorityFromScores({ candidate: ones, baseline: ones }, { margin: 0.05 });
    const z = 1.6448536269514722; // scipy norm.ppf(0.95)
    expect(r).toMatchObject({ method: 'auto', methodUsed: 'tango', passed: false });
    expect(r.overall.lowerBound).toBeCloseTo(-(z * z) / (38 + z * z), 12);
    // Tango's bound alone clears −0.05 from 53 agreeing items (1 + z²(1 − m)/m = 52.4); the exact score
    // test at the margin needs 0.95^N ≤ 0.05 (its p for an all-agreeing table is the probability of
    // no discordant item when only losses occur at rate m): N ≥ log 0.05 / log 0.95 = 58.4 → 59.
    expect(r.overall.itemsNeeded).toBe(59);
  });

  it('issue 25: 39 agreeing items, 20 both right and 19 both wrong, do not pass margin 0.05 (Newcombe passed them, bound −0.041)', () => {
    const scores = [...Array(20).fill(1), ...Array(19).fill(0)];
    const r = nonInferiorityFromScores({ candidate: scores, baseline: scores }, { margin: 0.05 });
    const z = 1.6448536269514722;
    expect(r.passed).toBe(false);
    expect(r.overall.lowerBound).toBeCloseTo(-(z * z) / (38 + z * z), 12); // Tango: the split does not matter
  });

  it('0/1: passes only when the exact score test at the margin agrees with Tango’s bound (53 agreeing items fail, 59 pass)', () => {
    // 53 agreeing items: Tango's bound −z²/(52 + z²) = −0.0495 clears −0.05, but under a true drop of
    // 0.05 made only of losses, P(no discordant item) = 0.95^53 = 0.0662 > 0.05: the exact test's p.
    const r52 = nonInferiorityFromScores({ candidate: new Float64Array(53).fill(1), baseline: new Float64Array(53).fill(1) }, { margin: 0.05 });
    expect(r52.overall.lowerBound).toBeGreaterThan(-0.05);
    expect(r52.passed).toBe(false);
    expect(r52.overall.pValueTest).toBe('exact-score');
    expect(r52.overall.pValue).toBeCloseTo(0.95 ** 53, 10);
    expect(r52.overall.itemsNeeded).toBe(59);
    expect(r52.overall.reason).toMatch(/exact score test at the margin is not significant \(p = 0\.066 > 0\.05\)/);
    const r59 = nonInferiorityFromScores({ candidate: new Float64Array(59).fill(1), baseline: new Float64Array(59).fill(1) }, { margin: 0.05 });
    expect(r59.passed).toBe(true);
    expect(r59.overall.pValue).toBeCloseTo(0.95 ** 59, 10);
  });

  it('0/1: skips the exact test only from 50 discordant items with at most half the items discordant (bench/binary-gate-shortcut-2.txt)', async () => {
    const { exactScoreNonInferiority } = await import('../../src/paired/exact-score.js');
    const make = (both: number, onlyA: number, onlyB: number, neither: number) => ({
      candidate: [...Array(both + onlyA).fill(1), ...Array(onlyB + neither).fill(0)],
      baseline: [...Array(both).fill(1), ...Array(onlyA).fill(0), ...Array(onlyB).fill(1), ...Array(neither).fill(0)],
    });
    // 200 items, 26 + 24 = 50 discordant (≤ 100): Tango's bound clears −0.05, the exact test is skipped.
    const skipped = nonInferiorityFromScores(make(100, 26, 24, 50), { margin: 0.05 });
    expect(skipped.passed).toBe(true);
    expect(skipped.overall.pValue).toBeUndefined(); // absent from the JSON, as on every check without the test
    expect(skipped.overall.pValueTest).toBeUndefined();
    expect(skipped.overall.reason).toMatch(/on 50 discordant and 150 agreeing items/);
    // 49 discordant (margin 0.1, so the bound clears): the exact test runs and decides with the bound.
    const tested = nonInferiorityFromScores(make(101, 25, 24, 50), { margin: 0.1 });
    expect(tested.overall.lowerBound).toBeGreaterThan(-0.1);
    expect(tested.overall.pValueTest).toBe('exact-score');
    const p = exactScoreNonInferiority({ both: 101, onlyA: 25, onlyB: 24, neither: 50 }, -0.1).pValue;
    expect(tested.overall.pValue).toBe(p);
    expect(tested.passed).toBe(p <= 0.05);
    // 100 items all discordant (more than half): the exact test still runs, even with ≥ 50 discordant.
    const allDiscordant = nonInferiorityFromScores(make(0, 60, 40, 0), { margin: 0.1 });
    expect(allDiscordant.overall.lowerBound).toBeGreaterThan(-0.1);
    expect(allDiscordant.overall.pValueTest).toBe('exact-score');
    expect(allDiscordant.passed).toBe(true);
  });

  it('uses CR2 with clusters, and its bound is cr2Interval’s one-sided lower end', async () => {
    const { cr2Interval } = await import('../../src/paired/cr2.js');
    const paired = pairScores(table, 'alpha', 'beta');
    const r = nonInferiorityGate(table, { baseline: 'beta', candidate: 'alpha', margin: 0.02, cluster: true });
    expect(r.methodUsed).toBe('cr2');
    const direct = cr2Interval(paired.differences, Array.from(paired.cluster!, (c) => paired.clusters[c]), { alternative: 'greater' });
    expect(r.overall.lowerBound).toBe(direct.confidenceInterval[0]);
  });
});

describe('method auto: false-pass rate on 0/1 scores (exact, no Monte Carlo)', () => {
  it('passes a candidate worse by exactly the margin at most α = 5% of the time, including where Tango’s bound alone is liberal', () => {
    // Every paired table (b, c, n − b − c) enumerated with its trinomial probability, each run
    // through the gate. Cells: the old study's (n = 10, 30; symmetric extra discordance) and the
    // adversarial cells of bench/binary-exact-study.txt: n = 52 (uncorrected Tango) and 53 (the
    // n/(n − 1)-corrected default), a candidate that only loses (P(only candidate wrong) = 0.05 =
    // margin, never wins), where the bound alone first passes the all-agreeing table and so a true
    // drop 0.95^53 = 6.6% of the time; the exact score test stops it.
    const logFactorial = (k: number) => { let s = 0; for (let i = 2; i <= k; i++) s += Math.log(i); return s; };
    const term = (count: number, p: number) => (count === 0 ? 0 : count * Math.log(p));
    const cells: Array<[number, number, number]> = [];
    for (const n of [10, 30]) for (const extra of [0.02, 0.1, 0.3]) cells.push([n, extra / 2, extra / 2 + 0.05]);
    cells.push([52, 0, 0.05], [53, 0, 0.05]);
    for (const [n, p12, p21] of cells) {
      const margin = 0.05;
      let pass = 0;
      for (let b = 0; b <= n; b++) {
        if (p12 === 0 && b > 0) break;
        for (let c = 0; b + c <= n; c++) {
          const rest = n - b - c;
          const p = Math.exp(logFactorial(n) - logFactorial(b) - logFactorial(c) - logFactorial(rest) + term(b, p12) + term(c, p21) + term(rest, 1 - p12 - p21));
          if (p < 1e-12) continue;
          const candidate = [...Array(rest).fill(1), ...Array(b).fill(1), ...Array(c).fill(0)];
          const baseline = [...Array(rest).fill(1), ...Array(b).fill(0), ...Array(c).fill(1)];
          if (nonInferiorityFromScores({ candidate, baseline }, { margin }).passed) pass += p;
        }
      }
      expect(pass).toBeLessThanOrEqual(0.05);
    }
  });
});

describe('gate on skewed [0, 1] scores (auto → betting)', () => {
  it('uses the betting bound and sizes from its own arm (estimate − bound) scaled by 1/√n', () => {
    // 40 items: the candidate gains full credit on 2, loses a little on 3, ties elsewhere.
    const baseline = Array.from({ length: 40 }, (_, i) => (i >= 2 && i < 5 ? 0.3 : 0));
    const candidate = baseline.map((x, i) => (i < 2 ? 1 : i < 5 ? 0.1 : x));
    const r = nonInferiorityFromScores({ candidate, baseline }, { margin: 0.05 });
    expect(r.methodUsed).toBe('betting');
    expect(r.passed).toBe(false);
    const o = r.overall;
    // Hand: the needed N solves N · ((estimate − bound)/(estimate + margin))² with n = 40.
    expect(o.itemsNeeded).toBe(Math.max(41, Math.ceil(40 * ((o.estimate - o.lowerBound) / (o.estimate + 0.05)) ** 2)));
  });
});

describe('gate on unbounded scores skewed toward the candidate’s losses (bench/gate-skew-rule.txt)', () => {
  // 30 items on a 1–10 scale whose differences are the quantiles (i + ½)/30 of −0.3 × a standardised
  // lognormal(0, 1): rare large losses, mean about 0.008.
  const n = 30;
  const losses = Array.from({ length: n }, (_, i) => (-0.3 * (Math.exp(normalQuantile((i + 0.5) / n)) - Math.exp(0.5))) / 2.16);
  const baseline = Array.from({ length: n }, () => 5);
  const left = baseline.map((x, i) => x + losses[i]);
  // scipy.stats.skew(d, bias=False) of these differences (d from scipy's norm.ppf): −2.466986231291963; ⌈25·G1²⌉ = 153.

  it('does not pass on a bound that clears the margin, and names G1 and the items Cochran’s rule wants', () => {
    const r = nonInferiorityFromScores({ candidate: left, baseline }, { margin: 0.2, nResamples: 1999 });
    expect(r.methodUsed).toBe('studentized');
    expect(r.overall.lowerBound).toBeGreaterThan(-0.2); // the bound alone would pass
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe('inconclusive');
    expect(r.overall.reason).toMatch(/^inconclusive: no valid bound: the scores leave \[0, 1\] and their differences are skewed toward the candidate's losses \(G1 = -2\.47\)/);
    expect(r.overall.reason).toContain('would clear -0.2');
    expect(r.overall.reason).toContain("Cochran's rule (n > 25·G1²) wants 153 items");
    expect(r.overall.itemsNeeded).toBe(153);
  });

  it('keeps the bound of the mirror image (rare large gains: the lower bound is conservative there)', () => {
    const right = baseline.map((x, i) => x - losses[i]);
    const r = nonInferiorityFromScores({ candidate: right, baseline }, { margin: 0.2, nResamples: 1999 });
    expect(r.methodUsed).toBe('studentized');
    expect(r.overall.lowerBound).toBeGreaterThan(-0.2);
    expect(r.passed).toBe(true);
  });

  it('with a declared score range the scores are bounded: the betting bound on differences in [low − high, high − low], no refusal', async () => {
    const { bettingInterval } = await import('../../src/paired/betting-interval.js');
    const r = nonInferiorityFromScores({ candidate: left, baseline }, { margin: 0.2, scoreRange: [1, 10] });
    expect(r.methodUsed).toBe('betting');
    expect(r.overall.methodReason).toMatch(/^scores in \[1, 10\] \(declared\)/);
    expect(r.overall.reason).not.toMatch(/skewed toward the candidate's losses/);
    const direct = bettingInterval(left.map((x, i) => x - baseline[i]), { range: [-9, 9], alternative: 'greater', seed: '0' });
    expect(r.overall.lowerBound).toBe(direct.confidenceInterval[0]);
    expect(r.passed).toBe(r.overall.lowerBound > -0.2);
    expect(() => nonInferiorityFromScores({ candidate: left, baseline }, { margin: 0.2, scoreRange: [4.5, 5] })).toThrow(/a\[0\] = 5\.21\d* lies outside the declared score range \[4\.5, 5\]/);
    expect(() => nonInferiorityFromScores({ candidate: left, baseline }, { margin: 0.2, method: 't', scoreRange: [1, 10] })).toThrow(/scoreRange is used by method auto only/);
    expect(() => nonInferiorityFromScores({ candidate: left, baseline }, { margin: 0.2, scoreRange: [10, 1] })).toThrow(/low < high/);
  });

  it('leaves bounded scores to the betting bound, and gates with enough items by Cochran’s rule as before', () => {
    const scaled = (xs: number[]) => xs.map((x) => x / 10);
    const bounded = nonInferiorityFromScores({ candidate: scaled(left), baseline: scaled(baseline) }, { margin: 0.02 });
    expect(bounded.methodUsed).toBe('betting');
    expect(bounded.overall.reason).not.toMatch(/skewed toward the candidate's losses/);
    // 600 items, 30 of them losses of 3 among gains of 0.3: scipy G1 −4.139840005301937, Cochran wants 429 < 600.
    const many = Array.from({ length: 600 }, (_, i) => 5 + (i % 20 < 19 ? 0.3 : -3));
    const r = nonInferiorityFromScores({ candidate: many, baseline: Array.from({ length: 600 }, () => 5) }, { margin: 1, nResamples: 999 });
    expect(r.overall.reason).not.toMatch(/skewed toward the candidate's losses/);
    expect(r.passed).toBe(true);
  });
});

describe('the headline of a check that fails with a bound above −margin', () => {
  it('says there is no valid bound, never "bound ≤ −margin"', async () => {
    const { nonInferiorityHeadline } = await import('../../src/report/gate.js');
    const { gateVerdictMarkdown } = await import('../../src/report/markdown-gate.js');
    // Three continuous items, every difference 0.1: no spread, so no valid bound, though 0.1 > −0.05.
    const r = nonInferiorityFromScores({ candidate: [1.6, 2.6, 3.1], baseline: [1.5, 2.5, 3] }, { margin: 0.05 });
    expect(r.passed).toBe(false);
    expect(r.verdict).toBe('inconclusive');
    expect(nonInferiorityHeadline(r)).toBe('neither a regression nor its absence is shown: candidate − baseline: no valid 95% lower bound (the computed 0.1 would clear -0.05; see the reason)');
    expect(gateVerdictMarkdown(r)).toContain('no valid 95% lower bound (the computed 0.1 would clear -0.05; see the reason)');
    expect(nonInferiorityHeadline(r)).not.toContain('≤');
  });
});
