/**
 * The API feature: the one way browser code talks to the server. Features call `useApi()` and get a client
 * that adds the Bearer token, renews it, sends the user to sign-in when the session is over, and throws the
 * contract's errors as `ApiError`.
 */
import { apiClient, type ApiClient } from './api-client';

export type { ApiClient, CommandOptions, CommandParams } from './api-client';
export { readAnswer } from './api-client';
export { callEndpoint, type EndpointRequest } from './call-endpoint';
export { ApiError, apiErrorOf, errorText, type ApiErrorValue } from './api-error';
export { accessToken, signedInUuid } from './session';

/** The API client of the signed-in user (one per tab; a hook so that tests or a provider may replace it). */
export function useApi(): ApiClient {
  return apiClient;
}
