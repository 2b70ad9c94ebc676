/**
 * Generates examples/spans.csv: SYNTHETIC span annotations (made-up documents and readers) for
 * `benchplan agree`, drawn from a seeded generator so every run writes the same bytes.
 * Run: npx tsx examples/generate-spans.ts
 *
 *   spans.csv   two readers mark the character span of a clause in 48 documents of 2 types
 *
 * Each document has a definitions sentence followed by the operative sentence. A reader marks
 * the operative sentence; sometimes the sentence together with the definitions it depends on
 * (the seed chapter's example of honest disagreement), sometimes stops a few characters short,
 * and now and then marks nothing. Change-of-control clauses are read less consistently.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/random/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const rng = createRng('benchplan-examples-v1', 'spans');

// type, P(reader adds the definitions), P(reader trims the end), P(reader marks nothing)
const TYPES: Array<[string, number, number, number]> = [
  ['indemnity', 0.04, 0.04, 0.02],
  ['change_of_control', 0.35, 0.12, 0.05],
];
const rows: string[] = ['item,annotator,type,start,end'];
let k = 0;
for (const [type, withDefinitions, trimmed, none] of TYPES) {
  for (let j = 0; j < 24; j++) {
    k += 1;
    const item = `s${String(k).padStart(3, '0')}`;
    const definitionsStart = 200 + rng.nextInt(1500);
    const definitionsLength = 80 + rng.nextInt(240);
    const operativeStart = definitionsStart + definitionsLength + 1;
    const operativeEnd = operativeStart + 90 + rng.nextInt(220);
    for (const annotator of ['ana', 'ben']) {
      if (rng.nextFloat() < none) {
        rows.push(`${item},${annotator},${type},,`);
        continue;
      }
      const start = rng.nextFloat() < withDefinitions ? definitionsStart : operativeStart;
      const end = rng.nextFloat() < trimmed ? operativeEnd - 1 - rng.nextInt(12) : operativeEnd;
      rows.push(`${item},${annotator},${type},${start},${end}`);
    }
  }
}
writeFileSync(join(here, 'spans.csv'), `${rows.join('\n')}\n`);
console.log('wrote examples/spans.csv');
