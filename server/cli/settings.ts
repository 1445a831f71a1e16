/**
 * Which server and which credentials a `pi` call uses: --url, PIPEWORK_URL, the stored login's server, or
 * the default; --user, PIPEWORK_TOKEN, PIPEWORK_USER/PIPEWORK_PASSWORD, or else the stored login.
 */
import { DEFAULT_URL, authorizationFromEnv, normalizeUrl, type CliSettings } from './cli-client';
import { readLogin, refreshLogin, writeLogin, type StoredLogin } from './credentials';

/** An access token this close to its end is renewed before use. */
const EARLY_REFRESH_MS = 10_000;

export interface GlobalOptions {
  url?: string;
  user?: string;
  json?: boolean;
}

/** Keeps the stored login fresh: renews the tokens when the access token has (nearly) expired. */
function sessionOf(env: NodeJS.ProcessEnv, stored: StoredLogin) {
  let login = stored;
  let renewed = false;
  const renew = async () => {
    if (renewed || login.refreshExpiresAt <= Date.now()) return false;
    login = await refreshLogin(login);
    writeLogin(env, login);
    renewed = true;
    return true;
  };
  return {
    async token() {
      if (login.accessExpiresAt - EARLY_REFRESH_MS <= Date.now()) await renew();
      return login.accessToken;
    },
    renew,
  };
}

export function resolveSettings(env: NodeJS.ProcessEnv, options: GlobalOptions): CliSettings {
  const stored = readLogin(env);
  const url = normalizeUrl(options.url ?? env.PIPEWORK_URL ?? stored?.url ?? DEFAULT_URL);
  const authorization = authorizationFromEnv(env, options.user);
  if (authorization) return { url, authorization };
  if (stored && normalizeUrl(stored.url) === url) return { url, session: sessionOf(env, stored) };
  return { url };
}
