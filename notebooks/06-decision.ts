/**
 * Notebook 6: the decision the benchmark exists for, over one quarter. The eval narrows the field
 * (shortlist), a named person reads a sample of each finalist's outputs on the rare and negative
 * strata (review), signs the choice off in the archive (signoff, write-once), and the shipped
 * system is then watched week by week (history), through a vendor release and a rotation. All on
 * the bundled SYNTHETIC data. Run: npx tsx notebooks/06-decision.ts [OUTDIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  benchmarkItemsFromManifest,
  defaultReviewStrata,
  formatInterval,
  formatNumber,
  formatTable,
  freezeVersion,
  historyChartSpec,
  loadManifest,
  loadPolicy,
  loadScores,
  loadStrata,
  parseRequirement,
  reviewCsv,
  reviewSample,
  runHistory,
  shortlist,
  signoff,
  verifyArchive,
  writeFileAtomic,
} from '../src/index.js';
import { Notebook } from './lib/notebook.js';

export async function run(outDir: string): Promise<string> {
  const nb = new Notebook(import.meta.url, '06-decision.html', 'A quarter of decisions: shortlist, review, sign-off, and the weekly history');
  nb.md(`
    Three candidates were scored on the same 400 slots (\`examples/scores.csv\`). The benchmark's
    job is not a leaderboard: it is to narrow the field to the candidates that clear the bar, so
    that a named person can read their outputs and own the choice.

    ## The shortlist

    Two kinds of bar. An absolute one, written down beforehand: on the negative controls a
    candidate may invent a clause at most 8% of the time. And a relative one: a finalist may not be
    shown worse than the best by more than 5 points, overall or in any stratum (one-sided paired
    t, Holm across each candidate's checks, so a candidate within the margin everywhere is
    eliminated with probability at most 5%).
  `);

  // #region shortlist
  const scores = loadScores('examples/scores.csv');
  const bar = parseRequirement('negative_control.hallucinationRate<=0.08');
  const list = shortlist(scores, { margin: 0.05, requirements: [bar] });
  const verdicts = list.candidates.map((c) => `${c.model}: ${c.shortlisted ? 'finalist' : `out, ${c.firstReason!.reason}`}`);
  // #endregion
  nb.code('shortlist').output(`finalists: ${list.finalists.join(', ')} (best: ${list.best})\n${verdicts.join('\n')}`);
  nb.md(`
    gamma is out on a per-stratum bar: it invents a clause on one negative control in ten, which
    the overall mean would never show. beta is out because it is distinguishably worse than the
    best overall (and on the rare clauses).

    The same shortlist can be asked in money. With the cost policy \`benchplan sweep\` uses (a
    fabrication costs 8 misses, owned by the Head of Regulatory Risk), a bar can be on expected
    cost per document, and a finalist may not be shown to cost more than the cheapest by more than
    a cost margin, overall or in any stratum. A stratum's cost counts each item in its own
    stratum, over the documents with an item there.
  `);

  // #region shortlist-cost
  const policy = loadPolicy('examples/policy.yaml');
  const priced = shortlist(scores, { margin: 0.2, policy, costMargin: 0.1, requirements: [parseRequirement('overall.cost<=1.2')] });
  const costLines = priced.candidates.map((c) => `${c.model}: ${formatNumber(c.costs[0].estimate)} ${formatInterval(c.costs[0].confidenceInterval)} per document; ${c.shortlisted ? 'finalist' : `out, ${c.firstReason!.reason}`}`);
  // #endregion
  nb.code('shortlist-cost').output(`policy owner: ${priced.policy!.owner}, decided ${priced.policy!.decided}; cheapest: ${priced.cheapest}\n${costLines.join('\n')}`);
  nb.md(`
    beta is within 0.2 of alpha on the score, but its rare clauses cost 0.7 more per document:
    out on a per-stratum cost. gamma fails the absolute cost bar.

    ## The review sample

    Numbers are not the decision. The reviewer reads a seeded sample of each finalist's outputs on
    the strata where a wrong answer costs most: those named like *rare* or *negative* in the strata
    file. With one finalist, the reviewer reads its outputs beside the gold label; here we show the
    first rows of the CSV the reviewer gets (\`benchplan review\` also writes an HTML page).
  `);

  // #region review
  const strata = loadStrata('examples/strata.yaml');
  const toReview = defaultReviewStrata(strata.strata.map((s) => s.name));
  const sample = reviewSample(scores, { finalists: list.finalists, strata: toReview, perStratum: 4, seed: 0, reviewer: 'R. Ahmed' });
  const csv = reviewCsv(sample);
  // #endregion
  nb.code('review').output(`strata to review: ${toReview.join(', ')}\nsample digest ${sample.digest}\n\n${csv.split('\n').slice(0, 5).map((l) => l.replace(sample.digest, '…')).join('\n')}`);
  nb.md(`
    ## The sign-off

    The reviewer signs the choice off in the benchmark's archive. The record names the reviewer,
    the date, the choice, the finalists, the note, the benchmark version, and the SHA-256 of every
    file it rests on. It is written once: a second sign-off of the same id fails. \`verify\` re-checks
    it with the archive, and re-hashes the evidence files.
  `);

  const work = mkdtempSync(join(tmpdir(), 'benchplan-notebook-06-'));
  try {
    // #region signoff
    const archive = join(work, 'archive');
    freezeVersion(archive, benchmarkItemsFromManifest(loadManifest('examples/manifest.yaml')), { version: '2026Q3', date: '2026-07-01' });
    const reviewFile = join(work, 'review.csv');
    writeFileAtomic(reviewFile, csv);
    const signed = signoff(archive, {
      id: '2026Q4-pick',
      reviewer: 'R. Ahmed',
      date: '2026-11-30',
      chosen: list.finalists[0],
      finalists: list.finalists,
      note: 'read the review sample; nothing invented on the negative controls I read',
      evidence: [
        { role: 'scores', path: 'examples/scores.csv' },
        { role: 'strata', path: 'examples/strata.yaml' },
        { role: 'review', path: reviewFile },
      ],
    });
    let second = '';
    try {
      signoff(archive, { id: '2026Q4-pick', reviewer: 'someone else', date: '2026-12-01', chosen: list.finalists[0], finalists: list.finalists, evidence: [] });
    } catch (error) {
      second = (error as Error).message.replace(work, '…');
    }
    const verified = verifyArchive(archive);
    // #endregion
    nb.code('signoff').output(
      `${signed.record.chosen} signed off by ${signed.record.reviewer} on ${signed.record.date}, version ${signed.record.archiveVersion.version}\nrecord digest ${signed.record.recordDigest}\n${signed.record.evidence.map((e) => `  ${e.role}: sha256 ${e.sha256}`).join('\n')}\n\nsecond sign-off of the same id: ${second}\nverify: ${verified.ok ? 'intact' : 'PROBLEMS'}, sign-offs ${verified.signoffs.join(', ')}, ${verified.evidenceFiles} evidence files re-hashed`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  nb.md(`
    ## The weekly history

    After the sign-off the choice ships as \`prod\`, and the benchmark becomes the instrument on the
    weekly dashboard: run on every prompt change, and when a vendor ships. Each week's change is
    paired on the items both weeks scored, and flagged only when it is distinguishable (Holm across
    the headline and the strata). A week whose item set changed is a version boundary: there the
    change is split by drift attribution into the system's part and the instrument's. The last week
    also re-ran the frozen previous version, so the split is exact.
  `);

  // #region history
  const weeks = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
  const weights = strata.strata.map((s) => ({ stratum: s.name, weight: s.traffic! }));
  const reruns = [{ date: '2026-11-23', table: loadScores('examples/history/2026-11-23-rerun.csv') }];
  const history = runHistory(weeks.map((date) => ({ date, table: loadScores(`examples/history/${date}.csv`) })), { weights, attribution: { reruns, seed: 0 } });
  const split = history.runs[3].attribution[0];
  const rows = history.runs.map((r) => {
    const m = r.models[0];
    const flagged = m.changes.filter((c) => c.flagged).map((c) => `${c.scope} ${formatNumber(c.estimate)} ${formatInterval(c.confidenceInterval)}`);
    return [`${r.date}${r.versionBoundary ? ' (new version)' : ''}`, `${formatNumber(m.points[0].estimate)} ${formatInterval(m.points[0].confidenceInterval)}`, flagged.join('; ') || '—'];
  });
  // #endregion
  nb.code('history').output(
    `${formatTable(['week', 'headline', 'distinguishable change'], rows)}\n\nat the version boundary (${split.mode}): change ${formatNumber(split.total)} = system ${formatNumber(split.system.estimate)} ${formatInterval(split.system.confidenceInterval)} + instrument ${formatNumber(split.instrument.estimate)} ${formatInterval(split.instrument.confidenceInterval)}\n${split.verdict.text}`,
  );
  await nb.chart(historyChartSpec(history), 'Each week’s headline and stratum scores with 95% intervals; the ring marks the vendor release week on the rare clauses; the dashed line the rotation.');
  nb.md(`
    The vendor release moved the headline by about ten points, but the rare-clause stratum is the
    one whose change is distinguishable on its own items: that is where to look first. At the
    rotation neither the system nor the test moved measurably: the re-run of the old version
    scores what the week before scored, and the new items are about as hard as the ones they
    replaced. Without the re-run, the items both versions share would have stood in for it.
  `);
  return nb.write(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`wrote ${await run(process.argv[2] ?? 'out/notebooks')}`);
}
