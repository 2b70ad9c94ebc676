import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/data/canonical-json.js';
import { InputError } from '../../src/data/errors.js';
import type { LabelAnswer, LabelPoolItem } from '../../src/label/loop.js';
import { LABEL_LOG_FILE, labelLineDigest, labelSessionRecords, readLabelLog, recordLabelSession, replayLabelLog, startLabelSession, type LabelAnswersRecord, type LabelHeader } from '../../src/label/session.js';
import { createRng } from '../../src/random/index.js';
import { tempDir } from '../helpers/files.js';

/** A small pool: 60 items, a third with different outputs; the candidate is right more often where they differ. */
function pool(): { items: LabelPoolItem[]; truth: Map<string, LabelAnswer> } {
  const rng = createRng('label-session-test');
  const items: LabelPoolItem[] = [];
  const truth = new Map<string, LabelAnswer>();
  for (let i = 0; i < 60; i++) {
    const id = `i${String(i).padStart(2, '0')}`;
    const same = i % 3 !== 0;
    const b = rng.nextFloat() < 0.7 ? 1 : 0;
    const c = same ? b : rng.nextFloat() < 0.8 ? 1 : 0;
    items.push({ id, same, judge: c - b === 0 ? 0 : (c - b) * 0.8, stratum: i < 30 ? 'routine' : 'rare' });
    truth.set(id, { id, baseline: b, candidate: c });
  }
  return { items, truth };
}

function header(items: LabelPoolItem[], over: Partial<LabelHeader['options']> = {}): LabelHeader {
  return {
    kind: 'header',
    format: 'benchplan-label-session',
    formatVersion: 1,
    tool: 'test',
    pool: { path: 'pool.csv', sha256: '0'.repeat(64), items: items.length },
    baseline: 'current',
    candidate: 'candidate',
    judge: { source: 'judge', kind: 'column', sha256: null },
    equality: 'normalised on column "output"',
    options: { margin: 0.1, budget: 40, seed: 3, batchSize: 8, confidence: 0.95, scoreRange: [0, 1], ...over },
    items,
  };
}

let files = 0;
function answersFor(truth: Map<string, LabelAnswer>, batch: number, toLabel: readonly string[]): LabelAnswersRecord {
  const answers = toLabel.map((id) => ({ ...(truth.get(id) as LabelAnswer) }));
  return { kind: 'answers', batch, file: `answers-${batch}.csv`, sha256: `${String((files += 1)).padStart(4, '0')}${'a'.repeat(60)}`, answers };
}

/** Runs a session to its end with the truth as the annotator; returns the folder. */
function runToEnd(dir: string, items: LabelPoolItem[], truth: Map<string, LabelAnswer>, over: Partial<LabelHeader['options']> = {}): string {
  let { session } = startLabelSession(dir, header(items, over));
  for (let k = 0; session.open !== null; k++) {
    if (k > 100) throw new Error('no end');
    ({ session } = recordLabelSession(dir, answersFor(truth, session.open.batch, session.open.toLabel)));
  }
  return dir;
}

