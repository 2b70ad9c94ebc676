import type { IntervalMethod } from '../bootstrap/index.js';
import { InputError } from '../data/errors.js';
import type { ScoresTable } from '../data/scores.js';
import type { Seed } from '../random/seed.js';
import { attributeDrift, driftScoresFromTable, type DriftEstimate, type DriftResult, type DriftScores } from '../rotation/drift.js';
import type { StratumWeight } from '../strata/headline.js';

/** Settings of the drift attribution at a version boundary. */
export interface BoundaryDriftOptions {
  /** Bootstrap interval method (attributeDrift's); default 'bca'. */
  method?: IntervalMethod;
  /** Default 0.95. */
  confidenceLevel?: number;
  /** Default 9999. */
  nResamples?: number;
  /** Default 0; each boundary and model draws from `${seed}:${date}:${model}`. */
  seed?: Seed;
  /** Traffic shares: also split the reweighted headline's change (point estimates, from the strata). */
  weights?: readonly StratumWeight[] | null;
  /** Version names for the verdict. */
  previousVersion?: string | null;
  currentVersion?: string | null;
}

/** How much of one model's change at a version boundary is the system and how much the instrument. */
export interface BoundaryAttribution {
  model: string;
  /**
   * `rerun`: a re-run of the previous version by the current system was given, and the split is
   * attributeDrift's exactly (before = the previous run, rerun, after = this run).
   * `shared items`: no re-run; the items both versions share stand in for the frozen instrument
   * (rerun = this run on the shared items), and the retired items' part is left over (`retired`).
   */
  mode: 'rerun' | 'shared items';
  /** Plain means over items (drift's): this run − the previous run. */
  total: number;
  /** The system's part: attributeDrift's model drift (paired on the previous version's items, or the shared ones). */
  system: DriftEstimate;
  /**
   * The instrument's part: attributeDrift's instrument drift, the same system on the current
   * version's items minus on the previous version's (with a re-run), or minus on the shared items
   * (without one: what the added items changed).
   */
  instrument: DriftEstimate;
  /**
   * total − system − instrument. With a re-run, 0 when the re-run covers the previous run's items.
   * Without one, the retired items' part measured on the previous system: the previous run's mean
   * on the shared items minus on all its items (no interval; attributing it to the instrument
   * assumes the system changed on the retired items as on the shared ones).
   */
  retired: number;
  /** Per stratum, point estimates: system (paired), instrument, and the stratum's total. */
  strata: Array<{ stratum: string; total: number; system: number; instrument: number }>;
  /** With weights: the reweighted headline's change split the same way, Σ W_h · (per stratum). */
  reweighted: { total: number; system: number; instrument: number } | null;
  /** attributeDrift's verdict text ("the test got harder: … ; the system held steady (…)"). */
  verdict: DriftResult['verdict'];
  /** Items: shared by both runs, only in the previous run, only in this one. */
  shared: number;
  retiredItems: number;
  addedItems: number;
  method: IntervalMethod;
  nResamples: number;
  seed: string;
  warnings: string[];
}

function restrict(s: DriftScores, keep: ReadonlySet<string>): DriftScores {
  const idx = s.items.map((item, k) => [item, k] as const).filter(([item]) => keep.has(item)).map(([, k]) => k);
  return {
    source: `${s.source} (items shared with the previous version)`,
    model: s.model,
    items: idx.map((k) => s.items[k]),
    scores: idx.map((k) => s.scores[k]),
    strata: s.strata === null ? null : idx.map((k) => (s.strata as readonly string[])[k]),
    clusters: s.clusters === null ? null : idx.map((k) => (s.clusters as readonly string[])[k]),
  };
}

