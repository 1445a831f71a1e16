/** The OpenID Connect token endpoint of the server (Keycloak compatible): sign-in, refresh, sign-out. */
import {
  endpointUrl,
  logoutEndpoint,
  tokenEndpoint,
  type OAuthErrorBody,
  type TokenResponse,
} from '../../../shared/api';
import { ApiError } from './api-error';

const REALM = { realm: 'pipework' };
const CLIENT_ID = 'workbench';

export type TokenAnswer = Pick<
  TokenResponse,
  'access_token' | 'expires_in' | 'refresh_token' | 'refresh_expires_in'
>;

/** The form endpoints (token, logout) take `application/x-www-form-urlencoded`, not JSON: posted here. */
async function post(endpoint: typeof tokenEndpoint | typeof logoutEndpoint, form: Record<string, string>) {
  return fetch(endpointUrl(endpoint, REALM), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'XMLHttpRequest' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }),
  });
}

async function tokens(form: Record<string, string>): Promise<TokenAnswer> {
  const response = await post(tokenEndpoint, form);
  const body = (await response.json().catch(() => ({}))) as Partial<TokenAnswer> & Partial<OAuthErrorBody>;
  if (!response.ok || !body.access_token) {
    throw new ApiError(response.status, {
      code: body.error ?? `HTTP_${response.status}`,
      message: body.error_description ?? response.statusText,
      retryAfterSeconds: Number(response.headers.get('retry-after')) || undefined,
    });
  }
  return body as TokenAnswer;
}

export function passwordGrant(username: string, password: string): Promise<TokenAnswer> {
  return tokens({ grant_type: 'password', username, password });
}

export function refreshGrant(refreshToken: string): Promise<TokenAnswer> {
  return tokens({ grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Ends the login session on the server: its refresh tokens and access tokens stop working. */
export async function revoke(refreshToken: string): Promise<void> {
  await post(logoutEndpoint, { refresh_token: refreshToken });
}
