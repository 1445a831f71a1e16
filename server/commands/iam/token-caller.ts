/** Who a token command's password guesses are counted against, beside the username. */
import type { IamContext } from './iam-command-support';

/**
 * An authenticated caller stands in for the client address: guesses looped in a pipeline are slowed like a
 * sprayer's. A call without credentials (the public token commands) counts against its client address,
 * which the server puts in the request scope.
 */
export function bruteForceAddressOf(ctx: IamContext): string | undefined {
  if (ctx.principal) return `caller:${ctx.principal.uuid}`;
  const request = ctx.scope.request as { remoteAddress?: unknown } | undefined;
  return typeof request?.remoteAddress === 'string' ? request.remoteAddress : undefined;
}
