import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPage } from './docs/script.js';
import { tempDir } from './helpers/files.js';

// `npm run demo` is the README's first command: it must keep running every step on the bundled
// examples (npm test builds dist/ first, as the demo script does).
const root = resolve(import.meta.dirname, '..');

describe('the demo', () => {
  it('runs every step and writes the report and the notebooks; the README then runs as written beside its outputs', async () => {
    const cwd = tempDir('benchplan-demo-');
    const out = join(cwd, 'out');
    const result = spawnSync(process.execPath, ['scripts/demo.mjs', out], { cwd: root, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/demo: ran \d+ steps; outputs in /);
    for (const file of ['report.html', 'adjudicate.csv', 'imported.csv', 'notebooks/index.html', 'archive/versions/2026Q4.json']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
    // A newcomer who ran the demo first then types the README's commands in the same folder (the
    // README's own run in a fresh folder is tests/docs/pages.test.ts): one demo run serves both.
    symlinkSync(join(root, 'examples'), join(cwd, 'examples'));
    const problems = await runPage('README.md', cwd);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(readdirSync(cwd).filter((f) => f !== 'examples' && f !== 'out'), 'README.md wrote outside out/').toEqual([]);
  }, 300_000);

  it('refuses to clear a folder it did not make', () => {
    const folder = tempDir('benchplan-demo-');
    writeFileSync(join(folder, 'precious.txt'), 'keep me');
    const result = spawnSync(process.execPath, ['scripts/demo.mjs', folder], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not empty and was not made by the demo');
    expect(readFileSync(join(folder, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});
