import { holmAdjust } from '../paired/holm.js';
import { tInterval } from '../paired/t-interval.js';
import { wilsonInterval } from '../costs/wilson.js';
import { InputError } from '../data/errors.js';
import { isIsoDate } from '../data/dates.js';
import type { ScoresTable } from '../data/scores.js';
import { normalCdf } from '../distributions/index.js';
import type { IntervalMethod } from '../bootstrap/index.js';
import type { Seed } from '../random/seed.js';
import { reweightedHeadline, type StratumWeight } from '../strata/headline.js';
import { boundaryDrift, type BoundaryAttribution } from './boundary-drift.js';

/** One run of the instrument: a scores file and the date it ran. */
export interface HistoryRun {
  /** YYYY-MM-DD; runs must come in increasing date order. */
  date: string;
  table: ScoresTable;
}

/** Settings of a history. */
export interface HistoryOptions {
  /** Traffic shares for a reweighted headline (reweightedHeadline); without them the headline is the plain mean. */
  weights?: readonly StratumWeight[];
  /** Two-sided level of every interval in (0, 1); default 0.95. */
  confidenceLevel?: number;
  /** The models to follow; default every model of the first run, then new ones in order of appearance. */
  models?: readonly string[];
  /**
   * The benchmark versions (e.g. an archive's, with their eval item ids): each run is matched to
   * the version whose eval items are exactly its items, else to the smallest version holding all
   * of them, else to none.
   */
  versions?: ReadonlyArray<{ version: string; items: readonly string[] }>;
  /**
   * The drift attribution at each version boundary (boundaryDrift): on by default; false skips
   * it. `reruns`: re-runs of the previous version by a boundary run's systems, by the run's date
   * (`benchplan history --rerun DATE=FILE`), for the exact split; without one, the shared items
   * stand in for the frozen version. method / nResamples / seed as attributeDrift (defaults bca,
   * 9999, 0; each boundary and model draws from `${seed}:${date}:${model}`).
   */
  attribution?:
    | false
    | {
        reruns?: ReadonlyArray<{ date: string; table: ScoresTable }>;
        method?: IntervalMethod;
        nResamples?: number;
        seed?: Seed;
      };
  /**
   * What errors call the runs and the re-runs (the flags that gave them): default `--run` and
   * `--rerun` (benchplan history); the report passes `--history-run` and `--history-rerun`.
   */
  names?: { runs?: string; reruns?: string };
}

/** One score with its interval. */
export interface HistoryPoint {
  /** `headline` or a stratum name. */
  scope: string;
  n: number;
  estimate: number;
  confidenceInterval: [number, number];
}

/** The change of one scope from the previous run, on the items both runs scored. */
export interface HistoryChange {
  scope: string;
  /** Items scored by this model in both runs (the pairing). */
  shared: number;
  estimate: number;
  confidenceInterval: [number, number];
  pValue: number;
  /** Holm-adjusted across this model's scopes at this run. */
  adjustedPValue: number;
  /** The change is distinguishable from 0: adjustedPValue < α. */
  flagged: boolean;
}

/** One model in one run. */
export interface HistoryModelRun {
  model: string;
  /** Headline first, then the strata in the run's order. */
  points: HistoryPoint[];
  /** Changes from the previous run where this model ran (empty for its first run). */
  changes: HistoryChange[];
  /** Some scope's change is flagged. */
  flagged: boolean;
}

/** One run in the history. */
export interface HistoryEntry {
  date: string;
  source: string;
  items: number;
  /**
   * The item set differs from the previous run's: the instrument changed here (a new benchmark
   * version), so a change in score mixes the system's change with the test's.
   */
  versionBoundary: boolean;
  /** The benchmark version the run's items are (HistoryOptions.versions), or null. */
  version: string | null;
  added: number;
  removed: number;
  models: HistoryModelRun[];
  /**
   * At a version boundary: per model that also ran in the previous run, how much of its change is
   * the system and how much the instrument (boundaryDrift); empty elsewhere and when attribution is off.
   */
  attribution: BoundaryAttribution[];
  /** The re-run the attribution used at this boundary (its source), or null. */
  rerun: string | null;
}

