import type { LeakageResult } from '../rotation/leakage.js';
import { formatNumber } from './table.js';

/**
 * The leakage lines of a readable report (freeze and rotate print them): "no leakage", or how
 * many eval items have a copy in dev, then one line per pair (exact copy, or near duplicate with
 * its word-shingle Jaccard similarity).
 * @example formatLeakage({ pairs: [], leakedEvalItems: [], shingleSize: 5, threshold: 0.8 })[0] // => "no leakage: no eval item has a copy in dev (exact, or word 5-shingle Jaccard ≥ 0.8)"
 */
export function formatLeakage(leakage: LeakageResult): string[] {
  if (leakage.pairs.length === 0) return [`no leakage: no eval item has a copy in dev (exact, or word ${leakage.shingleSize}-shingle Jaccard ≥ ${leakage.threshold})`];
  const out = [`leakage: ${leakage.leakedEvalItems.length} eval item${leakage.leakedEvalItems.length === 1 ? ' has' : 's have'} a copy in dev (rotate retires them first after saturated items)`];
  for (const p of leakage.pairs) {
    out.push(p.kind === 'exact' ? `  ${p.evalItem} = ${p.devItem}  exact copy (${p.stratum})` : `  ${p.evalItem} ≈ ${p.devItem}  near duplicate, Jaccard ${formatNumber(p.similarity)} (${p.stratum})`);
  }
  return out;
}
