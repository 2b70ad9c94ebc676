import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

/** Every .ts file under src/, with the src/ files it imports at run time (`import type` left out: it is erased). */
function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(path);
    }
  };
  walk(SRC);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'/gm)) {
      if (m[1] !== undefined) continue;
      const target = resolve(dirname(file), (m[2] as string).replace(/\.js$/, '.ts'));
      if (files.includes(target)) deps.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), deps);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan): the import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('module layering', () => {
  it('the cycle finder finds a cycle (a → b → a) and none in a chain', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]]))).toEqual([['a', 'b']]);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('src/ has no run-time import cycle (it had rotation/archive.ts <-> rotation/record-check.ts)', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('the archive (src/rotation) imports nothing from src/decision: sign-offs build on the archive, not the other way round', () => {
    const graph = importGraph();
    const upward = [...graph].flatMap(([file, deps]) => (file.startsWith('rotation/') ? deps.filter((d) => d.startsWith('decision/')).map((d) => `${file} -> ${d}`) : []));
    expect(upward).toEqual([]);
  });
});