/** The instrument over time, with the settings used. */
export interface HistoryResult {
  runs: HistoryEntry[];
  models: string[];
  headline: 'reweighted' | 'plain mean';
  weights: StratumWeight[] | null;
  confidenceLevel: number;
  alpha: number;
  multiplicity: 'holm';
  /** The drift attribution's settings at version boundaries, or null when it is off. */
  attributionSettings: { method: IntervalMethod; nResamples: number; seed: string } | null;
  warnings: string[];
}

interface ModelScores {
  /** item id → [stratum, repeat-averaged score] */
  items: Map<string, { stratum: string; score: number }>;
}

function modelScores(table: ScoresTable): Map<string, ModelScores> {
  const sums = new Map<string, Map<number, { sum: number; count: number }>>();
  for (let r = 0; r < table.rowCount; r++) {
    const model = table.models[table.model[r]];
    let m = sums.get(model);
    if (!m) sums.set(model, (m = new Map()));
    const cell = m.get(table.item[r]) ?? { sum: 0, count: 0 };
    cell.sum += table.score[r];
    cell.count += 1;
    m.set(table.item[r], cell);
  }
  const out = new Map<string, ModelScores>();
  for (const [model, cells] of sums) {
    const items = new Map<string, { stratum: string; score: number }>();
    for (const [i, c] of cells) items.set(table.items[i], { stratum: table.hasStratum ? table.strata[table.itemStratum[i]] : 'all', score: c.sum / c.count });
    out.set(model, { items });
  }
  return out;
}

