// Preloaded into a CLI process by the fault tests (node --import): counts the calls that change the
// file system's state for good — link, rename, unlink/rm, fsync — and kills the process (SIGKILL)
// just before the call numbered BENCHPLAN_TEST_CRASH_AT (1-based), so a test can stop a command
// between any two steps of its commit protocol. With BENCHPLAN_TEST_CRASH_LOG=FILE, appends one line
// per step (its number, the call and the path) to FILE, so the test knows how many steps there are.
// Test-only: nothing in src/ reads these variables.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const at = Number(process.env.BENCHPLAN_TEST_CRASH_AT ?? '0');
const log = process.env.BENCHPLAN_TEST_CRASH_LOG;
const append = fs.appendFileSync;
let step = 0;
let depth = 0; // rmSync calls unlinkSync: one step, counted once
for (const name of ['linkSync', 'renameSync', 'unlinkSync', 'rmSync', 'fsyncSync']) {
  const real = fs[name];
  fs[name] = function (...args) {
    if (depth > 0) return real.apply(this, args);
    step += 1;
    if (log) append(log, `${step} ${name} ${typeof args[0] === 'number' ? 'fd' : String(args[0])}\n`);
    if (step === at) process.kill(process.pid, 'SIGKILL');
    depth += 1;
    try {
      return real.apply(this, args);
    } finally {
      depth -= 1;
    }
  };
}
syncBuiltinESMExports();
