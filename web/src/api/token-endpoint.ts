/** The OpenID Connect token endpoint of the server (Keycloak compatible): sign-in, refresh, sign-out. */
import { ApiError } from './api-error';

const REALM_BASE = '/auth/realms/pipework/protocol/openid-connect';
const CLIENT_ID = 'workbench';

export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
}

async function post(path: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${REALM_BASE}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'XMLHttpRequest' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }),
  });
}

async function tokens(form: Record<string, string>): Promise<TokenAnswer> {
  const response = await post('token', form);
  const body = (await response.json().catch(() => ({}))) as Partial<TokenAnswer> & {
    error?: string;
    error_description?: string;
  };
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
  await post('logout', { refresh_token: refreshToken });
}
