import { buildDesign } from '../bootstrap/design.js';
import { bootstrapMeanDifference, bootstrapStatistic, type BootstrapOptions, type BootstrapResult, type IntervalMethod } from '../bootstrap/index.js';
import { chooseIntervalMethod, type AutoMethodUsed } from '../paired/index.js';
import { meanResult } from '../bootstrap/mean.js';
import { pairedDifferences, resolveSettings } from '../bootstrap/settings.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../data/outcomes.js';
import type { Seed } from '../random/seed.js';
import type { CostSweepResult } from './sweep.js';
import type { OutcomeTally } from './tally.js';

export interface SweepUncertaintyOptions {
  /** Resamples of documents; default 9999 (the bootstrap module's default). */
  nResamples?: number;
  /** Seed of the resampling; default 0. Every number below uses the same resamples. */
  seed?: Seed;
  /** Coverage of the intervals; default the sweep's confidenceLevel. */
  confidenceLevel?: number;
  /**
   * Interval method for the cost gaps (src/bootstrap's); default 'bca'. `auto`: chooseIntervalMethod
   * on the per-document gaps (continuous: t below 100 documents, BCa from 100). Crossings use percentiles.
   */
  method?: IntervalMethod | 'auto';
}

/** How much one model's cost per document exceeds the leader's, with an interval. */
export interface CostGap {
  model: string;
  /** costPerDocument(model) − costPerDocument(leader) at the policy's costs. */
  difference: number;
  /** From `bootstrapMeanDifference` over documents, with `method`. */
  confidenceInterval: [number, number];
  standardError: number;
  /** Share of resamples in which this model is strictly cheaper than the leader. */
  aheadOfLeaderProbability: number;
  /** With method `auto`: the interval used and why. */
  methodUsed?: AutoMethodUsed;
  methodReason?: string;
}

/** An in-band crossing with a bootstrap interval for where it lies. */
export interface CrossingInterval {
  models: [string, string];
  /** The crossing on the data as given. */
  value: number;
  /**
   * Percentile interval of the resampled crossings x* (type 7, as numpy / scipy). A resample in
   * which the two lines are parallel has x* = ±∞, so an end can be unbounded (JSON null).
   */
  confidenceInterval: [number, number];
  /** Share of resamples whose crossing lies inside the band (ends included). */
  inBandProbability: number;
  /**
   * Share of resamples in which the two lines' slopes tie or swap order, so the pair crosses the
   * other way round or not at all; when it is large the crossing is barely identified.
   */
  orientationFlips: number;
}

/** The paired bootstrap over documents of a cost sweep. */
export interface SweepUncertainty {
  /** Resampled unit: whole documents, every model's outcomes in a document kept together. */
  unit: 'document';
  documents: number;
  /** The leader (lowest cost) at the policy's costs. */
  leader: string;
  /** Share of resamples in which the leader is strictly the cheapest at the policy's costs (ties count as not ahead). */
  leaderAheadProbability: number;
  /** Every other model against the leader, in ranking order. */
  gaps: CostGap[];
  /** One per in-band crossing. */
  crossings: CrossingInterval[];
  method: IntervalMethod | 'auto';
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  warnings: string[];
}

/** Per model and document: the fixed part of the cost and the count of the swept kind. */
function documentParts(tally: OutcomeTally, costs: Partial<Record<OutcomeKind, number>>, vary: OutcomeKind): { fixed: Float64Array[]; swept: Float64Array[] } {
  const K = OUTCOME_KINDS.length;
  const D = tally.documents.length;
  const fixed: Float64Array[] = [];
  const swept: Float64Array[] = [];
  for (const cells of tally.perDocument) {
    const f = new Float64Array(D);
    const s = new Float64Array(D);
    for (let d = 0; d < D; d++) {
      for (let k = 0; k < K; k++) {
        const count = cells[d * K + k];
        if (count === 0) continue;
        const kind = OUTCOME_KINDS[k];
        if (kind === vary) s[d] += count;
        else f[d] += (costs[kind] as number) * count;
      }
    }
    fixed.push(f);
    swept.push(s);
  }
  return { fixed, swept };
}

/**
 * Every resample's totals per model, drawn by src/bootstrap: `bootstrapStatistic` calls the
 * statistic once on the data as given and then once per resample (its documented contract), and
 * the statistic here records the resampled documents' fixed-cost and swept-count totals of every
 * model. Row r (0 … B − 1), model m: entry r · M + m.
 */
