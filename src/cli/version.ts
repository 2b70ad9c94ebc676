import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package version, read once from benchplan's package.json: the first one named benchplan
 * above this module, so it is found from src/cli, dist/cli and the bundled CLI's chunks alike.
 * In its own module so program.ts (which registers every command) and a command that prints
 * the version (report) share one value without importing each other.
 */
export const VERSION: string = readVersion();

function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'benchplan' && typeof parsed.version === 'string') return parsed.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the benchplan package.json above the CLI module');
    dir = parent;
  }
}
