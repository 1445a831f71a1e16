/**
 * The signed-in session: the access token lives in memory only; it is renewed (rotating the refresh token)
 * before it expires, and sign-out revokes the login on the server.
 *
 * Decision: the refresh token (never the password, never the access token) is kept in `sessionStorage`, so a
 * reload of the tab keeps the user signed in. It is scoped to the tab, gone when the tab closes, single-use
 * (every refresh rotates it), and a stolen copy presented after its rotation revokes the whole login family on
 * the server. Without it every reload (and every reopened link) would ask for the password again.
 */
import { ApiError } from './api-error';
import { passwordGrant, refreshGrant, revoke, type TokenAnswer } from './token-endpoint';

export type SessionStatus = 'restoring' | 'signed-out' | 'signed-in';

export interface SessionState {
  status: SessionStatus;
  username?: string;
  displayName?: string;
  /** Why the user is signed out: 'expired' when the session ended by itself (the page then says so). */
  reason?: 'expired' | 'signed-out';
}

const STORAGE_KEY = 'pipework.refresh';
/** Renew this long before the access token expires (and never later than at 80% of its life). */
const RENEW_MARGIN_MS = 30_000;
/** A renewal that failed without the server refusing the token is tried again after this. */
const RETRY_MS = 15_000;

let state: SessionState = { status: 'restoring' };
let accessTokenValue: string | null = null;
let refreshTokenValue: string | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function sessionState(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current access token, for requests the client cannot make itself (EventSource, streamed fetches). */
export function accessToken(): string | null {
  return accessTokenValue;
}

/** The signed-in user's uuid (the access token's subject): their own folder is `user/<uuid>`. */
export function signedInUuid(): string | undefined {
  return accessTokenValue ? claimsOf(accessTokenValue).sub : undefined;
}

function claimsOf(jwt: string): { preferred_username?: string; name?: string; sub?: string } {
  try {
    const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as {
      preferred_username?: string;
      name?: string;
      sub?: string;
    };
  } catch {
    return {};
  }
}

function scheduleRenewal(delayMs: number): void {
  clearTimeout(renewTimer);
  renewTimer = setTimeout(() => void renew(), delayMs);
}

/** After a renewal that failed for another reason than the token: the lock's end, else a short pause. */
function retryDelayMs(error: unknown): number {
  const seconds = error instanceof ApiError ? Number(error.value.retryAfterSeconds) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : RETRY_MS;
}

function accept(tokens: TokenAnswer): void {
  accessTokenValue = tokens.access_token;
  refreshTokenValue = tokens.refresh_token;
  sessionStorage.setItem(STORAGE_KEY, tokens.refresh_token);
  const lifeMs = tokens.expires_in * 1000;
  clearTimeout(renewTimer);
  renewTimer = setTimeout(
    () => void renew(),
    Math.max(1000, Math.min(lifeMs - RENEW_MARGIN_MS, lifeMs * 0.8)),
  );
  const claims = claimsOf(tokens.access_token);
  setState({ status: 'signed-in', username: claims.preferred_username, displayName: claims.name });
}

function forget(reason: SessionState['reason']): void {
  clearTimeout(renewTimer);
  accessTokenValue = null;
  refreshTokenValue = null;
  sessionStorage.removeItem(STORAGE_KEY);
  setState({ status: 'signed-out', reason });
}

export async function signIn(username: string, password: string): Promise<void> {
  accept(await passwordGrant(username, password));
}

/** Renews the access token now (one renewal at a time); false, and signed out as expired, when it cannot. */
export function renew(): Promise<boolean> {
  if (renewing) return renewing;
  const token = refreshTokenValue;
  if (!token) return Promise.resolve(false);
  renewing = refreshGrant(token)
    .then(
      (tokens) => {
        accept(tokens);
        return true;
      },
      (error: unknown) => {
        // The server refused the token (spent, revoked, expired): the session is over. A lock (429), a server
        // error or no network is not the token's fault: keep it and try again a little later.
        if (error instanceof ApiError && (error.status === 400 || error.status === 401)) forget('expired');
        else scheduleRenewal(retryDelayMs(error));
        return false;
      },
    )
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/** The session ended by itself (a 401 that a renewal could not cure): back to sign-in, on the same route. */
export function expire(): void {
  if (state.status === 'signed-in') forget('expired');
}

export async function signOut(): Promise<void> {
  const token = refreshTokenValue;
  forget('signed-out');
  if (token) await revoke(token).catch(() => undefined);
}

/** At start: continue the tab's login from its refresh token, if there is one. */
export async function restoreSession(): Promise<void> {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (!stored) {
    setState({ status: 'signed-out' });
    return;
  }
  refreshTokenValue = stored;
  if (!(await renew())) setState({ status: 'signed-out' });
}
