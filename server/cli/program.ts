/** The `pi` program: one commander definition per verb (help comes from them), exit codes from docs/cli.md. */
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-client';
import { contextOf, type ActionWrapper } from './cli-context';
import { EXIT } from './exit-codes';
import { failureLine, unexpectedFailure } from './failure-line';
import type { Streams } from './output';
import { registerAuthVerbs } from './verbs-auth';
import { registerCommandVerbs } from './verbs-commands';
import { registerHistoryVerbs } from './verbs-history';
import { registerPropertyVerbs } from './verbs-properties';
import { registerPublishVerbs } from './verbs-publish';
import { registerRunVerbs } from './verbs-run';
import { registerRunsVerbs } from './verbs-runs';
import { registerTestVerbs } from './verbs-test';

const EPILOG = `
Server and credentials: --url, else PIPEWORK_URL, else the stored login's server (default http://127.0.0.1:8080).
--user, PIPEWORK_TOKEN or PIPEWORK_USER/PIPEWORK_PASSWORD win over the stored login (pi login).
Exit codes: 0 ok, 1 failed, 2 usage, 3 authentication or permission, 4 not found. See docs/cli.md.`;

export function buildProgram(streams: Streams, setExitCode: (code: number) => void): Command {
  const program = new Command('pi')
    .description('The Pipework command line: run pipelines, manage properties, publish and test apps.')
    .option('--json', 'print JSON for scripts instead of text for people')
    .option('--url <url>', 'the server (default: PIPEWORK_URL, the stored login, http://127.0.0.1:8080)')
    .option(
      '-u, --user <user[:password]>',
      'Basic credentials (the password from PIPEWORK_PASSWORD when left out)',
    )
    .addHelpText('after', EPILOG)
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
      // Commander's own errors (unknown verb or option, missing argument) as pi's one line with what to do.
      outputError: (text, write) =>
        write(`pi: ${failureLine(text.replace(/^error: /, ''), EXIT.usage, 'USAGE')}\n`),
    });
  const action: ActionWrapper =
    (fn) =>
    async (...args) => {
      const command = args[args.length - 1] as Command;
      const code = await fn(contextOf(streams, command), ...args.slice(0, -1));
      setExitCode(code ?? EXIT.ok);
    };
  registerAuthVerbs(program, action);
  registerRunVerbs(program, action);
  registerRunsVerbs(program, action);
  registerCommandVerbs(program, action);
  registerPropertyVerbs(program, action);
  registerHistoryVerbs(program, action);
  registerPublishVerbs(program, action);
  registerTestVerbs(program, action);
  for (const verb of program.commands) verb.exitOverride().showSuggestionAfterError();
  return program;
}

/** Runs `pi` with the arguments; resolves with the exit code (never throws). */
export async function runPi(argv: string[], streams: Streams): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(streams, (code) => {
    exitCode = code;
  });
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      const done = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      return done && error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const cliError = error instanceof CliError ? error : undefined;
    const exit = cliError?.exitCode ?? EXIT.failed;
    const message = cliError
      ? failureLine(cliError.message, exit, cliError.code)
      : unexpectedFailure(error, Boolean(streams.env.PIPEWORK_DEBUG));
    if (json) streams.stderr.write(JSON.stringify({ error: message, exitCode: exit }) + '\n');
    else streams.stderr.write(`pi: ${message}\n`);
    return exit;
  }
}
