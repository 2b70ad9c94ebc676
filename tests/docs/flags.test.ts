import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS, commands, withFlagTable } from '../../scripts/docs-flags.js';

// Every command `benchplan --help` lists has a page docs/COMMAND.md whose flag table is the one the
// command definitions give now: a flag added, renamed or dropped without the page fails here.
// (`npx tsx scripts/docs-flags.ts` rewrites the tables.)
describe('docs flag tables', () => {
  const all = commands();
  it('lists more than 15 commands', () => expect(all.size).toBeGreaterThan(15));
  for (const [name, command] of all) {
    it(`docs/${name}.md has the current flag table of ${name}`, () => {
      const path = join(DOCS, `${name}.md`);
      expect(existsSync(path), `docs/${name}.md is missing`).toBe(true);
      const page = readFileSync(path, 'utf8');
      expect(page.includes(`<!-- flags: ${name} `), `docs/${name}.md has no flag table`).toBe(true);
      expect(withFlagTable(page, command), `docs/${name}.md: the flag table is stale (run npx tsx scripts/docs-flags.ts)`).toBe(page);
    });
  }
});
