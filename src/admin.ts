// The admin entry point. Only the version check is imported statically: on an old Node the rest would
// fail to load before any of it could explain why.
import { requireSupportedNode } from './platform/node-version.js';

requireSupportedNode();
const { runAdmin } = await import('./platform/cli/admin.js');
const { commands } = await import('./features/commands.js');

// Progress is one stderr line rewritten in place on a terminal, cleared before any other output.
let progressShown = false;
const clearProgress = () => {
  if (progressShown) process.stderr.write('\r\x1b[2K');
  progressShown = false;
};
const code = await runAdmin(commands, process.argv.slice(2), {
  out: (line) => {
    clearProgress();
    process.stdout.write(`${line}\n`);
  },
  err: (line) => {
    clearProgress();
    process.stderr.write(`${line}\n`);
  },
  ...(process.stderr.isTTY
    ? {
        progress: (line: string) => {
          process.stderr.write(`\r\x1b[2K${line}`);
          progressShown = true;
        },
      }
    : {}),
});
clearProgress();
process.exitCode = code;
