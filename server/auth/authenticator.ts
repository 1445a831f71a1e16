/** The seam between HTTP and identity: turns a request's credentials into a Principal, or refuses. */
import type { Principal } from '../../shared/auth';

export interface CredentialsInput {
  /** The raw `Authorization` header value (header names are case-insensitive; HTTP lower-cases them). */
  authorization?: string;
  /** The client address, for brute-force accounting. */
  ip?: string;
}

export interface Authenticator {
  /**
   * Resolves who is calling. Throws PipeworkError UNAUTHENTICATED (missing or bad credentials; the HTTP layer
   * adds `WWW-Authenticate`), FORBIDDEN (e.g. RunAs without the right) or TOO_MANY_REQUESTS (locked).
   */
  authenticate(input: CredentialsInput): Promise<Principal>;
}
