import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { BenchmarkItem } from '../../src/rotation/content.js';

/** A fresh temporary folder, removed after the test. */
const made: string[] = [];
export function tempDir(prefix = 'benchplan-rotation-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterEach(() => {
  while (made.length) rmSync(made.pop() as string, { recursive: true, force: true });
});

/** A benchmark item from text. */
export function item(id: string, stratum: string, text: string, extra: Partial<Omit<BenchmarkItem, 'content'>> = {}): BenchmarkItem {
  return { item: id, stratum, split: 'eval', ...extra, content: Buffer.from(text, 'utf8') };
}

/** A small benchmark: `perStratum` eval items in each stratum plus one dev item each. */
export function smallBenchmark(strata = ['routine', 'rare_clause'], perStratum = 5): BenchmarkItem[] {
  const out: BenchmarkItem[] = [];
  for (const s of strata) {
    for (let k = 1; k <= perStratum; k++) out.push(item(`${s}-e${k}`, s, `Eval item ${k} of stratum ${s}: clause number ${k * 7} applies here.`, { label: 'present', added: `2026Q${1 + (k % 3)}` }));
    out.push(item(`${s}-d1`, s, `Dev item of stratum ${s}, used for prompt iteration only.`, { split: 'dev', label: 'present' }));
  }
  return out;
}
