/** The exit codes `pi` promises (docs/cli.md): CI scripts branch on them. */
export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, notFound: 4, cancelled: 130 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code for an HTTP status the server answered with. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401 || status === 403 || status === 429) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  return EXIT.failed;
}