function resampledTotals(
  fixed: Float64Array[],
  swept: Float64Array[],
  settings: { nResamples: number; seed: Seed; confidenceLevel: number },
  gapValues: Float64Array[],
  gapModels: ReadonlyArray<readonly [number, number]> = [],
  x0 = NaN,
): { fixedTotal: Float64Array; sweptTotal: Float64Array; gapSums: Float64Array | null } {
  const packed = packedTotals(fixed, swept, settings, gapValues, gapModels, x0);
  if (packed !== null) return packed;
  const M = fixed.length;
  const D = fixed[0].length;
  const B = settings.nResamples;
  const fixedTotal = new Float64Array((B + 1) * M);
  const sweptTotal = new Float64Array((B + 1) * M);
  // Each document's 2M numbers side by side (fixed, swept per model), so a drawn document is one
  // cache line or two, not 2M scattered reads. Each model's totals still add up in draw order, as
  // summing the per-model arrays did: the same bits.
  // Up to 4 models: rows padded to 8 numbers and added into locals (V8 keeps them in registers).
  const W = M <= 4 ? 8 : 2 * M;
  const rows = new Float64Array(D * W);
  for (let m = 0; m < M; m++) {
    for (let d = 0; d < D; d++) {
      rows[d * W + 2 * m] = fixed[m][d];
      rows[d * W + 2 * m + 1] = swept[m][d];
    }
  }
  const acc = new Float64Array(W);
  // Whole-number costs and counts (the usual policy): every total is exact in any order, so a
  // resample can be tallied per document and summed in document order (a sequential pass instead of
  // D random reads of a row, which miss the cache at D = 10^5) with the same bits as in draw order.
  let largest = 0;
  let whole = true;
  for (let i = 0; i < rows.length && whole; i++) {
    whole = Number.isInteger(rows[i]);
    largest = Math.max(largest, Math.abs(rows[i]));
  }
  const tally = whole && largest * D < 2 ** 53 && W === 8 ? new Int32Array(D) : null;
  // The gaps' per-document differences ride in the row's spare columns (up to 3 models: 2M + M − 1
  // ≤ 8) and are summed from the same tallies when they are whole numbers too: bootstrapMeanDifference
  // (index path, same seed) draws the same resamples and sums them exactly, so its distribution is
  // these sums / D, bit for bit.
  const G = gapValues.length;
  let gapWhole = tally !== null && G > 0 && 2 * M + G <= W;
  for (const v of gapValues) for (let d = 0; d < D && gapWhole; d++) gapWhole = Number.isInteger(v[d]) && Math.abs(v[d]) * D < 2 ** 53;
  if (gapWhole) gapValues.forEach((v, g) => v.forEach((x, d) => (rows[d * W + 2 * M + g] = x)));
  const gapSums = gapWhole ? new Float64Array((B + 1) * G) : null;
  let call = 0;
  bootstrapStatistic(
    D,
    (indices) => {
      if (call > B) throw new Error(`bootstrapStatistic called the statistic more than 1 + ${B} times`);
      const row = call * M;
      if (tally !== null) {
        for (let k = 0; k < indices.length; k++) tally[indices[k]] += 1;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0; // prettier-ignore
        for (let d = 0; d < D; d++) {
          const c = tally[d];
          // No branch on c = 0 (a third of the documents, unpredictably): 0 · x adds nothing.
          tally[d] = 0;
          const base = d * 8;
          a0 += c * rows[base];
          a1 += c * rows[base + 1];
          a2 += c * rows[base + 2];
          a3 += c * rows[base + 3];
          a4 += c * rows[base + 4];
          a5 += c * rows[base + 5];
          a6 += c * rows[base + 6];
          a7 += c * rows[base + 7];
        }
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
        acc[4] = a4;
        acc[5] = a5;
        acc[6] = a6;
        acc[7] = a7;
        if (gapSums !== null) for (let g = 0; g < G; g++) gapSums[call * G + g] = acc[2 * M + g];
      } else if (W === 8) {
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0; // prettier-ignore
        for (let k = 0; k < indices.length; k++) {
          const base = indices[k] * 8;
          a0 += rows[base];
          a1 += rows[base + 1];
          a2 += rows[base + 2];
          a3 += rows[base + 3];
          a4 += rows[base + 4];
          a5 += rows[base + 5];
          a6 += rows[base + 6];
          a7 += rows[base + 7];
        }
        acc[0] = a0;
        acc[1] = a1;
        acc[2] = a2;
        acc[3] = a3;
        acc[4] = a4;
        acc[5] = a5;
        acc[6] = a6;
        acc[7] = a7;
      } else {
        acc.fill(0);
        for (let k = 0; k < indices.length; k++) {
          const base = indices[k] * W;
          for (let j = 0; j < W; j++) acc[j] += rows[base + j];
        }
      }
      for (let m = 0; m < M; m++) {
        fixedTotal[row + m] = acc[2 * m];
        sweptTotal[row + m] = acc[2 * m + 1];
      }
      call += 1;
      return fixedTotal[row];
    },
    { ...settings, method: 'percentile' },
  );
  if (call !== B + 1) throw new Error(`bootstrapStatistic called the statistic ${call} times, expected 1 + ${B}`);
  return { fixedTotal: fixedTotal.subarray(M), sweptTotal: sweptTotal.subarray(M), gapSums: gapSums && gapSums.subarray(G) };
}

