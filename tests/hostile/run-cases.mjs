// Runs CLI cases in one process, in order, printing one JSON line as each starts and ends, so
// the parent can time each case and name the one in flight if the process must be killed.
// Usage: node run-cases.mjs CASES.json   (CASES: [{ name, args, cwd }]; needs the build in dist/)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const { run } = await import(resolve(root, 'dist', 'cli', 'program.js'));
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const c of cases) {
  process.stdout.write(`${JSON.stringify({ start: c.name })}\n`);
  let stderr = '';
  const t0 = performance.now();
  process.chdir(c.cwd);
  let code;
  try {
    code = await run(['node', 'benchplan', ...c.args], { stdout: () => {}, stderr: (text) => (stderr += text), stderrIsTTY: false });
  } catch (error) {
    code = -1;
    stderr += String(error?.stack ?? error);
  }
  process.stdout.write(`${JSON.stringify({ end: c.name, code, stderr, ms: performance.now() - t0 })}\n`);
}
