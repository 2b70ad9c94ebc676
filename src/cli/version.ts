import { readFileSync } from 'node:fs';

/**
 * The package version, read once from package.json (two folders up from src/cli or dist/cli).
 * In its own module so program.ts (which registers every command) and a command that prints
 * the version (report) share one value without importing each other.
 */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
