import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, freshFolder, root, runPage } from './script.js';

// Every page of docs/ and the README runs as a script (tests/docs/script.ts), each in a fresh
// folder of its own and all at once: the pages do not depend on each other. (The README's second
// run, in the folder where `npm run demo` wrote its outputs, is in tests/demo.test.ts.)
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** What a page may leave in its folder: the examples link and the output folders its commands name. */
function leftovers(cwd: string): string[] {
  return readdirSync(cwd).filter((f) => f !== 'examples' && f !== 'out');
}

describe.concurrent('the docs run as written', () => {
  it('the CLI is built', () => expect(existsSync(bin)).toBe(true));
  for (const page of pages) {
    it(`${page}`, async () => {
      const cwd = freshFolder();
      const problems = await runPage(page, cwd);
      expect(problems, problems.join('\n')).toEqual([]);
      expect(leftovers(cwd), `${page} wrote outside out/`).toEqual([]);
    }, 300_000);
  }
});
