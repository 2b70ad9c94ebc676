import type { CostPolicy } from '../data/policy.js';
import { InputError } from '../data/errors.js';
import { OUTCOME_KINDS } from '../data/outcomes.js';
import type { AlignedScores } from '../data/pairing.js';
import type { ScoresTable } from '../data/scores.js';

/** One scope's per-document costs of every model: the unit of every cost check of the shortlist. */
export interface CostScope {
  /** `overall` or a stratum name. */
  scope: string;
  /**
   * The documents the scope counts: every document for `overall`; for a stratum, the documents
   * with at least one item in it (the same for every model: the items are aligned).
   */
  documents: string[];
  /**
   * Per model (the aligned order): per document of `documents`, the cost of its outcomes in the
   * scope: every item of the document for `overall`, only its items in the stratum for a stratum.
   */
  values: Float64Array[];
}

/**
 * Expected cost per document at a cost policy, overall and per stratum, under one attribution
 * rule: an item's cost is the policy's price of its outcome (repeats averaged: each repeat weighs
 * 1 / repeats), and it counts in its own stratum. A document's cost in stratum h is the sum of
 * the costs of its items in h; stratum h's expected cost per document is the mean of that over
 * the D_h documents with at least one item in h. A document that spans strata so contributes to
 * each stratum its items touch, with those items' outcomes only. Overall, a document's cost is the
 * sum over all its items and the mean is over all D documents: `benchplan sweep`'s costPerDocument
 * (total cost / D). The two are tied by overall = Σ_h (D_h / D) · cost_h. Without a cluster column
 * every item is its own document, so a stratum's cost is its cost per item.
 * O(rows + models × items).
 * @param table the scores table (with an outcome column) the aligned scores came from.
 * @param aligned alignModels(table, …): the items every model scored, their strata and clusters.
 * @param policy the cost policy (its `costs`); every outcome kind that occurs must have a cost.
 * @returns one CostScope for `overall`, then one per stratum in the aligned order (when the table has strata).
 * @throws {InputError} for a table without outcomes, or an outcome the policy gives no cost.
 * @example costScopes(table, aligned, policy)[0].values[0].reduce((a, x) => a + x, 0) / 159 // => 0.6477987421383647 (alpha on examples/scores.csv: 103 / 159)
 */
export function costScopes(table: ScoresTable, aligned: AlignedScores, policy: Pick<CostPolicy, 'costs'>, policySource?: string): CostScope[] {
  if (!table.hasOutcome) throw new InputError(`has no "outcome" column: a cost needs one outcome a row (${OUTCOME_KINDS.join(', ')})`, { file: table.source });
  const n = aligned.items.length;
  const position = new Map<number, number>();
  const itemIndex = new Map(table.items.map((id, i) => [id, i]));
  aligned.items.forEach((id, k) => position.set(itemIndex.get(id) as number, k));
  const modelPosition = new Map(aligned.models.map((m, k) => [table.models.indexOf(m), k]));
  const itemCost = aligned.models.map(() => new Float64Array(n));
  for (let r = 0; r < table.rowCount; r++) {
    const m = modelPosition.get(table.model[r]);
    const k = position.get(table.item[r]);
    if (m === undefined || k === undefined || table.outcome[r] < 0) continue;
    const kind = OUTCOME_KINDS[table.outcome[r]];
    const price = policy.costs[kind];
    if (price === undefined) {
      throw new InputError(`costs.${kind}: ${aligned.models[m]} has "${kind}" outcomes but the policy gives "${kind}" no cost; add costs.${kind}`, policySource === undefined ? { value: kind } : { file: policySource, value: kind });
    }
    itemCost[m][k] += price / aligned.repeats[m][k];
  }
  const documents = aligned.cluster === null ? aligned.items : aligned.clusters;
  const documentOf = aligned.cluster ?? Int32Array.from({ length: n }, (_, k) => k);
  const overall: CostScope = {
    scope: 'overall',
    documents: [...documents],
    values: itemCost.map((costs) => {
      const out = new Float64Array(documents.length);
      for (let k = 0; k < n; k++) out[documentOf[k]] += costs[k];
      return out;
    }),
  };
  if (aligned.stratum === null) return [overall];
  const stratum = aligned.stratum;
  const scopes = aligned.strata.map((name, h) => {
    // The stratum's documents, in document order, and each one's place among them.
    const place = new Int32Array(documents.length).fill(-1);
    for (let k = 0; k < n; k++) if (stratum[k] === h) place[documentOf[k]] = 0;
    const mine: string[] = [];
    for (let d = 0; d < documents.length; d++) if (place[d] === 0) place[d] = mine.push(documents[d]) - 1;
    const values = itemCost.map((costs) => {
      const out = new Float64Array(mine.length);
      for (let k = 0; k < n; k++) if (stratum[k] === h) out[place[documentOf[k]]] += costs[k];
      return out;
    });
    return { scope: name, documents: mine, values };
  });
  return [overall, ...scopes.filter((s) => s.documents.length > 0)];
}
