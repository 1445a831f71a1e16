/** Maps token-endpoint errors (OAuth shape) to the API's error codes, for the iam.token* commands. */
import { PipeworkError } from '../../../shared/errors';
import { OAuthError } from '../../auth/oauth-error';

export function asCommandError(error: unknown): unknown {
  if (!(error instanceof OAuthError)) return error;
  if (error.status === 429) {
    return new PipeworkError('TOO_MANY_REQUESTS', error.description, {
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  if (error.error === 'invalid_request') return new PipeworkError('PARAM_INVALID', error.description);
  return new PipeworkError('UNAUTHENTICATED', error.description, { error: error.error });
}
