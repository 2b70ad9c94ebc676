// The fault tests' way of running the built CLI as a child process, optionally with
// tests/faults/crash-at.mjs preloaded (it kills the process before the Nth file-system step named
// in the environment), shared by the sign-off and select/review pair fault tests.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BIN = resolve('bin/benchplan.js');
const CRASH_AT = pathToFileURL(resolve('tests/faults/crash-at.mjs')).href;
/** Whether dist/ is built (the fault tests need the real binary). */
export const built = existsSync(resolve('dist/cli/main.js'));

/** One child run: its exit code or the signal that killed it, and what it printed. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `benchplan ARGS` in a child process with `env` added; `preload` loads crash-at.mjs first. */
export function cli(args: string[], env: Record<string, string> = {}, preload = false): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...(preload ? ['--import', CRASH_AT] : []), BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}
