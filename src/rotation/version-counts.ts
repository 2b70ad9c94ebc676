/**
 * Items, eval and dev counts of a version's items (a record's `counts`).
 * @example versionCounts([{ split: 'eval' }, { split: 'dev' }, { split: 'eval' }]) // => { items: 3, eval: 2, dev: 1 }
 */
export function versionCounts(items: ReadonlyArray<{ split: 'dev' | 'eval' }>): { items: number; eval: number; dev: number } {
  const evalCount = items.filter((x) => x.split === 'eval').length;
  return { items: items.length, eval: evalCount, dev: items.length - evalCount };
}

/**
 * Eval and dev counts per stratum (a record's `strata`), strata in order of first appearance.
 * @example versionStratumCounts([{ stratum: 'b', split: 'eval' }, { stratum: 'a', split: 'dev' }, { stratum: 'b', split: 'dev' }]) // => [{ stratum: 'b', eval: 1, dev: 1 }, { stratum: 'a', eval: 0, dev: 1 }]
 */
export function versionStratumCounts(items: ReadonlyArray<{ stratum: string; split: 'dev' | 'eval' }>): Array<{ stratum: string; eval: number; dev: number }> {
  const counts = new Map<string, { stratum: string; eval: number; dev: number }>();
  for (const x of items) {
    let c = counts.get(x.stratum);
    if (!c) counts.set(x.stratum, (c = { stratum: x.stratum, eval: 0, dev: 0 }));
    c[x.split] += 1;
  }
  return [...counts.values()];
}