/**
 * resampledTotals for the usual policy (whole, non-negative costs and counts): the same totals, bit
 * for bit, with one addition a drawn document instead of 2M (issue #19: sweep of 10⁵ documents).
 * Every column's numbers for a document are laid side by side in one double, x_d = Σ_j c_jd · 2^o_j,
 * each column j given w_j = bits(n · max_d c_jd) bits so that the sum of any n documents' x still
 * holds each column's sum in its own bits (Σ w_j ≤ 52: every partial sum is a whole number below
 * 2⁵², so exact). A resample adds the drawn documents' x in blocks of n and reads each column's block
 * sum back from its bits, x / 2^o_j rounded down, modulo 2^w_j; column totals are whole numbers below
 * 2⁵³, exact in any order, so the bits are those of summing each column in draw order. Three models
 * with costs up to 8 on documents of two slots: 7 bits a model and n = 32, one double (8 bytes) a
 * document, which stays in cache at 10⁵ documents. Up to four doubles a document when the columns
 * need more bits. The gaps to the leader are not summed at all: each document's gap is
 * (F_m + x₀ S_m) − (F_l + x₀ S_l), checked document by document, so its resampled sum is that of
 * the totals, exactly.
 * @returns the totals, or null when the numbers do not allow it (then the general loop runs).
 */
