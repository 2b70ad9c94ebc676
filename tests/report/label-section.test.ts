import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderChartSvg } from '../../src/charts/index.js';
import { labelSequenceSpec } from '../../src/charts/label-sequence.js';
import { readLabelLog, recordLabelSession, replayLabelLog, startLabelSession, type LabelHeader } from '../../src/label/session.js';
import { labelSection } from '../../src/report/sections/label.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';

/** A finished session on a 40-item pool: the candidate right where they differ, so it passes. */
function finishedSession(): string {
  const dir = tempDir();
  const items = Array.from({ length: 40 }, (_, i) => ({ id: `i${i}`, same: i % 4 !== 0, judge: i % 4 === 0 ? 0.6 : 0, stratum: i < 20 ? 'a' : 'b' }));
  const header: LabelHeader = {
    kind: 'header', format: 'benchplan-label-session', formatVersion: 1, tool: 'test',
    pool: { path: 'pool.csv', sha256: '0'.repeat(64), items: items.length }, baseline: 'base', candidate: 'cand',
    judge: null, equality: 'normalised on column "output"', options: { margin: 0.1, budget: 40, seed: 1, batchSize: 10 }, items,
  };
  let { session } = startLabelSession(dir, header);
  for (let k = 0; session.open !== null && k < 100; k++) {
    const answers = session.open.toLabel.map((id) => ({ id, baseline: 0, candidate: Number(id.slice(1)) % 4 === 0 ? 1 : 0 }));
    ({ session } = recordLabelSession(dir, { kind: 'answers', batch: session.open.batch, file: `b${k}.csv`, sha256: String(k).padStart(64, '0'), answers }));
  }
  return dir;
}

describe('report: the labelling-session section', () => {
  it('shows every status, and where the labels went adds up to the log', async () => {
    const dir = finishedSession();
    const log = readLabelLog(dir);
    const session = replayLabelLog(log);
    const { section } = labelSection({ log, session });
    expect(section.id).toBe('label');
    const [over, where] = section.tables;
    expect(over.rows).toHaveLength(session.history.length);
    expect(over.rows[over.rows.length - 1][5]).toBe(session.status?.verdict);
    const sum = (k: number) => where.rows.reduce((s, r) => s + Number(r[k]), 0);
    expect(sum(2)).toBe(40);
    expect(sum(3)).toBe(session.status?.labelsUsed);
    expect(sum(5)).toBe(log.lines.filter((l) => l.kind === 'proposal').reduce((s, l) => s + (l as { draws: unknown[] }).draws.length, 0));
    // Agreeing items scored alike here: the audit found nothing.
    expect(where.rows.filter((r) => r[1] === 'same').every((r) => r[6] === '0')).toBe(true);
    expect(section.paragraphs[0]).toMatch(new RegExp(`ended ${session.status?.verdict.toUpperCase()} after \\d+ of 40 labels`));
    const svg = await renderChartSvg(section.figure!.spec);
    expect(svg).toMatch(/^<svg/);
  });

  it('the chart leaves out unknown bounds and needs a status', () => {
    const spec = labelSequenceSpec({ points: [{ labelsUsed: 5, estimate: null, lower: null, upper: 0.5 }], margin: 0.05, confidenceLevel: 0.95, difference: 'B − A' }) as unknown as { layer: Array<{ data: { values: unknown[] } }> };
    expect(spec.layer[0].data.values).toEqual([{ labels: 5, estimate: null, lower: null, upper: 0.5 }]);
    expect(() => labelSequenceSpec({ points: [], margin: 0, confidenceLevel: 0.95, difference: 'x' })).toThrow(/needs at least one status/);
  });

  it('benchplan report --label-session adds the section; a folder without a session is refused', async () => {
    const dir = finishedSession();
    const out = join(tempDir(), 'r.html');
    const r = await runCli(['report', '--scores', 'examples/scores.csv', '--label-session', dir, '--resamples', '199', '-o', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).sections.map((s: { id: string }) => s.id)).toContain('label');
    expect(readFileSync(out, 'utf8')).toContain('Where the labels went');
    const bad = await runCli(['report', '--scores', 'examples/scores.csv', '--label-session', tempDir(), '-o', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/holds no session log \(log\.jsonl\): start one with benchplan label start/);
  });
});