describe('label session log', () => {
  it('start writes the header and the first proposal, chained; the log reads back and replays', () => {
    const { items } = pool();
    const dir = tempDir();
    const { log, session } = startLabelSession(dir, header(items));
    expect(log.lines.map((l) => l.kind)).toEqual(['header', 'proposal']);
    expect(log.lines[0].prev).toBeNull();
    expect(log.lines[1].prev).toBe(log.lines[0].digest);
    expect(session.open?.batch).toBe(1);
    expect(session.open?.toLabel.length).toBeGreaterThan(0);
    const again = readLabelLog(dir);
    expect(again.text).toBe(readFileSync(join(dir, LABEL_LOG_FILE), 'utf8'));
    expect(canonicalJson(replayLabelLog(again).open)).toBe(canonicalJson(session.open));
    // Write-once: the log is read-only on disk; a writer replaces it whole.
    expect(statSync(join(dir, LABEL_LOG_FILE)).mode & 0o777).toBe(0o444);
  });

  it('records batches until a verdict; every step only appends; replay reproduces every line', () => {
    const { items, truth } = pool();
    const dir = tempDir();
    let { log, session } = startLabelSession(dir, header(items));
    let steps = 0;
    while (session.open !== null) {
      const before = log.text;
      ({ log, session } = recordLabelSession(dir, answersFor(truth, session.open.batch, session.open.toLabel)));
      expect(log.text.startsWith(before)).toBe(true);
      steps += 1;
      expect(steps).toBeLessThan(100);
    }
    expect(session.ended).toBe(true);
    expect(['pass', 'fail', 'inconclusive']).toContain(session.status?.verdict);
    expect(session.status?.labelsUsed).toBeLessThanOrEqual(40);
    const replayed = replayLabelLog(readLabelLog(dir));
    expect(canonicalJson(replayed.history)).toBe(canonicalJson(session.history));
    // The same header and answers regenerate the same records: the log is a function of them.
    const regenerated = labelSessionRecords(log.header, session.answers);
    expect(regenerated.records.map((r) => canonicalJson(r))).toEqual(log.lines.slice(1).map(({ seq: _s, prev: _p, digest: _d, ...r }) => canonicalJson(r)));
    // A finished session takes no more answers, and nothing is appended.
    expect(() => recordLabelSession(dir, answersFor(truth, 99, ['i00']))).toThrow(/the session has ended/);
    expect(readFileSync(join(dir, LABEL_LOG_FILE), 'utf8')).toBe(log.text);
  });

  it('the same pool, seed and answers give the same log bytes in two folders; another seed proposes otherwise', () => {
    const { items, truth } = pool();
    files = 0;
    const a = readFileSync(join(runToEnd(tempDir(), items, truth), LABEL_LOG_FILE), 'utf8');
    files = 0;
    const b = readFileSync(join(runToEnd(tempDir(), items, truth), LABEL_LOG_FILE), 'utf8');
    files = 0;
    expect(a).toBe(b);
    const c = startLabelSession(tempDir(), header(items, { seed: 4 })).session.open;
    const d = startLabelSession(tempDir(), header(items)).session.open;
    expect(canonicalJson(c?.draws)).not.toBe(canonicalJson(d?.draws));
  });

  it('refuses bad or late answers with the file and nothing appended', () => {
    const { items, truth } = pool();
    const dir = tempDir();
    const { session } = startLabelSession(dir, header(items));
    const open = session.open!;
    const text = () => readFileSync(join(dir, LABEL_LOG_FILE), 'utf8');
    const before = text();
    const notAsked = items.find((x) => !open.toLabel.includes(x.id))!.id;
    const cases: Array<[LabelAnswersRecord, RegExp]> = [
      [{ ...answersFor(truth, 1, open.toLabel), batch: 2 }, /answers-1\.csv: batch: is for batch 2, which has not been proposed; the open batch is 1 \(got 2\)/],
      [{ ...answersFor(truth, 1, open.toLabel), answers: [...answersFor(truth, 1, open.toLabel).answers, { id: notAsked, baseline: 1, candidate: 1 }] }, new RegExp(`answers-1\\.csv: .*"${notAsked}"`)],
      [{ ...answersFor(truth, 1, open.toLabel), answers: answersFor(truth, 1, open.toLabel).answers.map((a, k) => (k === 0 ? { ...a, candidate: 2 } : a)) }, /answers-1\.csv: .*2/],
    ];
    for (const [answers, message] of cases) {
      expect(() => recordLabelSession(dir, answers)).toThrow(InputError);
      expect(() => recordLabelSession(dir, answers)).toThrow(message);
      expect(text()).toBe(before);
    }
    const first = answersFor(truth, 1, open.toLabel);
    const next = recordLabelSession(dir, first).session;
    expect(() => recordLabelSession(dir, first)).toThrow(/was recorded already as the answers of batch 1/);
    if (next.open !== null) expect(() => recordLabelSession(dir, { ...answersFor(truth, 1, open.toLabel) })).toThrow(/is for batch 1, whose answers are recorded already; the open batch is \d+/);
  });

  it('a second start in the folder is refused', () => {
    const { items } = pool();
    const dir = tempDir();
    startLabelSession(dir, header(items));
    expect(() => startLabelSession(dir, header(items))).toThrow(/holds a session already/);
  });

  it('an edited log is refused at the line and field that do not check', () => {
    const { items, truth } = pool();
    const dir = runToEnd(tempDir(), items, truth);
    const path = join(dir, LABEL_LOG_FILE);
    const original = readFileSync(path, 'utf8');
    const lines = original.trimEnd().split('\n');
    const answersLine = lines.findIndex((l) => l.includes('"kind":"answers"'));
    const rewrite = (text: string) => {
      chmodSync(path, 0o644);
      writeFileSync(path, text);
    };
    // A label changed in place: its digest no longer matches.
    const flipped = lines[answersLine].replace(/"candidate":([01])/, (_m, x: string) => `"candidate":${1 - Number(x)}`);
    rewrite([...lines.slice(0, answersLine), flipped, ...lines.slice(answersLine + 1)].join('\n') + '\n');
    expect(() => readLabelLog(dir)).toThrow(new RegExp(`log\\.jsonl:${answersLine + 1}: digest does not match the line`));
    // The same edit with the whole chain recomputed: the chain checks, the replay does not.
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const edited = JSON.parse(flipped) as Record<string, unknown>;
    records[answersLine] = edited;
    let prev: string | null = null;
    const rechained = records.map((r) => {
      const { seq, prev: _p, digest: _d, ...body } = r;
      const digest = labelLineDigest(body as never, seq as number, prev);
      const line = canonicalJson({ ...body, seq, prev, digest });
      prev = digest;
      return line;
    });
    rewrite(`${rechained.join('\n')}\n`);
    expect(() => replayLabelLog(readLabelLog(dir))).toThrow(/log\.jsonl:\d+: .*differs from the replay/);
    // A line removed, a log cut mid-line, a line that is not JSON.
    rewrite([...lines.slice(0, answersLine), ...lines.slice(answersLine + 1)].join('\n') + '\n');
    expect(() => readLabelLog(dir)).toThrow(new RegExp(`log\\.jsonl:${answersLine + 1}: seq must be ${answersLine + 1}`));
    rewrite(original.slice(0, original.length - 20));
    expect(() => readLabelLog(dir)).toThrow(/ends in the middle of a line/);
    rewrite(`${lines[0]}\nnot json\n`);
    expect(() => readLabelLog(dir)).toThrow(/log\.jsonl:2: is not a JSON object/);
    // The last step not written whole (only possible by hand: the writer replaces the log whole).
    rewrite(`${lines.slice(0, -1).join('\n')}\n`);
    expect(() => replayLabelLog(readLabelLog(dir))).toThrow(/the last step was not written whole/);
  });

  it('a writer holding the lock makes another refuse, with nothing appended; a stopped writer\'s temporary file is cleaned up', () => {
    const { items, truth } = pool();
    const dir = tempDir();
    const { session } = startLabelSession(dir, header(items));
    const before = readFileSync(join(dir, LABEL_LOG_FILE), 'utf8');
    // A live process (this test's parent) holds the lock.
    writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), since: '2026-12-01T00:00:00.000Z' }));
    expect(() => recordLabelSession(dir, answersFor(truth, 1, session.open!.toLabel))).toThrow(/another benchplan label is writing this session \(PID \d+/);
    expect(readFileSync(join(dir, LABEL_LOG_FILE), 'utf8')).toBe(before);
    // A lock left by a process that is gone is stale: taken over.
    writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: '2026-12-01T00:00:00.000Z' }));
    writeFileSync(join(dir, `.${LABEL_LOG_FILE}.999.1.tmp`), before.slice(0, 100));
    expect(readLabelLog(dir).leftovers).toEqual([`.${LABEL_LOG_FILE}.999.1.tmp`]);
    recordLabelSession(dir, answersFor(truth, 1, session.open!.toLabel));
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });
});
