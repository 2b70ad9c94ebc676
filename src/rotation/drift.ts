import { bootstrapMeanDifference, bootstrapStatistic, type BootstrapResult, type IntervalMethod } from '../bootstrap/index.js';
import { InputError } from '../data/errors.js';
import { itemMeans } from '../data/pairing.js';
import { listIds, type ScoresTable } from '../data/scores.js';
import type { Seed } from '../random/seed.js';
import { compareIds } from './hash.js';

/** One system's per-item scores on one benchmark version (repeats already averaged). */
export interface DriftScores {
  /** Where they came from, for messages. */
  source: string;
  /** The model (system) named in the scores. */
  model: string;
  items: readonly string[];
  scores: ArrayLike<number>;
  /** Per item: its stratum, or null when the scores have none. */
  strata: readonly string[] | null;
  /** Per item: its cluster (document), or null. */
  clusters: readonly string[] | null;
}

/**
 * One model's scores from a scores table, repeats averaged, for `attributeDrift`.
 * @param model the model to take; may be omitted when the table holds exactly one.
 * @throws {InputError} when the model is not there, or is omitted and the table has several.
 */
export function driftScoresFromTable(table: ScoresTable, model?: string): DriftScores {
  const name = model ?? (table.models.length === 1 ? table.models[0] : undefined);
  if (name === undefined) throw new InputError(`holds ${table.models.length} models (${table.models.join(', ')}); name the system with --model`, { file: table.source });
  const m = table.models.indexOf(name);
  if (m < 0) throw new InputError(`model "${name}" is not in the scores (models: ${table.models.join(', ')})`, { file: table.source });
  const means = itemMeans(table);
  const n = table.items.length;
  const items: string[] = [];
  const scores: number[] = [];
  const strata: string[] = [];
  const clusters: string[] = [];
  for (let i = 0; i < n; i++) {
    if (means.count[m * n + i] === 0) continue;
    items.push(table.items[i]);
    scores.push(means.mean[m * n + i]);
    if (table.hasStratum) strata.push(table.strata[table.itemStratum[i]]);
    if (table.hasCluster) clusters.push(table.clusters[table.itemCluster[i]]);
  }
  return { source: table.source, model: name, items, scores, strata: table.hasStratum ? strata : null, clusters: table.hasCluster ? clusters : null };
}

export interface DriftOptions {
  /** Interval method for both drifts; default `'bca'`. */
  method?: IntervalMethod;
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default 9999. */
  nResamples?: number;
  /** Default 0. */
  seed?: Seed;
  /** Leave out items scored in only one of `before` / `rerun` instead of throwing. */
  dropUnpaired?: boolean;
  /** The previous version's eval items with their strata (from the archive): restricts `before` and `rerun` to them and supplies strata. */
  previousItems?: ReadonlyArray<{ item: string; stratum: string }> | null;
  /** The current version's eval items with their strata: restricts `after` to them. */
  currentItems?: ReadonlyArray<{ item: string; stratum: string }> | null;
  /** Names for the two versions in the verdict (default "the previous version" / "the current version"). */
  previousVersion?: string | null;
  currentVersion?: string | null;
}

/** A drift estimate with its interval and which way it points. */
export interface DriftEstimate {
  /** The mean change (score units): positive means higher scores. */
  estimate: number;
  confidenceInterval: [number, number];
  standardError: number;
  /** `down` / `up` when the interval excludes 0 (or every change is the same non-zero value); else `none`. */
  direction: 'down' | 'up' | 'none';
  n: number;
  warnings: string[];
}

export interface StratumDrift {
  stratum: string;
  /** Model drift: rerun − before on this stratum's paired items. */
  model: { n: number; before: number; rerun: number; estimate: number };
  /** Instrument drift: after (current version) − rerun (previous version), same system. */
  instrument: DriftEstimate & { previous: number; current: number; nPrevious: number; nCurrent: number; shared: number; retired: number; added: number };
}

