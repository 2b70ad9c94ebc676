// Bundles the built CLI (dist/, from `npm run build`) into ONE JavaScript file for the Python package:
// python/src/benchplan/_engine/benchplan.mjs, run by the user's `node` (issue #28). Beside it a
// package.json naming benchplan and its version, because the CLI finds its version (and the
// bootstrap its worker) by walking up to that manifest.
//
// One file, so the wheel carries no node_modules: every pure-JavaScript dependency is inlined and
// code splitting is off (esbuild then inlines each dynamic import()). The bootstrap's worker threads
// run this same file: its entry starts the CLI on the main thread and the worker's message loop on
// a worker thread, and workerScript() is pointed at the file itself.
//
// Not shipped, on purpose: @resvg/resvg-js (a native addon, one binary per platform, only for PNG)
// and the DejaVu fonts (10 MB, only for charts). A chart from Python fails with a clear message
// (the stub below, and the engine runner in python/src/benchplan/_engine.py); every number-producing
// command works.
//
// Usage: node scripts/bundle-python.mjs [--out DIR]   (after `npm run build`)
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const outdir = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'python', 'src', 'benchplan', '_engine');
const MAIN = 'dist/cli/main.js';
const WORKER = 'dist/bootstrap/worker.js';

for (const entry of [MAIN, WORKER]) {
  if (!existsSync(join(root, entry))) {
    console.error(`bundle-python: ${entry} is missing: run \`npm run build\` first (the Python engine is bundled from the built CLI)`);
    process.exit(2);
  }
}

const noNativeAddon = {
  name: 'no-native-addon',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@resvg\/resvg-js$/ }, () => ({ path: 'resvg', namespace: 'python-stub' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'python-stub' }, () => ({
      contents:
        "export class Resvg { constructor() { throw new Error('benchplan (Python): PNG charts need the native @resvg/resvg-js, which the Python package does not ship; use the npm package (npx benchplan … --chart FILE.png)'); } }",
      loader: 'js',
    }));
  },
};

const entry = [
  "import { isMainThread } from 'node:worker_threads';",
  `if (isMainThread) await import('./${MAIN}');`,
  `else await import('./${WORKER}');`,
].join('\n');

const tmp = `${outdir}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const file = join(tmp, 'benchplan.mjs');
await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'python-engine-entry.js', loader: 'js' },
  absWorkingDir: root,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: file,
  plugins: [noNativeAddon],
  banner: {
    js: [
      "import { createRequire as __benchplanRequire } from 'node:module';",
      "import { fileURLToPath as __benchplanPath } from 'node:url';",
      'const require = __benchplanRequire(import.meta.url);',
      'const __benchplanSelf = __benchplanPath(import.meta.url);',
    ].join(' '),
  },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

// Worker threads run this file: workerScript() returns it instead of looking for dist/ under a
// package root. Refuse to produce an engine whose threads would look for files that are not there.
let text = readFileSync(file, 'utf8');
const hook = /function workerScript\(\)\{/g;
const found = text.match(hook)?.length ?? 0;
if (found !== 1) {
  console.error(`bundle-python: expected one workerScript() in the bundle, found ${found}: the bootstrap's worker lookup changed; update scripts/bundle-python.mjs`);
  rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
}
text = text.replace(hook, 'function workerScript(){return __benchplanSelf;');
writeFileSync(file, text);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
writeFileSync(
  join(tmp, 'package.json'),
  `${JSON.stringify({ name: 'benchplan', version: pkg.version, private: true, type: 'module', description: 'The benchplan CLI bundled for the Python package (scripts/bundle-python.mjs); not an npm package.', engines: pkg.engines }, null, 2)}\n`,
);
rmSync(outdir, { recursive: true, force: true });
renameSync(tmp, outdir);
console.log(`bundle-python: ${join(outdir, 'benchplan.mjs')} (${(text.length / 1e6).toFixed(1)} MB, benchplan ${pkg.version})`);