/**
 * Splits one model's change at a version boundary of a history into the system's part and the
 * instrument's, with the drift attribution of `benchplan drift` (attributeDrift): "re-running last
 * quarter's frozen version answers whether the system got worse or the test got harder" (seeds/004).
 *
 * With `rerun` (this run's system on the previous version): before = the previous run, rerun,
 * after = this run, as `benchplan drift --before --rerun --after`; total = system + instrument.
 * Without it, the shared items are the frozen part: rerun = this run restricted to the items the
 * previous run scored, so system = mean over shared items of (now − before), paired, and
 * instrument = mean(this run) − mean(this run on the shared items), what the added items did;
 * the rest, retired = mean(previous run on the shared items) − mean(previous run), is what the
 * retired items did, seen on the previous system. total = system + instrument + retired.
 * Reference: attributeDrift (src/rotation/drift.ts) for the estimators and the bootstrap.
 * @param previous the previous run's scores table; @param current this run's; @param model the model followed.
 * @param rerun optional: this run's system on the previous version.
 * @param options method, confidenceLevel, nResamples, seed, weights, version names.
 * @returns the split with intervals for system and instrument, per stratum, and the verdict.
 * @throws {InputError} when nothing is shared and there is no re-run; as attributeDrift (strata that disagree, a model missing).
 * @example boundaryDrift(w47, w48, 'prod', null, { seed: 0 }).mode // => 'shared items'
 */
export function boundaryDrift(previous: ScoresTable, current: ScoresTable, model: string, rerun: ScoresTable | null, options: BoundaryDriftOptions = {}): BoundaryAttribution {
  const before = driftScoresFromTable(previous, model);
  const after = driftScoresFromTable(current, model);
  const beforeItems = new Set(before.items);
  const afterItems = new Set(after.items);
  const shared = before.items.filter((x) => afterItems.has(x)).length;
  if (rerun === null && shared === 0) throw new InputError('shares no item with the previous run, and no re-run of the previous version was given: nothing holds the instrument still', { file: current.source });
  const mode = rerun === null ? 'shared items' : 'rerun';
  const rerunScores = rerun === null ? restrict(after, beforeItems) : driftScoresFromTable(rerun, model);
  const method = options.method ?? 'bca';
  const seed = String(options.seed ?? 0);
  const drift = attributeDrift(
    { before, rerun: rerunScores, after },
    {
      method,
      confidenceLevel: options.confidenceLevel ?? 0.95,
      nResamples: options.nResamples ?? 9999,
      seed,
      dropUnpaired: rerun === null,
      previousVersion: options.previousVersion ?? null,
      currentVersion: options.currentVersion ?? null,
    },
  );
  const own = (x: DriftEstimate): DriftEstimate => ({ estimate: x.estimate, confidenceInterval: x.confidenceInterval, standardError: x.standardError, direction: x.direction, n: x.n, warnings: x.warnings });
  // Per-stratum totals from the runs themselves (plain means within the stratum).
  const stratumMean = (s: DriftScores, h: string) => {
    let t = 0;
    let n = 0;
    s.items.forEach((_, k) => {
      if ((s.strata?.[k] ?? '(all)') === h) {
        t += s.scores[k];
        n += 1;
      }
    });
    return n === 0 ? NaN : t / n;
  };
  const strata = drift.strata.map((h) => ({
    stratum: h.stratum,
    total: stratumMean(after, h.stratum) - stratumMean(before, h.stratum),
    system: h.model.estimate,
    instrument: h.instrument.estimate,
  }));
  let reweighted: BoundaryAttribution['reweighted'] = null;
  if (options.weights) {
    const kept = options.weights.filter((w) => strata.some((s) => s.stratum === w.stratum));
    const sum = kept.reduce((a, w) => a + w.weight, 0);
    const part = (f: (s: (typeof strata)[number]) => number) => kept.reduce((a, w) => a + (w.weight / sum) * f(strata.find((s) => s.stratum === w.stratum)!), 0);
    reweighted = { total: part((s) => s.total), system: part((s) => s.system), instrument: part((s) => s.instrument) };
  }
  const retired = drift.total - drift.model.estimate - drift.instrument.estimate;
  // Without a re-run the retired items are unpaired by construction: say so once, in these words.
  const warnings = drift.warnings.filter((w) => !(rerun === null && /scored in only one of before \/ re-run left out$/.test(w)));
  return {
    model,
    mode,
    total: drift.total,
    system: own(drift.model),
    instrument: own(drift.instrument),
    retired: Math.abs(retired) < 1e-12 ? 0 : retired,
    strata,
    reweighted,
    verdict: drift.verdict,
    shared,
    retiredItems: before.items.length - shared,
    addedItems: after.items.length - shared,
    method,
    nResamples: drift.nResamples,
    seed,
    warnings,
  };
}