export interface DriftResult {
  models: { before: string; rerun: string; after: string };
  previousVersion: string | null;
  currentVersion: string | null;
  /** Mean scores: last quarter's system on the previous version; this quarter's on the previous version and on the current one. */
  means: { before: number; rerun: number; after: number };
  /** Items each run scored (after restricting to the versions' eval items). */
  items: { before: number; rerun: number; after: number };
  /** after − before: the change a dashboard would show, = model + instrument when the items line up. */
  total: number;
  /**
   * "Did the system get worse?": this quarter's system minus last quarter's, paired on the
   * previous version's items (a frozen instrument), stratified by stratum.
   */
  model: DriftEstimate & { bootstrap: BootstrapResult };
  /**
   * "Did the test get harder?": this quarter's system on the current version minus on the
   * previous version; items in both are resampled as pairs, retired and added items on their own.
   */
  instrument: DriftEstimate & { bootstrap: BootstrapResult; shared: number; retired: number; added: number };
  strata: StratumDrift[];
  verdict: { system: 'worse' | 'steady' | 'better'; test: 'harder' | 'unchanged' | 'easier'; text: string };
  method: IntervalMethod;
  confidenceLevel: number;
  nResamples: number;
  seed: string;
  dropped: { unpaired: number; notInPrevious: number; notInCurrent: number };
  warnings: string[];
}

/**
 * Separates "the system got worse" from "the test got harder" (the seed chapter's last defence:
 * "re-running last quarter's frozen version answers whether the system got worse or the test
 * got harder"). A quarterly score is produced by a system and a test together; re-running the
 * frozen previous version holds the test still.
 *
 * Inputs, one system each: `before` = last quarter's system on the previous version, `rerun` =
 * this quarter's system on the previous version, `after` = this quarter's system on the current
 * version.
 *
 *   model drift       Δ_M = mean_i (rerun_i − before_i)        over the previous version's items
 *   instrument drift  Δ_I = mean(after over current) − mean(rerun over previous)
 *   total             after − before = Δ_M + Δ_I (when before and rerun cover the same items)
 *
 * Δ_M's interval is the paired bootstrap (`bootstrapMeanDifference`), resampling within strata
 * and, when both files name clusters, whole clusters. Δ_I's is `bootstrapStatistic` with every
 * item of either version resampled within its group (stratum × kept / retired / added), so a
 * kept item's two scores move together and the difference reflects the replaced items.
 * A drift "points" down or up when its interval excludes 0; the verdict reads the two together.
 * @throws {InputError} for unpaired items (unless dropUnpaired), a system with no items left,
 *   or strata that disagree between files.
 * @example attributeDrift({ before, rerun, after }, { previousVersion: '2026Q3', … }).verdict.text // on examples/rotation/drift-*.csv
 * // => "the test got harder: −0.0625 [−0.1, −0.025] on the rotated version; the system held steady (−0.0125 [−0.0625, 0] on 2026Q3's 80 items)"
 */
