/**
 * The OpenID Connect endpoints a Keycloak client expects, under `/auth/realms/:realm/` (docs/auth.md): token
 * (password and refresh_token grants) and logout take a form (`application/x-www-form-urlencoded`), certs
 * and discovery answer JSON. Errors use Keycloak's shape, `OAuthErrorBody`, not the API's.
 */
import { defineEndpoint, type None } from '../endpoint';

export interface Realm {
  realm: string;
}

/** The token endpoint's form: `grant_type` `password` (username, password) or `refresh_token`. */
export interface TokenForm {
  grant_type: 'password' | 'refresh_token';
  client_id?: string;
  client_secret?: string;
  username?: string;
  password?: string;
  refresh_token?: string;
  scope?: string;
}

/** Keycloak's token response. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  refresh_token: string;
  token_type: 'Bearer';
  'not-before-policy': number;
  session_state: string;
  scope: string;
}

export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

/** A public signing key as JWKS lists it. */
export interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: string;
  n: string;
  e: string;
}

export interface OpenIdConfiguration {
  issuer: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint: string;
  grant_types_supported: string[];
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
  token_endpoint_auth_methods_supported: string[];
}

/** Where a realm's endpoints live; its issuer URL is the server's URL and this, the realm filled in. */
export const REALM_BASE = '/auth/realms/:realm';
const realmBase = REALM_BASE;

/** The form is not JSON: callers send it url-encoded themselves. */
export const tokenEndpoint = defineEndpoint<Realm, None, None, TokenResponse>({
  method: 'POST',
  path: `${realmBase}/protocol/openid-connect/token`,
  summary: 'the token endpoint',
  maxBodyBytes: 16 * 1024,
});

/** The form holds `refresh_token`; answers 204. */
export const logoutEndpoint = defineEndpoint<Realm, None, None, undefined>({
  method: 'POST',
  path: `${realmBase}/protocol/openid-connect/logout`,
  summary: 'the logout endpoint',
  maxBodyBytes: 16 * 1024,
});

export const certsEndpoint = defineEndpoint<Realm, None, None, { keys: PublicJwk[] }>({
  method: 'GET',
  path: `${realmBase}/protocol/openid-connect/certs`,
  summary: 'the signing keys',
});

export const discoveryEndpoint = defineEndpoint<Realm, None, None, OpenIdConfiguration>({
  method: 'GET',
  path: `${realmBase}/.well-known/openid-configuration`,
  summary: 'the OpenID configuration',
});
