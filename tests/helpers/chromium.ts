import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/** A Chromium the browser tests can launch, and where it came from. */
export interface ChromiumBinary {
  executablePath: string;
  /** Extra environment for the browser process (the bundled libraries' folder). */
  env: Record<string, string>;
  /** Flags this build needs beyond the common headless ones. */
  args: string[];
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Finds a Chromium without needing one on the machine: $CHROMIUM_PATH, else Debian's
 * /usr/bin/chromium, else the binary the npm package @sparticuz/chromium ships (a devDependency),
 * unpacked once into node_modules/.cache together with the libnss3 / libnspr4 / libexpat it
 * carries for machines that lack them (pointed at through LD_LIBRARY_PATH).
 * @throws {Error} when none of the three can be had: the browser suites must fail, not skip.
 */
export function findChromium(): ChromiumBinary {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return { executablePath: fromEnv, env: {}, args: [], source: 'CHROMIUM_PATH' };
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, env: {}, args: [], source: 'system' };
  return unpackSparticuz();
}

function unpackSparticuz(): ChromiumBinary {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    throw new Error('no Chromium: set CHROMIUM_PATH, install Debian chromium, or run npm ci (the devDependency @sparticuz/chromium ships one)');
  }
  // The package exports no package.json: walk up from its entry point to the folder whose
  // package.json names it (build/cjs has a package.json of its own).
  let packageDir = dirname(entry);
  const named = (dir: string) => existsSync(join(dir, 'package.json')) && (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === '@sparticuz/chromium';
  while (!named(packageDir) && dirname(packageDir) !== packageDir) packageDir = dirname(packageDir);
  const packageJson = join(packageDir, 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const cacheRoot = resolve(packageDir, '..', '..', '.cache');
  const target = join(cacheRoot, `benchplan-chromium-${version}`);
  if (!existsSync(join(target, 'ready'))) {
    // Unpack into a private folder, then rename: two suites starting at once both succeed.
    const scratch = `${target}.${process.pid}.${Date.now()}`;
    mkdirSync(join(scratch, 'lib'), { recursive: true });
    const bin = join(packageDir, 'bin');
    writeFileSync(join(scratch, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))));
    chmodSync(join(scratch, 'chromium'), 0o755);
    for (const archive of ['al2023.tar.br', 'swiftshader.tar.br']) {
      const tar = brotliDecompressSync(readFileSync(join(bin, archive)));
      const into = archive.startsWith('al2023') ? scratch : join(scratch, 'lib');
      const untar = spawnSync('tar', ['-x', '-C', into], { input: tar });
      if (untar.status !== 0) throw new Error(`could not unpack ${archive} from @sparticuz/chromium: ${untar.stderr.toString()}`);
    }
    writeFileSync(join(scratch, 'ready'), version);
    try {
      renameSync(scratch, target);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
      if (!existsSync(join(target, 'ready'))) throw new Error(`could not unpack @sparticuz/chromium into ${target}`);
    }
  }
  const lib = join(target, 'lib');
  const ldPath = process.env.LD_LIBRARY_PATH ? `${lib}:${process.env.LD_LIBRARY_PATH}` : lib;
  return {
    executablePath: join(target, 'chromium'),
    env: { LD_LIBRARY_PATH: ldPath },
    // This build is chrome-headless-shell; as root it runs only without the zygote's sandbox.
    args: ['--no-zygote', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    source: '@sparticuz/chromium',
  };
}