export function attributeDrift(input: { before: DriftScores; rerun: DriftScores; after: DriftScores }, options: DriftOptions = {}): DriftResult {
  const method = options.method ?? 'bca';
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  const nResamples = options.nResamples ?? 9999;
  const seed = String(options.seed ?? 0);
  const warnings: string[] = [];
  const previous = options.previousItems ? new Map(options.previousItems.map((x) => [x.item, x.stratum])) : null;
  const current = options.currentItems ? new Map(options.currentItems.map((x) => [x.item, x.stratum])) : null;

  // Strata: the archive's when given, else the scores files' (which must agree).
  const stratumOf = new Map<string, string>();
  if (previous) for (const [k, v] of previous) stratumOf.set(k, v);
  if (current) for (const [k, v] of current) stratumOf.set(k, v);
  for (const s of [input.before, input.rerun, input.after]) {
    if (!s.strata) continue;
    s.items.forEach((item, k) => {
      const mine = (s.strata as readonly string[])[k];
      const known = stratumOf.get(item);
      if (known === undefined) stratumOf.set(item, mine);
      else if (known !== mine && !(previous?.has(item) || current?.has(item))) {
        throw new InputError(`item "${item}" is in stratum "${mine}" here but "${known}" elsewhere`, { file: s.source, value: mine });
      }
    });
  }
  const stratum = (item: string) => stratumOf.get(item) ?? '(all)';

  const restrict = (s: DriftScores, keep: Map<string, string> | null, label: string): Map<string, number> => {
    const out = new Map<string, number>();
    let outside = 0;
    s.items.forEach((item, k) => {
      if (keep && !keep.has(item)) outside += 1;
      else out.set(item, s.scores[k]);
    });
    if (outside > 0) warnings.push(`${s.source}: ${outside} item${outside === 1 ? '' : 's'} not among ${label}'s eval items ignored`);
    if (out.size === 0) throw new InputError(`no item left to compare (none is among ${label}'s eval items)`, { file: s.source });
    return out;
  };
  const prevLabel = options.previousVersion ?? 'the previous version';
  const curLabel = options.currentVersion ?? 'the current version';
  const before = restrict(input.before, previous, prevLabel);
  const rerun = restrict(input.rerun, previous, prevLabel);
  const after = restrict(input.after, current, curLabel);
  const notInPrevious = input.before.items.length - before.size + (input.rerun.items.length - rerun.size);
  const notInCurrent = input.after.items.length - after.size;

  // ---- model drift: paired on the previous version's items
  const paired = [...before.keys()].filter((item) => rerun.has(item)).sort(compareIds);
  const unpaired = [...new Set([...before.keys(), ...rerun.keys()])].filter((item) => !(before.has(item) && rerun.has(item))).sort(compareIds);
  if (unpaired.length > 0 && !options.dropUnpaired) {
    throw new InputError(`${unpaired.length} item${unpaired.length === 1 ? ' is' : 's are'} not scored in both the before and the re-run scores: ${listIds(unpaired)}; pass --drop-unpaired to leave them out`, { file: input.rerun.source });
  }
  if (unpaired.length > 0) warnings.push(`${unpaired.length} item${unpaired.length === 1 ? '' : 's'} scored in only one of before / re-run left out`);
  if (paired.length === 0) throw new InputError('no item is scored in both the before and the re-run scores', { file: input.rerun.source });
  const strataNames = [...new Set([...paired, ...after.keys(), ...rerun.keys()].map(stratum))];
  const strataIndex = new Map(strataNames.map((s, k) => [s, k]));
  const a = Float64Array.from(paired, (item) => rerun.get(item) as number);
  const b = Float64Array.from(paired, (item) => before.get(item) as number);
  const pairedStrata = remapIndex(paired.map(stratum));
  const clusterOf = clusterMap(input.before, input.rerun);
  const bootOptions = { method, confidenceLevel, nResamples, seed };
  const modelBoot = bootstrapMeanDifference(a, b, {
    ...bootOptions,
    strata: strataNames.length > 1 ? pairedStrata : null,
    cluster: clusterOf ? remapIndex(paired.map((item) => clusterOf.get(item) as string)) : null,
  });
  const model = { ...estimateOf(modelBoot), bootstrap: modelBoot };

  // ---- instrument drift: the same system on the current vs the previous version
  const union = [...new Set([...rerun.keys(), ...after.keys()])].sort(compareIds);
  const instrument = instrumentDrift(union, rerun, after, stratum, { ...bootOptions, seed: `${seed}:instrument` }, null);

  const strata: StratumDrift[] = strataNames.map((name) => {
    const items = paired.filter((item) => stratum(item) === name);
    const bMean = meanOf(items.map((item) => before.get(item) as number));
    const rMean = meanOf(items.map((item) => rerun.get(item) as number));
    const own = union.filter((item) => stratum(item) === name);
    const inst = instrumentDrift(own, rerun, after, stratum, { ...bootOptions, seed: `${seed}:instrument:${name}` }, name);
    return {
      stratum: name,
      model: { n: items.length, before: bMean, rerun: rMean, estimate: rMean - bMean },
      instrument: { ...withoutBoot(inst), previous: inst.previous, current: inst.current, nPrevious: inst.nPrevious, nCurrent: inst.nCurrent, shared: inst.shared, retired: inst.retired, added: inst.added },
    };
  });

  const means = { before: meanOf([...before.values()]), rerun: meanOf([...rerun.values()]), after: meanOf([...after.values()]) };
  const verdict = verdictOf(model, instrument, prevLabel, paired.length);
  for (const w of modelBoot.warnings) warnings.push(`model drift: ${w}`);
  for (const w of instrument.bootstrap.warnings) warnings.push(`instrument drift: ${w}`);
  return {
    models: { before: input.before.model, rerun: input.rerun.model, after: input.after.model },
    previousVersion: options.previousVersion ?? null,
    currentVersion: options.currentVersion ?? null,
    means,
    items: { before: before.size, rerun: rerun.size, after: after.size },
    total: means.after - means.before,
    model,
    instrument: { ...withoutBoot(instrument), bootstrap: instrument.bootstrap, shared: instrument.shared, retired: instrument.retired, added: instrument.added },
    strata,
    verdict,
    method,
    confidenceLevel,
    nResamples: modelBoot.nResamples,
    seed,
    dropped: { unpaired: unpaired.length, notInPrevious, notInCurrent },
    warnings,
  };
}