function summary(values: number[]): { n: number; mean: number; sd: number } {
  const n = values.length;
  const mean = values.reduce((a, x) => a + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : NaN;
  return { n, mean, sd };
}

function meanWithInterval(values: number[], confidenceLevel: number): { estimate: number; confidenceInterval: [number, number]; pValue: number } {
  if (values.length < 2) return { estimate: values.length === 1 ? values[0] : NaN, confidenceInterval: [NaN, NaN], pValue: NaN };
  const t = tInterval(values, { confidenceLevel });
  return { estimate: t.estimate, confidenceInterval: t.confidenceInterval, pValue: t.pValue };
}

/**
 * A score's interval when its items all score 0 or 1: the Wilson interval of the share (inside
 * [0, 1], as every per-stratum score of benchplan headline; a t interval would run past 1 on a
 * stratum near the ceiling). For a stratum, or for the plain-mean headline; null otherwise (the
 * reweighted headline has its own interval, and non-binary scores keep the t interval).
 */
function shareInterval(values: ReadonlyArray<{ stratum: string; value: number }>, scope: string, weights: readonly StratumWeight[] | null, confidenceLevel: number): [number, number] | null {
  if (scope === 'headline' && weights !== null) return null;
  const mine = scope === 'headline' ? values : values.filter((v) => v.stratum === scope);
  if (mine.length === 0 || !mine.every((v) => v.value === 0 || v.value === 1)) return null;
  const successes = mine.reduce((a, v) => a + v.value, 0);
  return wilsonInterval(successes, mine.length, { confidenceLevel }).confidenceInterval;
}

/** Per-stratum values and the headline (reweighted with a z interval, or the plain mean with a t interval) of some per-item values. */
function scopes(values: Array<{ stratum: string; value: number }>, strata: readonly string[], weights: readonly StratumWeight[] | null, confidenceLevel: number, scores = false): Array<{ scope: string; n: number; estimate: number; confidenceInterval: [number, number]; pValue: number }> {
  const byStratum = strata.map((s) => values.filter((v) => v.stratum === s).map((v) => v.value));
  let headline: { scope: string; n: number; estimate: number; confidenceInterval: [number, number]; pValue: number };
  if (weights !== null) {
    // Scores (not differences) that are all 0/1 or all in [0, 1] get the headline's bounded interval.
    const kinds = (v: number[]) => (scores ? { binary: v.every((x) => x === 0 || x === 1), withinUnit: v.every((x) => x >= 0 && x <= 1) } : {});
    const h = reweightedHeadline(strata.map((s, k) => ({ stratum: s, ...summary(byStratum[k]), ...kinds(byStratum[k]) })).filter((s) => s.n > 0), weights, { confidenceLevel });
    const z = h.estimate / h.standardError;
    const pValue = Number.isFinite(z) ? 2 * normalCdf(-Math.abs(z)) : h.standardError === 0 ? (h.estimate === 0 ? 1 : 0) : NaN;
    headline = { scope: 'headline', n: values.length, estimate: h.estimate, confidenceInterval: h.interval, pValue };
  } else headline = { scope: 'headline', n: values.length, ...meanWithInterval(values.map((v) => v.value), confidenceLevel) };
  return [headline, ...strata.map((s, k) => ({ scope: s, n: byStratum[k].length, ...meanWithInterval(byStratum[k], confidenceLevel) }))];
}

/**
 * The instrument over time (seeds/004: "run it on every prompt change before merge, run it when a
 * vendor ships"): for each run and model, the headline and every stratum's score with its
 * interval (Wilson for a score whose items all score 0 or 1, else t); for each run after a model's first, the change from its previous run, paired on the
 * items both runs scored (per-item differences, so the items' own difficulty cancels), with a
 * two-sided t interval per stratum and, for the headline, the reweighted difference
 * Σ W_h · mean_h(d) ± z · √(Σ W_h² s_h²(d) / n_h) (or a t interval of the plain mean). A change
 * is flagged when its Holm-adjusted p (across the model's headline and strata at that run) is
 * below α = 1 − confidenceLevel. A run whose benchmark version (options.versions) differs from
 * the previous run's, or without versions whose item set differs, is a version boundary: the test changed too, so its change is not the system's alone. At each
 * boundary, for every model in both runs, boundaryDrift splits the change into the system's part
 * and the instrument's (attributeDrift, `benchplan drift`'s estimator): exactly with a re-run of
 * the previous version (options.attribution.reruns), else with the shared items as the frozen part.
 * Reference: the paired t test (R `t.test(cur, prev, paired = TRUE)`), Cochran (1977) §5.2 for the
 * stratified variance, Holm (1979).
 * @param runs the runs, in increasing date order.
 * @returns per run: date, items, version boundary, per model the points and the changes.
 * @throws {InputError} for a bad or non-increasing date, no runs, a re-run without its run, or a
 *   model to follow that no run scored.
 * @example runHistory([{ date: '2026-11-02', table: a }, { date: '2026-11-09', table: b }]).runs[1].models[0].changes[0].scope // => 'headline'
 */
export function runHistory(runs: readonly HistoryRun[], options: HistoryOptions = {}): HistoryResult {
  const confidenceLevel = options.confidenceLevel ?? 0.95;
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1) (got ${confidenceLevel})`);
  const runsName = options.names?.runs ?? '--run';
  const rerunsName = options.names?.reruns ?? '--rerun';
  if (runs.length === 0) throw new InputError(`give at least one run (${runsName} DATE=FILE)`, { file: runsName });
  for (let k = 0; k < runs.length; k++) {
    if (!isIsoDate(runs[k].date)) throw new InputError('the date must be YYYY-MM-DD', { file: runsName, value: runs[k].date });
    if (k > 0 && !(runs[k].date > runs[k - 1].date)) throw new InputError(`runs must come in increasing date order (${runs[k - 1].date} is followed by ${runs[k].date})`, { file: runsName, value: runs[k].date });
  }
  const alpha = 1 - confidenceLevel;
  const weights = options.weights === undefined ? null : [...options.weights];
  const attribution = options.attribution === false ? null : (options.attribution ?? {});
  const attributionSettings = attribution === null ? null : { method: attribution.method ?? ('bca' as IntervalMethod), nResamples: attribution.nResamples ?? 9999, seed: String(attribution.seed ?? 0) };
  const reruns = new Map<string, ScoresTable>();
  for (const r of attribution?.reruns ?? []) {
    if (reruns.has(r.date)) throw new InputError('two re-runs for one date', { file: rerunsName, value: r.date });
    if (!runs.some((x) => x.date === r.date)) throw new InputError('no run has this date (a re-run belongs to a run at a version boundary)', { file: rerunsName, value: r.date });
    reruns.set(r.date, r.table);
  }
  const scored = runs.map((r) => modelScores(r.table));
  const models = options.models ? [...options.models] : [...new Set(scored.flatMap((m) => [...m.keys()]))];
  for (const model of models) {
    if (!scored.some((m) => m.has(model))) {
      const seen = [...new Set(scored.flatMap((m) => [...m.keys()]))];
      throw new InputError(`model "${model}" is in none of the runs (models: ${seen.join(', ')})`, { file: '--model', value: model });
    }
  }
  const warnings: string[] = [];
  const last = new Map<string, ModelScores>();
  let previousItems: Set<string> | null = null;
  let previousVersion: string | null = null;
  let previousTable: ScoresTable | null = null;
  const versions = (options.versions ?? []).map((v) => ({ version: v.version, items: new Set(v.items) }));
  const versionOf = (items: Set<string>): string | null => {
    const holding = versions.filter((v) => [...items].every((x) => v.items.has(x)));
    const exact = holding.find((v) => v.items.size === items.size);
    if (exact) return exact.version;
    holding.sort((a, b) => a.items.size - b.items.size);
    return holding[0]?.version ?? null;
  };
  const entries: HistoryEntry[] = runs.map((run, k) => {
    const items = new Set(run.table.items);
    const strata = run.table.hasStratum ? run.table.strata : ['all'];
    if (weights !== null && !run.table.hasStratum) throw new InputError('the reweighted headline needs a stratum column', { file: run.table.source });
    if (weights !== null) {
      // A stratum of the run without a traffic share cannot be reweighted: name the run's first row of it.
      const weighted = new Set(weights.map((w) => w.stratum));
      const lacking = run.table.strata.findIndex((s) => !weighted.has(s));
      if (lacking >= 0) {
        const t = run.table;
        let row = 0;
        while (row < t.rowCount && t.itemStratum[t.item[row] as number] !== lacking) row++;
        throw new InputError(`stratum "${t.strata[lacking]}" has no traffic share in the strata file (${[...weighted].join(', ')}): add it there, or drop its rows`, { file: t.source, line: t.line[row], field: 'stratum', value: t.strata[lacking] });
      }
    }
    const added = previousItems === null ? 0 : [...items].filter((x) => !previousItems!.has(x)).length;
    const removed = previousItems === null ? 0 : [...previousItems].filter((x) => !items.has(x)).length;
    previousItems = items;
    const version = versionOf(items);
    const changedVersion = k > 0 && version !== null && previousVersion !== null ? version !== previousVersion : added > 0 || removed > 0;
    const versionBefore = previousVersion;
    previousVersion = version;
    const tableBefore = previousTable;
    previousTable = run.table;
    const entryModels: HistoryModelRun[] = [];
    for (const model of models) {
      const now = scored[k].get(model);
      if (!now) continue;
      const values = [...now.items.values()].map((v) => ({ stratum: v.stratum, value: v.score }));
      const points = scopes(values, strata, weights, confidenceLevel, true).map(({ scope, n, estimate, confidenceInterval }) => ({ scope, n, estimate, confidenceInterval: shareInterval(values, scope, weights, confidenceLevel) ?? confidenceInterval }));
      let changes: HistoryChange[] = [];
      const before = last.get(model);
      if (before) {
        const diffs: Array<{ stratum: string; value: number }> = [];
        for (const [id, v] of now.items) {
          const p = before.items.get(id);
          if (p) diffs.push({ stratum: v.stratum, value: v.score - p.score });
        }
        if (diffs.length === 0) warnings.push(`${run.date}: ${model} shares no item with its previous run: no change is computed`);
        else {
          const present = strata.filter((s) => diffs.some((d) => d.stratum === s));
          // The strata the pairing covers, their weights renormalised to sum to 1.
          let paired: StratumWeight[] | null = null;
          if (weights !== null) {
            const kept = weights.filter((w) => present.includes(w.stratum));
            const total = kept.reduce((a, w) => a + w.weight, 0);
            paired = kept.map((w) => ({ stratum: w.stratum, weight: w.weight / total }));
            if (present.length < strata.length) warnings.push(`${run.date}: ${model}: the paired change covers ${present.join(', ')} only (their weights renormalised)`);
          }
          const raw = scopes(diffs, present, paired, confidenceLevel);
          const adjusted = holmAdjust(raw.map((c) => (Number.isNaN(c.pValue) ? NaN : Math.min(1, Math.max(0, c.pValue)))));
          changes = raw.map((c, j) => ({ scope: c.scope, shared: c.n, estimate: c.estimate, confidenceInterval: c.confidenceInterval, pValue: c.pValue, adjustedPValue: adjusted[j], flagged: adjusted[j] < alpha }));
        }
      }
      last.set(model, now);
      entryModels.push({ model, points, changes, flagged: changes.some((c) => c.flagged) });
    }
    const versionBoundary = k > 0 && changedVersion;
    const rerun = reruns.get(run.date) ?? null;
    if (rerun !== null && !versionBoundary) throw new InputError(`the run of ${run.date} is not at a version boundary: a re-run of the previous version only means something where the version changed`, { file: rerunsName, value: run.date });
    const boundaryParts: BoundaryAttribution[] = [];
    if (versionBoundary && attributionSettings !== null && tableBefore !== null) {
      for (const m of entryModels) {
        if (!tableBefore.models.includes(m.model)) continue;
        if (rerun !== null && !rerun.models.includes(m.model)) {
          warnings.push(`${run.date}: ${m.model} is not in the re-run ${rerun.source}: its split uses the shared items`);
        }
        const own = rerun !== null && rerun.models.includes(m.model) ? rerun : null;
        try {
          const part = boundaryDrift(tableBefore, run.table, m.model, own, {
            method: attributionSettings.method,
            confidenceLevel,
            nResamples: attributionSettings.nResamples,
            seed: `${attributionSettings.seed}:${run.date}:${m.model}`,
            weights,
            previousVersion: versionBefore,
            currentVersion: version,
          });
          boundaryParts.push(part);
          warnings.push(...part.warnings.map((w) => `${run.date}: ${m.model}: drift attribution: ${w}`));
        } catch (error) {
          // No shared item and no re-run: nothing holds the instrument still, so nothing to split.
          if (!(error instanceof InputError) || own !== null) throw error;
          warnings.push(`${run.date}: ${m.model}: the change at the version boundary cannot be split: ${run.table.source} shares no item with the previous run; give a re-run of the previous version (--rerun)`);
        }
      }
    }
    return { date: run.date, source: run.table.source, items: items.size, versionBoundary, version, added, removed, models: entryModels, attribution: boundaryParts, rerun: rerun === null ? null : rerun.source };
  });
  return { runs: entries, models, headline: weights === null ? 'plain mean' : 'reweighted', weights, confidenceLevel, alpha, multiplicity: 'holm', attributionSettings, warnings };
}
