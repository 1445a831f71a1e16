/** `pi`: the command-line client (bin/pi.js runs it). The verbs are defined in program.ts. */
import { runPi } from './program';

// A reader that went away (`pi list ... | head`) is no error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

runPi(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then((code) => {
  // Exit once the output is written: an open standard input or a finished event stream must not keep pi running.
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
