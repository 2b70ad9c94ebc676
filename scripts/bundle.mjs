// Bundles the built CLI (dist/cli/main.js) and the bootstrap worker into dist/cli/bundle/ with
// esbuild, so `benchplan` loads a few files instead of ~300 ES modules: start-up is dominated by
// module resolution, not by the work (issue #19). Heavy modules the code imports dynamically
// (vega, vega-lite, the import formats) stay in chunks loaded only when a command needs them.
// @resvg/resvg-js is a native addon and stays external.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Start-up (issue #19): a Node built-in module that a command only needs now and then is loaded on
// first use instead of at start-up. Each costs milliseconds to evaluate, every run: child_process
// (commander requires it for executable subcommands, which benchplan has none of; it pulls in net and
// the stream machinery), crypto (seedrandom's auto-seed, which a seeded run never calls, and the
// hashes of a few commands) and worker_threads (the bootstrap pool, used above a size threshold).
// - require('x') in a bundled CommonJS dependency gets a Proxy that requires the real module on the
//   first property read.
// - `import { f, C } from 'node:x'` in benchplan's own code gets a module of forwarders, one per
//   function the built-in exports: a call or `new` goes to the real function or class, loaded on
//   first use. Only when every imported name is a function of the built-in and no `instanceof` or
//   other read of it as a value is possible from the text; otherwise the import stays as it is.
// The bootstrap worker's own entry keeps its imports (parentPort is a value, and it is not start-up).
const LAZY_BUILTINS = ['child_process', 'crypto', 'worker_threads'];
// Packages whose ES build does work at load (fflate and fzstd build their decoding tables, and fflate
// requires worker_threads): benchplan's imports of them get the same forwarders, over the package's
// CommonJS build bundled in a wrapper that runs on first use (only the import formats' ZIP reader).
const LAZY_PACKAGES = ['fflate', 'fzstd'];
const requireBuiltin = createRequire(import.meta.url);
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    pluginBuild.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join('|')})$`) }, (args) => {
      if (args.kind !== 'import-statement' || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return importedFunctionsOnly(args.importer, args.path) ? { path: args.path, namespace: 'lazy-import' } : undefined;
    });
    pluginBuild.onResolve({ filter }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (args.kind === 'require-call') return { path: name, namespace: 'lazy-require' };
      if (args.kind !== 'import-statement' || /[\\/]bootstrap[\\/]worker\.js$/.test(args.importer)) return undefined;
      return importedFunctionsOnly(args.importer, name) ? { path: name, namespace: 'lazy-import' } : undefined;
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
      contents: `let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:${args.path}'))[key] });`,
      loader: 'js',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-import' }, (args) => {
      const builtin = LAZY_BUILTINS.includes(args.path);
      const real = requireBuiltin(builtin ? `node:${args.path}` : args.path);
      // A built-in through Node's require; a package through the bundle's own (esbuild bundles it).
      const lines = builtin
        ? [`import { createRequire } from 'node:module';`, `let real;`, `const load = () => (real ??= createRequire(import.meta.url)('node:${args.path}'));`]
        : [`let real;`, `const load = () => (real ??= require('${args.path}'));`];
      for (const key of Object.keys(real)) {
        if (typeof real[key] !== 'function' || !/^[A-Za-z_$][\w$]*$/.test(key)) continue;
        lines.push(`export function ${key}(...args) { const f = load().${key}; return new.target ? Reflect.construct(f, args, f) : f.apply(this, args); }`);
      }
      return { contents: lines.join('\n'), loader: 'js', resolveDir: root };
    });
  },
};

/** Whether every name `importer` imports from node:`name` is a function of it, used only as `f(...)` or `new f(...)` (or as a type, gone after tsc). */
function importedFunctionsOnly(importer, name) {
  const text = readFileSync(importer, 'utf8');
  const statements = [...text.matchAll(new RegExp(`import\\s*([^;]*?)\\s*from\\s*['"]${LAZY_BUILTINS.includes(name) ? '(?:node:)?' : ''}${name}['"]`, 'g'))];
  if (statements.length === 0) return false;
  const real = requireBuiltin(LAZY_BUILTINS.includes(name) ? `node:${name}` : name);
  for (const [, clause] of statements) {
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (braces === null) return false; // a default or namespace import: reads values
    for (const part of braces[1].split(',').map((x) => x.trim()).filter(Boolean)) {
      const [imported, local = imported] = part.split(/\s+as\s+/);
      if (typeof real[imported] !== 'function') return false;
      // Every other mention of the local name must be a call or a construction.
      const mentions = [...text.matchAll(new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))].length;
      const uses = [...text.matchAll(new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}\\s*\\(`, 'g'))].length;
      if (mentions - 1 !== uses) return false;
    }
  }
  return true;
}

const outdir = join(root, 'dist', 'cli', 'bundle');
rmSync(outdir, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
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
  metafile: true,
  logLevel: 'warning',
};
// Two builds. The command line (main.js) loads only the command it names, each command's code in
// chunks of its own (one build over every command, so shared code is shared). The whole program
// (--help, `help`, a misspelt command: every command registered) is a build of its own, whose
// static code is one file, program/program.js: a hundred chunks cost more to load than one.
const wholeProgram = {
  name: 'whole-program',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/program\.js$/ }, (args) =>
      /[\\/]cli[\\/]command-line\.js$/.test(args.importer) ? { path: './program/program.js', external: true } : undefined,
    );
  },
};
const result = await build({
  ...common,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/bootstrap/worker.js' },
  outdir,
  plugins: [lazyBuiltins, wholeProgram],
});
const whole = await build({
  ...common,
  entryPoints: { program: 'dist/cli/program.js' },
  outdir: join(outdir, 'program'),
  plugins: [lazyBuiltins],
});
// What each output file holds (inputs and their bytes): to see what a command loads at start-up.
writeFileSync(join(root, 'dist', 'cli', 'bundle-meta.json'), JSON.stringify({ inputs: { ...result.metafile.inputs, ...whole.metafile.inputs }, outputs: { ...result.metafile.outputs, ...whole.metafile.outputs } }));
