/**
 * Generates examples/monitor.csv: SYNTHETIC labels arriving in annotation order, for
 * `benchplan monitor`. 180 documents (clusters) of 5 slots each, 2 strata, 2 candidates with
 * 0/1 scores; the documents were shuffled before annotation (what makes a sequence valid) and
 * labelled in batches of 8 documents (40 items). The candidate's true gain is +0.10 overall,
 * most of it on rare clauses. Seeded, so `npx tsx examples/generate-monitor.ts` rewrites the same bytes.
 *
 * Columns: item, model, stratum, cluster, order (1 = labelled first), batch (1, 2, …), score.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, shuffle } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const rng = createRng('benchplan-examples-v1', 'monitor');
const DOCUMENTS = 180;
const SLOTS = 5;
const PER_BATCH = 8;

// Per stratum: the current model's accuracy range across documents, and the candidate's gain.
const PROFILE = {
  routine: { low: 0.7, high: 0.98, gain: 0.06 },
  rare_clause: { low: 0.35, high: 0.8, gain: 0.2 },
} as const;

interface Doc {
  id: string;
  stratum: keyof typeof PROFILE;
  level: number;
}
const docs: Doc[] = [];
for (let d = 1; d <= DOCUMENTS; d++) {
  const stratum = rng.nextFloat() < 0.7 ? 'routine' : 'rare_clause';
  const p = PROFILE[stratum];
  docs.push({ id: `doc${String(d).padStart(3, '0')}`, stratum, level: p.low + (p.high - p.low) * rng.nextFloat() });
}
shuffle(docs, rng);

const rows: string[] = ['item,model,stratum,cluster,order,batch,score'];
let order = 0;
docs.forEach((doc, k) => {
  const batch = Math.floor(k / PER_BATCH) + 1;
  const gain = PROFILE[doc.stratum].gain;
  for (let s = 1; s <= SLOTS; s++) {
    order += 1;
    const item = `${doc.id}-s${s}`;
    const current = rng.nextFloat() < doc.level ? 1 : 0;
    // The candidate keeps most of what the current model gets right and fixes some of its misses.
    const fix = Math.min(1, gain / (1 - doc.level) + 0.05);
    const keep = 1 - (0.05 * (1 - doc.level)) / doc.level;
    const candidate = current === 1 ? (rng.nextFloat() < keep ? 1 : 0) : rng.nextFloat() < fix ? 1 : 0;
    rows.push(`${item},current,${doc.stratum},${doc.id},${order},${batch},${current}`);
    rows.push(`${item},candidate,${doc.stratum},${doc.id},${order},${batch},${candidate}`);
  }
});
writeFileSync(join(here, 'monitor.csv'), `${rows.join('\n')}\n`);
