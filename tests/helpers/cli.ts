import { run } from '../../src/cli/program.js';

/** The result of one in-process CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `benchplan ARGS…` in-process (no child process, no build needed) and captures output.
 * @example const { code, stdout } = await runCli(['compare', 'examples/scores.csv', '--json']);
 */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(['node', 'benchplan', ...args], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}
