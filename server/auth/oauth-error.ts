/** The errors of the token endpoint, in the shape Keycloak answers them (`error`, `error_description`). */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: number = 400,
    /** Seconds for `Retry-After` (locked accounts). */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** The one answer for an unknown user, a wrong password, and a user who may not log in. */
export const invalidUserCredentials = () => new OAuthError('invalid_grant', 'Invalid user credentials', 401);
