/**
 * Who stored code runs as when a running pipeline starts it (`pipeline.start`, `pipeline.run`, `call`,
 * `test.run`): the caller, bound by the code's author, so a helper never runs with more rights than whoever
 * stored it last (docs/security.md, "Who code runs as"). The author is who wrote the property last (a move or
 * copy included); code the server stored itself (no author) runs as the caller.
 */
import { boundByAuthor, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { IamService } from '../iam';
import type { PropertyService } from '../store/property-service';

/** What deciding who code runs as needs: the store (who wrote it) and the IAM (that user's rights). */
export interface StoredCodeServices {
  properties: PropertyService;
  iam: IamService;
}

async function authorPrincipal(services: StoredCodeServices, key: string, uuid: string): Promise<Principal> {
  const author = await services.iam.principalByUuid(uuid);
  if (author) return author;
  throw new PipeworkError(
    'FORBIDDEN',
    `'${key}' was stored by a user who no longer exists; it runs for nobody until someone stores it again.`,
    { key },
  );
}

/** The caller bound by the authors (one, or two when the code changed while it was read), as `boundByAuthor`. */
export async function runAsFor(
  services: StoredCodeServices,
  caller: Principal | null,
  key: string,
  authors: readonly (string | null | undefined)[],
): Promise<Principal | null> {
  if (!caller) return caller;
  let principal = caller;
  for (const uuid of new Set(authors)) {
    if (!uuid || uuid === caller.uuid) continue;
    principal = boundByAuthor(principal, await authorPrincipal(services, key, uuid));
  }
  return principal;
}

/**
 * Reads stored code with `read` and answers who it runs as: the author is asked before and after the read, so
 * code changed in between is bound by both authors, never run with the rights of one and the text of another.
 */
export async function readStoredCode<T>(
  services: StoredCodeServices,
  caller: Principal | null,
  key: string,
  read: () => Promise<T>,
): Promise<{ code: T; runAs: Principal | null; authors: (string | null | undefined)[] }> {
  const before = await services.properties.store.authorOf(key);
  const code = await read();
  const after = await services.properties.store.authorOf(key);
  const authors = [before, after];
  return { code, runAs: await runAsFor(services, caller, key, authors), authors };
}
