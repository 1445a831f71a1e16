/**
 * How `pi` reports a failure: one line, `pi: CODE ...: message → what to do`, never a stack trace (set
 * PIPEWORK_DEBUG=1 to see one for a fault of pi itself). The code is the server's error code when there is
 * one, else a code of the CLI's own (USAGE, UNREACHABLE, FILE_NOT_FOUND, BAD_ANSWER, INTERNAL).
 */
import { EXIT } from './exit-codes';

/** A code at the start of a message: `PEL_SYNTAX at ...`, `NOT_FOUND: ...`. */
const LEADING_CODE = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})\b/;

const HINTS: Record<string, string> = {
  USAGE: "see 'pi --help', or 'pi <verb> --help' for a verb's arguments and options",
  UNREACHABLE: "check the server address (--url, PIPEWORK_URL or 'pi login <url>') and that the server runs",
  BAD_ANSWER: 'the address answers, but not as a Pipework server: check --url or PIPEWORK_URL',
  FILE_NOT_FOUND: 'check the file name and that you may read it',
  UNAUTHENTICATED:
    "sign in with 'pi login', or give --user, PIPEWORK_TOKEN or PIPEWORK_USER and PIPEWORK_PASSWORD",
  UNAUTHORIZED:
    "sign in with 'pi login', or give --user, PIPEWORK_TOKEN or PIPEWORK_USER and PIPEWORK_PASSWORD",
  INVALID_TOKEN: "sign in again with 'pi login'",
  FORBIDDEN: 'ask an administrator for the permission, or sign in as a user who has it',
  TOO_MANY_REQUESTS: 'wait a moment and try again',
  COMMAND_NOT_FOUND: "'pi commands' lists the server's commands",
  PROPERTY_NOT_FOUND: "check the key: 'pi list <folder>' lists what is there",
  CONFLICT: 'read the current version again and retry on it',
  CANCELLED: 'nothing was sent; run the command again to continue',
  INTERNAL: 'a fault of pi or the server: run again with PIPEWORK_DEBUG=1 and report it with the trace id',
};

const HINT_OF_EXIT: Record<number, string> = {
  [EXIT.usage]: HINTS.USAGE!,
  [EXIT.auth]: HINTS.UNAUTHENTICATED!,
  [EXIT.notFound]: "check the name, key or path ('pi list <folder>' lists keys, 'pi commands' the commands)",
};

/** The code a failure without one gets, from its exit code. */
function codeOfExit(exitCode: number): string {
  if (exitCode === EXIT.usage) return 'USAGE';
  if (exitCode === EXIT.auth) return 'UNAUTHENTICATED';
  if (exitCode === EXIT.notFound) return 'NOT_FOUND';
  return 'FAILED';
}

function hintOf(code: string, exitCode: number, message: string): string {
  const known = HINTS[code];
  if (known) return known;
  if (/ at [^ ]+:\d+:\d+/.test(message) || / in [a-z][\w.]* \(step \d+\)/.test(message))
    return 'fix the pipeline at the place shown and run again';
  if (/^(PARAM_|PEL_|PIPELINE_)/.test(code))
    return "check the parameters ('pi describe <command>' shows them)";
  return (
    HINT_OF_EXIT[exitCode] ?? "run again with --json for the details (the traceId helps the server's log)"
  );
}

/** One line for a failure: its code first (added when the message has none), then what to do. */
export function failureLine(message: string, exitCode: number, code?: string): string {
  const flat = message.replace(/\s*\n\s*/g, ' ').trim();
  const leading = LEADING_CODE.exec(flat)?.[1];
  const theCode = code ?? leading ?? codeOfExit(exitCode);
  const text = leading === theCode ? flat : `${theCode}: ${flat}`;
  if (text.includes(' → ')) return text;
  return `${text} → ${hintOf(theCode, exitCode, text)}`;
}

/** The one line (without `pi: `) for an error nothing expected: no stack unless PIPEWORK_DEBUG asks for it. */
export function unexpectedFailure(error: unknown, debug: boolean): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (debug && error instanceof Error && error.stack) return `INTERNAL: ${error.stack}`;
  return failureLine(message, EXIT.failed, 'INTERNAL');
}