interface InstrumentDetail extends DriftEstimate {
  bootstrap: BootstrapResult;
  previous: number;
  current: number;
  nPrevious: number;
  nCurrent: number;
  shared: number;
  retired: number;
  added: number;
}

/**
 * Δ_I over the given items (the union of both versions' items): mean over the current version
 * minus mean over the previous, bootstrapped within groups (stratum × shared / retired / added).
 */
function instrumentDrift(
  items: readonly string[],
  rerun: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  stratum: (item: string) => string,
  options: { method: IntervalMethod; confidenceLevel: number; nResamples: number; seed: string },
  only: string | null,
): InstrumentDetail {
  const n = items.length;
  const prev = new Float64Array(n);
  const cur = new Float64Array(n);
  const hasPrev = new Uint8Array(n);
  const hasCur = new Uint8Array(n);
  const groupNames: string[] = [];
  let shared = 0;
  let retired = 0;
  let added = 0;
  items.forEach((item, k) => {
    const p = rerun.get(item);
    const c = after.get(item);
    if (p !== undefined) {
      prev[k] = p;
      hasPrev[k] = 1;
    }
    if (c !== undefined) {
      cur[k] = c;
      hasCur[k] = 1;
    }
    const kind = p !== undefined && c !== undefined ? 'shared' : p !== undefined ? 'retired' : 'added';
    if (kind === 'shared') shared += 1;
    else if (kind === 'retired') retired += 1;
    else added += 1;
    groupNames.push(`${stratum(item)}\u0000${kind}`);
  });
  const nPrevious = shared + retired;
  const nCurrent = shared + added;
  // Whole-number scores (0/1 and points): every sum is exact in any order, so a resample is tallied
  // per item and summed in item order, one sequential pass instead of random reads, with the same bits.
  let whole = true;
  for (let k = 0; k < n && whole; k++) whole = Number.isInteger(prev[k]) && Number.isInteger(cur[k]) && Math.abs(prev[k]) + Math.abs(cur[k]) < 2 ** 53 / (n + 1);
  const groups = remapIndex(groupNames);
  // Kept small so that a resample's random tally and its pass stay in the cache at 10^5 items (the same
  // bits: every product and sum is of whole numbers): an item is drawn only within its group, so at most
  // as often as the group has items, and whole scores within ±2^31 are the same numbers as 32-bit integers.
  let largest = 0;
  const sizes = new Int32Array(n);
  for (let k = 0; k < n; k++) largest = Math.max(largest, ++sizes[groups[k]]);
  const tally = whole ? (largest < 2 ** 16 ? new Uint16Array(n) : new Int32Array(n)) : null;
  let int32 = whole;
  for (let k = 0; k < n && int32; k++) int32 = Math.abs(prev[k]) < 2 ** 31 && Math.abs(cur[k]) < 2 ** 31;
  const prevWhole = int32 ? Int32Array.from(prev) : prev;
  const curWhole = int32 ? Int32Array.from(cur) : cur;
  const statistic = (idx: Int32Array): number => {
    if (tally !== null) {
      for (let j = 0; j < idx.length; j++) tally[idx[j]] += 1;
      let sp = 0;
      let np = 0;
      let sc = 0;
      let nc = 0;
      for (let k = 0; k < n; k++) {
        const c = tally[k];
        tally[k] = 0;
        sp += c * prevWhole[k];
        np += c * hasPrev[k];
        sc += c * curWhole[k];
        nc += c * hasCur[k];
      }
      return sc / nc - sp / np;
    }
    let sp = 0;
    let np = 0;
    let sc = 0;
    let nc = 0;
    for (let j = 0; j < idx.length; j++) {
      const k = idx[j];
      if (hasPrev[k]) {
        sp += prev[k];
        np += 1;
      }
      if (hasCur[k]) {
        sc += cur[k];
        nc += 1;
      }
    }
    return sc / nc - sp / np;
  };
  const label = only === null ? '' : ` in stratum "${only}"`;
  if (nPrevious === 0 || nCurrent === 0) {
    const empty: BootstrapResult = emptyBootstrap(options, n, nPrevious === 0 ? `no item of the previous version${label}` : `no item of the current version${label}`);
    return { ...estimateOf(empty), bootstrap: empty, previous: nPrevious ? meanWhere(prev, hasPrev) : NaN, current: nCurrent ? meanWhere(cur, hasCur) : NaN, nPrevious, nCurrent, shared, retired, added };
  }
  // The BCa jackknife leaves one item out: the totals less its part, in O(1) (was a full pass per
  // item, O(n²)). Equal to the statistic on the rest bit for bit when the sums are exact (whole-number
  // scores such as 0/1); else up to the last bit of rounding.
  let SP = 0;
  let NP = 0;
  let SC = 0;
  let NC = 0;
  for (let k = 0; k < n; k++) {
    if (hasPrev[k]) {
      SP += prev[k];
      NP += 1;
    }
    if (hasCur[k]) {
      SC += cur[k];
      NC += 1;
    }
  }
  const leaveOneOut = (out: Int32Array): number => {
    let sp = SP;
    let np = NP;
    let sc = SC;
    let nc = NC;
    for (let j = 0; j < out.length; j++) {
      const k = out[j];
      if (hasPrev[k]) {
        sp -= prev[k];
        np -= 1;
      }
      if (hasCur[k]) {
        sc -= cur[k];
        nc -= 1;
      }
    }
    return sc / nc - sp / np;
  };
  const boot = bootstrapStatistic(n, statistic, { ...options, strata: groups }, leaveOneOut);
  return {
    ...estimateOf(boot),
    bootstrap: boot,
    previous: meanWhere(prev, hasPrev),
    current: meanWhere(cur, hasCur),
    nPrevious,
    nCurrent,
    shared,
    retired,
    added,
  };
}