function packedTotals(
  fixed: Float64Array[],
  swept: Float64Array[],
  settings: { nResamples: number; seed: Seed; confidenceLevel: number },
  gapValues: Float64Array[],
  gapModels: ReadonlyArray<readonly [number, number]>,
  x0: number,
): { fixedTotal: Float64Array; sweptTotal: Float64Array; gapSums: Float64Array | null } | null {
  const M = fixed.length;
  const D = fixed[0].length;
  const B = settings.nResamples;
  const columns: Float64Array[] = [];
  for (let m = 0; m < M; m++) columns.push(fixed[m], swept[m]);
  const largest: number[] = [];
  for (const column of columns) {
    let top = 0;
    for (let d = 0; d < D; d++) {
      const x = column[d];
      if (!(Number.isInteger(x) && x >= 0)) return null;
      if (x > top) top = x;
    }
    // A column's totals (at most top · D) must be exact doubles.
    if (top * D >= 2 ** 53) return null;
    largest.push(top);
  }
  const bitsOf = (x: number) => (x === 0 ? 0 : Math.floor(Math.log2(x)) + 1);
  // The longest block, a power of two, whose sums fit in the fewest doubles (at most 4).
  const layout = (n: number) => {
    const group: number[] = [];
    const offset: number[] = [];
    const width: number[] = [];
    let groups = 1;
    let used = 0;
    for (const top of largest) {
      const w = bitsOf(top * n);
      if (w > 52) return null;
      if (used + w > 52) {
        groups += 1;
        used = 0;
      }
      group.push(groups - 1);
      offset.push(used);
      width.push(w);
      used += w;
    }
    return { n, groups, group, offset, width };
  };
  let best: NonNullable<ReturnType<typeof layout>> | null = null;
  for (let n = 1; n <= Math.max(1, D); n *= 2) {
    const candidate = layout(n);
    if (candidate === null || candidate.groups > 4) break;
    if (best === null || candidate.groups <= best.groups) best = candidate;
    else break;
  }
  if (best === null) return null;
  const { n: block, groups: P, group, offset, width } = best;
  // Whole-number gaps that are the totals' differences, document by document (as sweepUncertainty makes them).
  const G = gapValues.length;
  let gapsFromTotals = G > 0 && gapModels.length === G && Number.isInteger(x0);
  for (let g = 0; g < G && gapsFromTotals; g++) {
    const [m, l] = gapModels[g];
    const v = gapValues[g];
    for (let d = 0; d < D && gapsFromTotals; d++) gapsFromTotals = v[d] === fixed[m][d] + x0 * swept[m][d] - (fixed[l][d] + x0 * swept[l][d]);
  }
  // Every total times x₀, and the sums and differences made of them, stay whole numbers below 2⁵³.
  if (gapsFromTotals) gapsFromTotals = (Math.abs(x0) + 1) * Math.max(...largest) * D * 4 < 2 ** 53;
  const rows = new Float64Array(D * P);
  columns.forEach((column, j) => {
    const scale = 2 ** offset[j];
    for (let d = 0; d < D; d++) rows[d * P + group[j]] += column[d] * scale;
  });
  // Columns from the highest bits down, per double: take ⌊x / 2^o⌋, then x − that · 2^o leaves the
  // lower columns (multiplications by powers of two and floors: exact on whole numbers below 2⁵³).
  // A column of zeros has no bits (and shares its offset with the next): its totals stay 0.
  const order = Int32Array.from([...columns.keys()].filter((j) => width[j] > 0)).sort((i, j) => group[i] - group[j] || offset[j] - offset[i]);
  const down = Float64Array.from(order, (j) => 2 ** -offset[j]);
  const up = Float64Array.from(order, (j) => 2 ** offset[j]);
  const from = Int32Array.from(order, (j) => group[j]);
  const J = columns.length;
  const fixedTotal = new Float64Array((B + 1) * M);
  const sweptTotal = new Float64Array((B + 1) * M);
  const gapSums = gapsFromTotals ? new Float64Array((B + 1) * G) : null;
  const totals = new Float64Array(J);
  const sums = new Float64Array(4);
  // One block's packed sums into the column totals.
  const unpack = () => {
    for (let q = 0; q < order.length; q++) {
      const g = from[q];
      const high = Math.floor(sums[g] * down[q]);
      totals[order[q]] += high;
      sums[g] -= high * up[q];
    }
  };
  let call = 0;
  bootstrapStatistic(
    D,
    (indices) => {
      if (call > B) throw new Error(`bootstrapStatistic called the statistic more than 1 + ${B} times`);
      totals.fill(0);
      const count = indices.length;
      for (let start = 0; start < count; start += block) {
        const end = Math.min(count, start + block);
        if (P === 1) {
          // Four running sums, so the additions do not wait on each other (each is exact: whole numbers).
          let a = 0, b = 0, c = 0, e = 0; // prettier-ignore
          let k = start;
          for (; k + 3 < end; k += 4) {
            a += rows[indices[k]];
            b += rows[indices[k + 1]];
            c += rows[indices[k + 2]];
            e += rows[indices[k + 3]];
          }
          for (; k < end; k++) a += rows[indices[k]];
          sums[0] = a + b + c + e;
        } else {
          let a0 = 0, a1 = 0, a2 = 0, a3 = 0; // prettier-ignore
          for (let k = start; k < end; k++) {
            const base = indices[k] * P;
            a0 += rows[base];
            if (P > 1) a1 += rows[base + 1];
            if (P > 2) a2 += rows[base + 2];
            if (P > 3) a3 += rows[base + 3];
          }
          sums[0] = a0;
          sums[1] = a1;
          sums[2] = a2;
          sums[3] = a3;
        }
        unpack();
      }
      const row = call * M;
      for (let m = 0; m < M; m++) {
        fixedTotal[row + m] = totals[2 * m];
        sweptTotal[row + m] = totals[2 * m + 1];
      }
      if (gapSums !== null) {
        for (let g = 0; g < G; g++) {
          const [m, l] = gapModels[g];
          gapSums[call * G + g] = fixedTotal[row + m] + x0 * sweptTotal[row + m] - (fixedTotal[row + l] + x0 * sweptTotal[row + l]);
        }
      }
      call += 1;
      return fixedTotal[row];
    },
    { ...settings, method: 'percentile' },
  );
  if (call !== B + 1) throw new Error(`bootstrapStatistic called the statistic ${call} times, expected 1 + ${B}`);
  return { fixedTotal: fixedTotal.subarray(M), sweptTotal: sweptTotal.subarray(M), gapSums: gapSums && gapSums.subarray(G) };
}

