/**
 * Notebook 4: a year of quarterly rotations with drift attribution, on SYNTHETIC data where the
 * truth is planted: one quarter the system regresses, one quarter the rotation makes the test
 * harder, one quarter the system improves. Each quarter, re-running the frozen previous version
 * tells the two causes apart. Run: npx tsx notebooks/04-rotation-year.ts [OUTDIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  applyRotation,
  attributeDrift,
  createRng,
  driftChartSpec,
  formatInterval,
  formatNumber,
  formatPercent,
  formatTable,
  freezeVersion,
  prepareRotation,
  readArchiveVersion,
  rotationPlanSpec,
  scoresFromRows,
  verifyArchive,
  type BenchmarkItem,
  type DriftResult,
  type DriftScores,
  type RotationPlan,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '04-rotation-year.html', 'A year of quarterly rotations, and whose fault a score drop is');
  nb.md(`
    An eval set decays three ways: its items stop being representative, it gets tuned against,
    and candidates saturate it. The defences are to rotate a share of the eval items every
    quarter (retiring saturated and leaked items first, replacing them from recent incidents), to
    keep a dev split for iteration apart from the eval split, and to **freeze every version** so
    it stays runnable. The last defence has the least obvious mechanism: a quarterly score is
    produced by a system and a test together, so a drop has two candidate causes that one number
    cannot separate. Re-running last quarter’s frozen version holds the test still.

    This notebook runs a year of it on a SYNTHETIC world where the truth is known. An item has an
    “ease”, and a system of ability θ passes it when θ + ease > 0. The rotation replaces each
    retired item with an incident of the same ease, so a rotation changes nothing unless the story
    says so. The story of the year:

    - **Q1 → Q2**: nothing changes;
    - **Q2 → Q3**: the system regresses (θ falls by 1.2);
    - **Q3 → Q4**: the system stays, but the incidents rotated in are harder (ease − 3);
    - **Q4 → next Q1**: the system improves (θ rises by 1.0).

    ## The first version
  `);

  // #region world
  const STRATA = ['routine', 'rare_clause', 'past_failure', 'negative_control'];
  const EASE: Record<string, number> = { routine: 1.5, rare_clause: -0.3, past_failure: -0.2, negative_control: 0.8 };
  const VERSIONS = ['2026Q1', '2026Q2', '2026Q3', '2026Q4', '2027Q1'];
  const DATES = ['2026-01-05', '2026-04-06', '2026-07-06', '2026-10-05', '2027-01-04'];
  const ABILITY = [0.5, 0.5, -0.7, -0.7, 0.3]; // the system each quarter
  const HARDER = [0, 0, 0, 3, 0]; // how much harder the incidents rotated into each version are
  const rng = createRng('notebook-04');
  const ease = new Map<string, number>();
  const words = () => Array.from({ length: 12 }, () => `term${rng.nextInt(5000)}`).join(' ');
  const item = (id: string, stratum: string, split: 'eval' | 'dev', added: string, source: string): BenchmarkItem => ({
    item: id, stratum, split, label: 'present', added, source, content: new TextEncoder().encode(words()),
  });
  const first: BenchmarkItem[] = [];
  for (const s of STRATA) {
    for (let k = 0; k < 25; k++) {
      const id = `${s}-${String(k).padStart(2, '0')}`;
      ease.set(id, EASE[s] + rng.nextNormal());
      first.push(item(id, s, k < 20 ? 'eval' : 'dev', '2025Q4', 'template'));
    }
  }
  const archive = mkdtempSync(join(tmpdir(), 'benchplan-notebook-04-'));
  const frozen = freezeVersion(archive, first, { version: VERSIONS[0], date: DATES[0], guideline: 'g1' });
  // #endregion
  nb.code('world').output(`froze ${frozen.version}: ${frozen.items} items (${frozen.strata.map((s) => `${s.stratum} ${s.eval}+${s.dev}`).join(', ')} eval+dev)\nfingerprint ${frozen.fingerprint}`);
  nb.md(`
    ## Four quarters

    Each quarter: score the candidates (this system and a stronger rival) on the current version,
    so the rotation can retire the items every candidate passes (they add nothing to any
    difference); plan the rotation of 20% of the eval items from the quarter’s incidents log,
    stratum by stratum; freeze the new version. Then attribute the change in the system’s score:
    **before** (last quarter’s system on last quarter’s version), **re-run** (this quarter’s system
    on last quarter’s frozen version) and **after** (this quarter’s system on the new version).
  `);

  // #region year
  const passes = (q: number, id: string) => (ABILITY[q] + (ease.get(id) as number) > 0 ? 1 : 0);
  const evalItems = (version: string) => readArchiveVersion(archive, version).items.filter((x) => x.split === 'eval');
  const runOf = (q: number, version: string, label: string): DriftScores => {
    const items = evalItems(version);
    return { source: label, model: `system-${VERSIONS[q]}`, items: items.map((x) => x.item), scores: items.map((x) => passes(q, x.item)), strata: items.map((x) => x.stratum), clusters: null };
  };
  const quarters: Array<{ from: string; to: string; plan: RotationPlan; drift: DriftResult }> = [];
  for (let q = 1; q <= 4; q++) {
    const [from, to] = [VERSIONS[q - 1], VERSIONS[q]];
    const candidates = scoresFromRows(evalItems(from).flatMap((x) => [
      { item: x.item, model: 'system', score: passes(q - 1, x.item) },
      { item: x.item, model: 'rival', score: ABILITY[q - 1] + 1 + (ease.get(x.item) as number) > 0 ? 1 : 0 },
    ]));
    const incidents = STRATA.flatMap((s) => Array.from({ length: 8 }, (_, k) => item(`inc-${to}-${s}-${k}`, s, 'eval', to, 'incident')));
    const { plan } = prepareRotation(archive, from, incidents, { fraction: 0.2, seed: 0, scores: candidates });
    applyRotation(archive, plan, incidents, { version: to, date: DATES[q] });
    // The incidents copy the ease of the items they replace (harder when the story says so).
    for (const s of STRATA) {
      const out = plan.retire.filter((x) => x.stratum === s).map((x) => x.item).sort();
      const inn = plan.add.filter((x) => x.stratum === s).map((x) => x.item).sort();
      inn.forEach((id, k) => ease.set(id, (ease.get(out[k]) as number) - HARDER[q]));
    }
    const drift = attributeDrift(
      { before: runOf(q - 1, from, 'before'), rerun: runOf(q, from, 're-run'), after: runOf(q, to, 'after') },
      { previousVersion: from, currentVersion: to, method: 'percentile', nResamples: 1999, seed: `notebook-04:${q}` },
    );
    quarters.push({ from, to, plan, drift });
  }
  // #endregion
  const planted = ['nothing', 'system worse', 'test harder', 'system better'];
  nb.code('year').output(
    formatTable(
      ['quarter', 'planted', 'retired (saturated / leaked / oldest)', 'score before → after', 'system change', 'test change', 'verdict'],
      quarters.map(({ from, to, plan, drift }, k) => [
        `${from} → ${to}`,
        planted[k],
        `${plan.retire.length} (${['saturated', 'leaked', 'oldest'].map((r) => plan.retire.filter((x) => x.reason === r).length).join(' / ')})`,
        `${formatPercent(drift.means.before)} → ${formatPercent(drift.means.after)}`,
        `${formatNumber(drift.model.estimate)} ${formatInterval(drift.model.confidenceInterval)}`,
        `${formatNumber(drift.instrument.estimate)} ${formatInterval(drift.instrument.confidenceInterval)}`,
        `system ${drift.verdict.system}, test ${drift.verdict.test}`,
      ]),
    ),
  );
  await nb.chart(
    driftChartSpec({ periods: quarters.map(({ from, to, drift }) => ({ label: `${from} → ${to}`, model: drift.model, instrument: drift.instrument })) }),
    'Each quarter’s change in the system’s score, split into the part due to the system and the part due to the test.',
  );
  const harder = quarters[2].drift;
  nb.md(`
    Every verdict matches what was planted. In ${quarters[2].from} → ${quarters[2].to} the dashboard
    number fell from ${formatPercent(harder.means.before)} to ${formatPercent(harder.means.after)}:
    looked at alone, a regression. The re-run on the frozen ${quarters[2].from} shows the system
    standing where it was (${formatNumber(harder.model.estimate)}), and the whole drop belongs to the
    test (${formatNumber(harder.instrument.estimate)}). In words: “${harder.verdict.text}”.
    Neither reading is available without the archive, which is why retired items are versioned
    rather than deleted.

    ## One rotation, by stratum
  `);
  const last = quarters[3];
  const short = last.plan.strata.filter((s) => s.shortBy > 0);
  await nb.chart(
    rotationPlanSpec({ ...last.plan, to: last.to }),
    `The rotation ${last.from} → ${last.to}: retired items by reason (saturated first, then leaked, then the oldest) and the incidents that replace them.`,
  );
  nb.md(
    short.length > 0
      ? `In ${short.map((s) => s.stratum).join(', ')} the quarter’s incidents log ran short, so ${short.reduce((t, s) => t + s.shortBy, 0)} of the wanted retirements were kept instead: every stratum keeps its count, and the plan says so.`
      : 'Every stratum keeps its count.',
  );

  // #region verify
  const check = verifyArchive(archive);
  const verified = `${check.ok ? 'intact' : 'NOT intact'}: ${check.versions.length} versions (${check.versions.join(', ')}), ${check.objects} content files re-hashed, ${check.problems.length} problems`;
  rmSync(archive, { recursive: true, force: true });
  // #endregion
  nb.code('verify').output(verified);
  nb.md(`
    Items are stored once by content hash and shared across versions, so keeping a year of
    versions costs little more than keeping one, and a version that anybody edited after the fact
    no longer verifies.
  `);
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await run(process.argv[2] ?? 'out/notebooks'));
}