function emptyBootstrap(options: { method: IntervalMethod; confidenceLevel: number; nResamples: number; seed: string }, n: number, why: string): BootstrapResult {
  return {
    estimate: NaN,
    confidenceInterval: [NaN, NaN],
    standardError: NaN,
    method: options.method,
    confidenceLevel: options.confidenceLevel,
    nResamples: 0,
    seed: options.seed,
    alternative: 'two-sided',
    n,
    bias: NaN,
    biasCorrection: NaN,
    acceleration: NaN,
    naiveStandardError: NaN,
    warnings: [`${why}: no instrument drift to estimate`],
  };
}

/**
 * The estimate and its direction: down / up when the interval lies below / above 0. When every
 * resample gave the same value (standard error 0 up to rounding, so BCa is NaN), the direction is the sign of
 * the estimate: nothing in the data could have moved it.
 */
function estimateOf(boot: BootstrapResult): DriftEstimate {
  const [low, high] = boot.confidenceInterval;
  let direction: DriftEstimate['direction'] = 'none';
  if (Number.isFinite(low) && low > 0) direction = 'up';
  else if (Number.isFinite(high) && high < 0) direction = 'down';
  else if (!(Number.isFinite(low) && Number.isFinite(high)) && boot.standardError <= 1e-12 * Math.max(1, Math.abs(boot.estimate))) {
    direction = boot.estimate > 0 ? 'up' : boot.estimate < 0 ? 'down' : 'none';
  }
  return { estimate: boot.estimate, confidenceInterval: boot.confidenceInterval, standardError: boot.standardError, direction, n: boot.n, warnings: boot.warnings };
}