/**
 * bootstrapMeanDifference's result from its resampled sums (row r, gap g at r · G + g), already
 * drawn: meanResult on the same design, with the distribution sums / D that its mean path computes.
 */
function gapFromSums(values: Float64Array, sums: Float64Array, g: number, G: number, options: BootstrapOptions): BootstrapResult {
  const settings = resolveSettings(options);
  const design = buildDesign(values.length, options, values);
  const distribution = new Float64Array(settings.nResamples);
  for (let r = 0; r < settings.nResamples; r++) distribution[r] = sums[r * G + g] / values.length;
  return meanResult(design, values, settings, distribution);
}

/**
 * The p-quantile of an ascending sample by linear interpolation (Hyndman–Fan type 7, numpy's
 * default and src/bootstrap's), extended to infinite entries: between −∞ and a finite value the
 * quantile is −∞, between a finite value and +∞ it is +∞ (the limits of the interpolation).
 */
function quantileWithInfinities(sorted: Float64Array, p: number): number {
  const count = sorted.length;
  if (count === 0) return NaN;
  const h = (count - 1) * p;
  const lo = Math.min(Math.max(Math.floor(h), 0), count - 1);
  const hi = Math.min(lo + 1, count - 1);
  const t = h - lo;
  const a = sorted[lo];
  const b = sorted[hi];
  if (t === 0 || a === b) return a;
  if (a === -Infinity) return -Infinity;
  if (b === Infinity) return Infinity;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/**
 * The uncertainty of a cost sweep, from a paired bootstrap over documents (src/bootstrap):
 * documents are drawn with replacement, each carrying every model's outcomes, so the models stay
 * paired and the slots of one document stay together. All numbers come from the same resamples
 * (one seed): `bootstrapStatistic` draws them, and `bootstrapMeanDifference` with the same seed
 * draws the very same ones.
 *
 * - leaderAheadProbability = #{r : cost*_leader(x₀) < cost*_m(x₀) for every other m} / B, x₀ the
 *   policy's value of the swept cost.
 * - gaps: `bootstrapMeanDifference` of per-document costs (model − leader), `method` intervals.
 * - crossing of a and b: in resample r, x*_r = −ΔA*_r / ΔB*_r with ΔA* = A*_a − A*_b the difference
 *   in fixed cost and ΔB* = B*_a − B*_b in the count of the swept kind, summed over the resampled
 *   documents; x* = ±∞ when ΔB* = 0 (parallel: they never tie), and resamples with ΔA* = ΔB* = 0
 *   (identical lines) are left out of the interval. The interval is the percentile interval of x*.
 *
 * Reference: Efron & Tibshirani (1993), ch. 13 (percentile interval) and §6.9 (a ratio of means);
 * Davison & Hinkley (1997) §3.8 (resampling whole clusters).
 * O(B × D × m) for B resamples, D documents, m models; memory O(B × m).
 * @param tally the outcomes per model and document.
 * @param sweep the sweep of the same tally (`costSweep`).
 * @param options nResamples, seed, confidenceLevel, method.
 * @returns the leader's probability of being ahead, gaps and crossing intervals, with the settings.
 * @throws {RangeError} for a bad resample count or level (as src/bootstrap).
 * @example sweepUncertainty(tally, sweep, { seed: 0 }).leader // => 'alpha' on the bundled examples
 */
export function sweepUncertainty(tally: OutcomeTally, sweep: CostSweepResult, options: SweepUncertaintyOptions = {}): SweepUncertainty {
  const nResamples = options.nResamples ?? 9999;
  const seed = options.seed ?? 0;
  const confidenceLevel = options.confidenceLevel ?? sweep.confidenceLevel;
  const method = options.method ?? 'bca';
  if (!Number.isInteger(nResamples) || nResamples < 1) throw new RangeError(`nResamples must be a whole number ≥ 1 (got ${nResamples})`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const D = tally.documents.length;
  const M = tally.models.length;
  const B = nResamples;
  const x0 = sweep.policyValue;
  const { fixed, swept } = documentParts(tally, sweep.policyCosts, sweep.vary);
  const index = new Map(tally.models.map((model, m) => [model, m]));
  const settings = { nResamples, seed, confidenceLevel };
  const warnings: string[] = [];
  if (D < 20) warnings.push(`only ${D} documents: bootstrap intervals over so few units are rough`);
  const leader = sweep.ranking[0];
  const l = index.get(leader) as number;
  const atPolicy = fixed.map((f, m) => Float64Array.from(f, (value, d) => value + x0 * swept[m][d]));
  const gapValues = D >= 2 ? sweep.ranking.slice(1).map((model) => pairedDifferences(atPolicy[index.get(model) as number], atPolicy[l])) : [];
  const gapModels = D >= 2 ? sweep.ranking.slice(1).map((model) => [index.get(model) as number, l] as const) : [];
  const { fixedTotal, sweptTotal, gapSums } = resampledTotals(fixed, swept, settings, gapValues, gapModels, x0);
  const costAt = (r: number, m: number) => fixedTotal[r * M + m] + x0 * sweptTotal[r * M + m];

  let ahead = 0;
  for (let r = 0; r < B; r++) {
    const own = costAt(r, l);
    let strictly = true;
    for (let m = 0; m < M && strictly; m++) if (m !== l && !(own < costAt(r, m))) strictly = false;
    if (strictly) ahead += 1;
  }

  const gaps: CostGap[] = [];
  for (const [g, model] of sweep.ranking.slice(1).entries()) {
    const m = index.get(model) as number;
    // The index path, so the gap intervals come from the very resamples the probabilities above
    // were counted on (the counts path would draw other, equally valid ones).
    const choice = method === 'auto' ? chooseIntervalMethod({ differences: Float64Array.from(atPolicy[m], (v, d) => v - atPolicy[l][d]) }) : null;
    const used: IntervalMethod = choice === null ? (method as IntervalMethod) : choice.methodUsed === 'bca' ? 'bca' : 't';
    const gapOptions = { ...settings, method: used, resamplePath: 'indices' as const };
    const result = gapSums === null || used === 't' ? bootstrapMeanDifference(atPolicy[m], atPolicy[l], gapOptions) : gapFromSums(gapValues[g], gapSums, g, gapValues.length, gapOptions);
    let cheaper = 0;
    for (let r = 0; r < B; r++) if (costAt(r, m) < costAt(r, l)) cheaper += 1;
    gaps.push({ model, difference: result.estimate, confidenceInterval: result.confidenceInterval, standardError: result.standardError, aheadOfLeaderProbability: cheaper / B, ...(choice === null ? {} : { methodUsed: choice.methodUsed, methodReason: choice.methodReason }) });
    for (const w of result.warnings) warnings.push(`${model} − ${leader}: ${w}`);
  }

  const alpha = (1 - confidenceLevel) / 2;
  const crossings: CrossingInterval[] = [];
  for (const crossing of sweep.crossingsInBand) {
    const a = index.get(crossing.models[0]) as number;
    const b = index.get(crossing.models[1]) as number;
    let slope = 0;
    for (let d = 0; d < D; d++) slope += swept[a][d] - swept[b][d];
    const values: number[] = [];
    let inBand = 0;
    let flips = 0;
    for (let r = 0; r < B; r++) {
      const level = fixedTotal[r * M + a] - fixedTotal[r * M + b];
      const rise = sweptTotal[r * M + a] - sweptTotal[r * M + b];
      if (Math.sign(rise) !== Math.sign(slope)) flips += 1;
      if (rise === 0 && level === 0) continue;
      // Parallel in this resample: the crossing has gone to the infinity that −level / rise tends to
      // as rise → 0 from the observed slope's side, so the result does not depend on which model
      // the file lists first.
      const value = rise === 0 ? ((level > 0) === (slope > 0) ? -Infinity : Infinity) : -level / rise;
      values.push(value);
      if (value >= sweep.band[0] && value <= sweep.band[1]) inBand += 1;
    }
    const sorted = Float64Array.from(values).sort();
    const orientationFlips = flips / B;
    if (orientationFlips > alpha) {
      warnings.push(`${crossing.models[0]}/${crossing.models[1]}: in ${(orientationFlips * 100).toFixed(1)}% of resamples the lines tie in slope or cross the other way round: the crossing is barely identified`);
    }
    if (values.length < B) warnings.push(`${crossing.models[0]}/${crossing.models[1]}: ${B - values.length} resamples with identical lines left out of the crossing interval`);
    crossings.push({
      models: crossing.models,
      value: crossing.value,
      confidenceInterval: [quantileWithInfinities(sorted, alpha), quantileWithInfinities(sorted, 1 - alpha)],
      inBandProbability: inBand / B,
      orientationFlips,
    });
  }
  return { unit: 'document', documents: D, leader, leaderAheadProbability: ahead / B, gaps, crossings, method, confidenceLevel, nResamples, seed: String(seed), warnings };
}
