/**
 * Generates the rotation examples. All of it is SYNTHETIC: made-up scores of made-up systems on
 * the bundled manifest (examples/manifest.yaml) and incidents log (examples/incidents.jsonl),
 * drawn from a seeded generator so `npx tsx examples/generate-rotation.ts` regenerates the same bytes.
 *
 *   rotation/scores-2026Q3.csv   candidates alpha and beta on the 80 eval items of 2026Q3 (0/1):
 *                                the input of `rotate --scores` (routine items are saturated)
 *   rotation/drift-before.csv    last quarter's system (prod-2026Q3) on 2026Q3
 *   rotation/drift-rerun.csv     this quarter's system (prod-2026Q4) on 2026Q3, the re-run
 *   rotation/drift-after.csv     this quarter's system on 2026Q4, the version `rotate --apply`
 *                                makes from 2026Q3 with those scores (fraction 0.2, seed 0)
 *
 * The story the drift example tells: the system did not change (prod-2026Q4 is a new prompt of
 * the same ability), but the rotation swapped in incidents, which are production failures and so
 * harder than the items they replace: the score drops and `drift` says the test got harder.
 *
 * Item model: item i passes for a system of ability θ when θ − d_i + 0.9·u_i + 0.15·e_i > 0, with
 * d_i the item's difficulty (by stratum; incidents one unit harder), u_i a shared item effect and
 * e_i the system's own noise, all standard normal draws from named seeded streams.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest } from '../src/data/manifest.js';
import { createRng } from '../src/random/index.js';
import { freezeVersion } from '../src/rotation/archive.js';
import { benchmarkItemsFromManifest } from '../src/rotation/content.js';
import { prepareRotation } from '../src/rotation/rotate.js';
import { scoresFromRows } from '../src/data/scores.js';
import { csvLine } from '../src/data/csv-text.js';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 'benchplan-rotation-examples-v1';

const DIFFICULTY: Record<string, number> = { routine: -2.2, rare_clause: 0.3, past_failure: 0.1, negative_control: -1.2 };
const INCIDENT_EXTRA = 1.5;

const manifest = loadManifest(join(here, 'manifest.yaml'));
const incidents = loadManifest(join(here, 'incidents.jsonl'), { incidents: true });
const evalItems = manifest.items.filter((x) => x.split === 'eval');

interface Scored {
  item: string;
  stratum: string;
}

/** One standard normal draw per (stream, item): the same item gets the same draw in every run. */
function draw(stream: string, item: string): number {
  return createRng(SEED, stream, item).nextNormal();
}

function difficulty(x: Scored & { source?: string }, isIncident: boolean): number {
  return (DIFFICULTY[x.stratum] ?? 0) + 0.8 * draw('difficulty', x.item) + (isIncident ? INCIDENT_EXTRA : 0);
}

const incidentIds = new Set(incidents.items.map((x) => x.item));

function passes(system: string, ability: number, x: Scored): number {
  const d = difficulty(x, incidentIds.has(x.item));
  return ability - d + 0.9 * draw('item', x.item) + 0.15 * draw(`system:${system}`, x.item) > 0 ? 1 : 0;
}

function csv(rows: Array<[string, string, string, number]>): string {
  return ['item,model,stratum,score', ...rows.map((r) => r.join(','))].join('\n') + '\n';
}

function scoresOf(system: string, ability: number, items: readonly Scored[]): Array<[string, string, string, number]> {
  return items.map((x) => [x.item, system, x.stratum, passes(system, ability, x)]);
}

// Candidates for the saturation check: both strong, so routine items are passed by both.
const candidates = [...scoresOf('alpha', 0.9, evalItems), ...scoresOf('beta', 0.6, evalItems)];
const files: Record<string, string> = { 'scores-2026Q3.csv': csv(candidates) };

// The same scores with what each candidate answered (an `output` column), for the review page:
// made from the item's text and gold label, so a hit quotes the clause, a miss says none was
// found, and a wrong answer on a negative control invents one (a fabrication a reader must see).
const byId = new Map(manifest.items.map((x) => [x.item, x]));
function outputOf(item: string, score: number): string {
  const x = byId.get(item);
  const text = typeof x?.text === 'string' ? x.text : '';
  if (x?.label === 'absent') return score === 1 ? 'No payment-terms clause in this document.' : 'Found: "Payment is due within 30 days of the invoice date." (not in the document)';
  return score === 1 ? `Found: "${text}"` : 'No payment-terms clause found.';
}
files['scores-2026Q3-outputs.csv'] = ['item,model,stratum,score,output', ...candidates.map(([item, model, stratum, score]) => csvLine([item, model, stratum, score, outputOf(item, score)]))].join('\n') + '\n';

// The rotated version, made exactly as the demo makes it: freeze 2026Q3, plan with the scores.
const scratch = mkdtempSync(join(tmpdir(), 'benchplan-generate-rotation-'));
try {
  freezeVersion(scratch, benchmarkItemsFromManifest(manifest), { version: '2026Q3', date: '2026-07-01', guideline: manifest.guideline ?? null });
  const table = scoresFromRows(candidates.map(([item, model, stratum, score]) => ({ item, model, stratum, score })), 'scores-2026Q3.csv');
  const { plan } = prepareRotation(scratch, '2026Q3', benchmarkItemsFromManifest(incidents), { fraction: 0.2, seed: 0, scores: table });
  const retired = new Set(plan.retire.map((x) => x.item));
  const q4: Scored[] = [...evalItems.filter((x) => !retired.has(x.item)), ...plan.add];
  files['drift-before.csv'] = csv(scoresOf('prod-2026Q3', 1.0, evalItems));
  files['drift-rerun.csv'] = csv(scoresOf('prod-2026Q4', 1.0, evalItems));
  files['drift-after.csv'] = csv(scoresOf('prod-2026Q4', 1.0, q4));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

files['README.md'] = `# SYNTHETIC rotation examples

Made by \`npx tsx examples/generate-rotation.ts\` from a fixed seed: made-up scores of made-up
systems on the bundled manifest and incidents log. See the header of that script for the model.

- \`scores-2026Q3.csv\`: candidates alpha and beta on the 80 eval items of 2026Q3 (\`rotate --scores\`).
- \`scores-2026Q3-outputs.csv\`: the same scores with each candidate's answer in an \`output\` column (\`review\` shows them).
- \`drift-before.csv\`: last quarter's system (prod-2026Q3) on 2026Q3.
- \`drift-rerun.csv\`: this quarter's system (prod-2026Q4) on 2026Q3, the re-run.
- \`drift-after.csv\`: this quarter's system on 2026Q4 (2026Q3 rotated with those scores, fraction 0.2, seed 0).
`;
mkdirSync(join(here, 'rotation'), { recursive: true });
for (const [name, content] of Object.entries(files)) {
  writeFileSync(join(here, 'rotation', name), content);
  console.log(`wrote examples/rotation/${name}`);
}
