import { runCommandLine } from './command-line.js';

// A reader that stops early (`benchplan … | head`) closes the pipe: that is the reader's choice,
// not a failure of ours, so stop quietly instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCommandLine(process.argv);
