/**
 * Draws the chart images the README shows, from the bundled SYNTHETIC examples, through the
 * public API (headless vega + resvg with the DejaVu fonts: no browser, no system fonts).
 * Run: npx tsx notebooks/readme-images.ts [OUTDIR]   (default docs/images; the images are committed)
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { costSweep, costSweepSpec, loadPolicy, loadScores, tallyOutcomes, writeChart } from '../src/index.js';

/** Writes docs/images/sweep.png: the cost sweep of examples/scores.csv under examples/policy.yaml. */
export async function drawReadmeImages(outDir: string): Promise<string[]> {
  const sweep = costSweep(tallyOutcomes(loadScores('examples/scores.csv')), loadPolicy('examples/policy.yaml'), { policySource: 'examples/policy.yaml' });
  const path = join(outDir, 'sweep.png');
  await writeChart(costSweepSpec(sweep), path, { scale: 1.5 });
  return [path];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of await drawReadmeImages(resolve(process.argv[2] ?? 'docs/images'))) console.log(`wrote ${path}`);
}
