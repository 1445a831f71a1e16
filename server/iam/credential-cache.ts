/**
 * Remembers recently verified username+password pairs for a short time, so Basic auth does not pay the slow
 * hash on every request. Keys are SHA-256 digests of a per-process random secret followed by the credentials
 * (a keyed hash whose outputs never leave the process): the cache never holds a password, and its keys are
 * useless outside this process. The one-shot `hash` costs a fraction of an Hmac object per request.
 */
import { hash, randomBytes } from 'node:crypto';

export interface CredentialCacheOptions {
  ttlMs: number;
  maxEntries: number;
}

interface Entry {
  userUuid: string;
  expires: number;
}

export class CredentialCache {
  private readonly secret = randomBytes(32).toString('base64');
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: CredentialCacheOptions = { ttlMs: 60_000, maxEntries: 1000 },
    private readonly now: () => number = Date.now,
  ) {}

  private digest(username: string, password: string): string {
    return hash('sha256', `${this.secret}\0${username.toLowerCase()}\0${password}`, 'base64');
  }

  /** The uuid of the user these credentials were verified for, when still fresh. */
  get(username: string, password: string): string | undefined {
    const k = this.digest(username, password);
    const entry = this.entries.get(k);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(k);
      return undefined;
    }
    // Refresh recency (Map keeps insertion order: the first key is the least recently used).
    this.entries.delete(k);
    this.entries.set(k, entry);
    return entry.userUuid;
  }

  set(username: string, password: string, userUuid: string): void {
    const k = this.digest(username, password);
    this.entries.delete(k);
    this.entries.set(k, { userUuid, expires: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Forgets every entry of one user (password change, delete, lock). */
  invalidateUser(userUuid: string): void {
    for (const [k, entry] of this.entries) if (entry.userUuid === userUuid) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
