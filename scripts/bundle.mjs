// Bundles the built CLI (dist/cli/main.js) and the bootstrap worker into dist/cli/bundle/ with
// esbuild, so `benchplan` loads a few files instead of ~300 ES modules: start-up is dominated by
// module resolution, not by the work (issue #19). Heavy modules the code imports dynamically
// (vega, vega-lite, the import formats) stay in chunks loaded only when a command needs them.
// @resvg/resvg-js is a native addon and stays external.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/bootstrap/worker.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@resvg/resvg-js'],
  // Bundled CommonJS dependencies call require(); give the ES module one.
  banner: { js: "import { createRequire as __benchplanRequire } from 'node:module'; const require = __benchplanRequire(import.meta.url);" },
  // Whitespace and syntax only: identifiers stay, so a bug's stack trace still names functions.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