function withoutBoot(x: InstrumentDetail): DriftEstimate {
  return { estimate: x.estimate, confidenceInterval: x.confidenceInterval, standardError: x.standardError, direction: x.direction, n: x.n, warnings: x.warnings };
}

function verdictOf(model: DriftEstimate, instrument: DriftEstimate, previousLabel: string, n: number): DriftResult['verdict'] {
  const system = model.direction === 'down' ? 'worse' : model.direction === 'up' ? 'better' : 'steady';
  const test = instrument.direction === 'down' ? 'harder' : instrument.direction === 'up' ? 'easier' : 'unchanged';
  // An interval the bootstrap could not form because every resample gave the estimate is said in words.
  const spread = (x: DriftEstimate) => x.confidenceInterval.every(Number.isFinite) || !Number.isFinite(x.estimate);
  const m = spread(model) ? `${signed(model.estimate)} ${interval(model.confidenceInterval)} on ${previousLabel}'s ${n} items` : `${signed(model.estimate)} on ${previousLabel}'s ${n} items, the same on every resample`;
  const i = spread(instrument) ? `${signed(instrument.estimate)} ${interval(instrument.confidenceInterval)}` : `${signed(instrument.estimate)}, the same on every resample`;
  const sysText = system === 'steady' ? `the system held steady (${m})` : `the system got ${system}: ${m}`;
  const testText = test === 'unchanged' ? `the test did not change measurably (${i})` : `the test got ${test}: ${i} on the rotated version`;
  let text: string;
  if (system === 'steady' && test === 'unchanged') text = `no measurable drift: ${sysText}; ${testText}`;
  else if (system !== 'steady' && test !== 'unchanged') text = `both: ${sysText}; and ${testText}`;
  else if (system === 'steady') text = `${testText}; ${sysText}`;
  else text = `${sysText}; ${testText}`;
  return { system, test, text };
}

function signed(x: number): string {
  if (!Number.isFinite(x)) return 'NaN';
  const r = Number(x.toPrecision(3));
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${Math.abs(r)}`;
}

function interval([low, high]: [number, number]): string {
  const f = (x: number) => (Number.isFinite(x) ? (Number(x.toPrecision(3)) < 0 ? `−${Math.abs(Number(x.toPrecision(3)))}` : String(Number(x.toPrecision(3)))) : 'NaN');
  return `[${f(low)}, ${f(high)}]`;
}

function meanOf(values: readonly number[]): number {
  let t = 0;
  for (const v of values) t += v;
  return values.length ? t / values.length : NaN;
}

function meanWhere(values: Float64Array, mask: Uint8Array): number {
  let t = 0;
  let n = 0;
  for (let k = 0; k < values.length; k++) if (mask[k]) {
    t += values[k];
    n += 1;
  }
  return n ? t / n : NaN;
}

/** Names to indices 0 … G − 1 in order of first appearance. */
function remapIndex(names: readonly string[]): Int32Array {
  const index = new Map<string, number>();
  return Int32Array.from(names, (name) => {
    let k = index.get(name);
    if (k === undefined) index.set(name, (k = index.size));
    return k;
  });
}

/** item → cluster when both files name clusters (and agree), else null. */
function clusterMap(x: DriftScores, y: DriftScores): Map<string, string> | null {
  if (!x.clusters || !y.clusters) return null;
  const out = new Map<string, string>();
  x.items.forEach((item, k) => out.set(item, (x.clusters as readonly string[])[k]));
  y.items.forEach((item, k) => {
    const c = (y.clusters as readonly string[])[k];
    const known = out.get(item);
    if (known !== undefined && known !== c) throw new InputError(`item "${item}" is in cluster "${c}" here but "${known}" in ${x.source}`, { file: y.source, value: c });
    out.set(item, c);
  });
  return out;
}
