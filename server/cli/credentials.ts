/**
 * The stored login of `pi login`: one file in the user's config folder ($XDG_CONFIG_HOME/pipework or
 * ~/.config/pipework), readable by its owner only (folder 0700, file 0600). Tokens come from the server's
 * token endpoint (client `cli`) and are refreshed there when the access token has expired.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  endpointUrl,
  logoutEndpoint,
  tokenEndpoint,
  type OAuthErrorBody,
  type TokenResponse,
} from '../../shared/api';
import { CliError } from './cli-client';
import { EXIT } from './exit-codes';

export const CLI_CLIENT_ID = 'cli';
export const DEFAULT_REALM = 'pipework';

export interface StoredLogin {
  url: string;
  realm: string;
  username: string;
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  accessExpiresAt: number;
  refreshExpiresAt: number;
}

export function configFolder(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'pipework');
}

export function loginFile(env: NodeJS.ProcessEnv): string {
  return join(configFolder(env), 'login.json');
}

export function readLogin(env: NodeJS.ProcessEnv): StoredLogin | undefined {
  const file = loginFile(env);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StoredLogin;
  } catch {
    return undefined;
  }
}

export function writeLogin(env: NodeJS.ProcessEnv, login: StoredLogin): void {
  const folder = configFolder(env);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const file = loginFile(env);
  // Tighten an existing file before the tokens go in; a new one is made owner-only.
  if (existsSync(file)) chmodSync(file, 0o600);
  writeFileSync(file, JSON.stringify(login, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function removeLogin(env: NodeJS.ProcessEnv): void {
  rmSync(loginFile(env), { force: true });
}

type TokenAnswer = Partial<TokenResponse> & Partial<OAuthErrorBody>;

function oidc(url: string, realm: string, endpoint: typeof tokenEndpoint | typeof logoutEndpoint): string {
  return `${url}${endpointUrl(endpoint, { realm })}`;
}

async function postForm(url: string, form: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  } catch (error) {
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    throw new CliError(
      `Cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      EXIT.failed,
      'UNREACHABLE',
    );
  }
}

async function tokens(
  url: string,
  realm: string,
  username: string,
  form: Record<string, string>,
): Promise<StoredLogin> {
  const response = await postForm(oidc(url, realm, tokenEndpoint), { client_id: CLI_CLIENT_ID, ...form });
  const body = (await response.json().catch(() => ({}))) as TokenAnswer;
  if (!response.ok || !body.access_token || !body.refresh_token) {
    const code = response.status === 429 ? 'TOO_MANY_REQUESTS' : 'UNAUTHENTICATED';
    const exit = response.status === 404 ? EXIT.notFound : EXIT.auth;
    throw new CliError(`${code}: ${body.error_description ?? body.error ?? `HTTP ${response.status}`}`, exit);
  }
  const now = Date.now();
  return {
    url,
    realm,
    username,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    accessExpiresAt: now + (body.expires_in ?? 300) * 1000,
    refreshExpiresAt: now + (body.refresh_expires_in ?? 1800) * 1000,
  };
}

/** The password grant: a new login. */
export function passwordLogin(url: string, realm: string, username: string, password: string) {
  return tokens(url, realm, username, { grant_type: 'password', username, password });
}

/** The refresh grant: new tokens for a stored login (the refresh token rotates). */
export function refreshLogin(login: StoredLogin): Promise<StoredLogin> {
  return tokens(login.url, login.realm, login.username, {
    grant_type: 'refresh_token',
    refresh_token: login.refreshToken,
  });
}

/** Ends the login session on the server (its refresh and access tokens stop working). */
export async function revokeLogin(login: StoredLogin): Promise<void> {
  const response = await postForm(oidc(login.url, login.realm, logoutEndpoint), {
    client_id: CLI_CLIENT_ID,
    refresh_token: login.refreshToken,
  });
  if (!response.ok) throw new CliError(`The server refused the logout (HTTP ${response.status}).`);
}
