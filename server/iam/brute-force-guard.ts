/**
 * Counts failed logins per username (known or not, so the answer never tells them apart), slows further
 * attempts and then locks the name for a while. The state is in SQLite (a lock survives a restart) and
 * mirrored in memory, so the check on every request costs a map lookup.
 */
import { PipeworkError } from '../../shared/errors';
import type { SqliteDatabase } from '../db';
import { isPossibleUsername } from './names';

export interface BruteForcePolicy {
  /** Failures after which each further attempt waits (the wait doubles per failure). */
  slowAfter: number;
  /** Failures after which the name is locked. */
  lockAfter: number;
  /** The first wait. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a lock holds. */
  lockMs: number;
  /** Failures older than this (counted from the first one) are forgotten. */
  windowMs: number;
  /**
   * Failures from one client address (any usernames) after which its attempts wait too: against password
   * spraying. Addresses are slowed, never locked, so one attacker behind a shared address locks no one out.
   */
  ipSlowAfter: number;
}

export const DEFAULT_BRUTE_FORCE_POLICY: BruteForcePolicy = {
  slowAfter: 3,
  lockAfter: 10,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  ipSlowAfter: 20,
};

const MAX_TRACKED_ADDRESSES = 10_000;
/** Above this many names, names whose window or lock is over are swept out (memory and table stay bounded). */
const SWEEP_NAMES_ABOVE = 10_000;

interface FailureState {
  failures: number;
  firstFailure: number;
  lockedUntil: number | null;
}

export interface BruteForceStatus {
  username: string;
  failures: number;
  locked: boolean;
  lockedUntil: number | null;
}

export class BruteForceGuard {
  private readonly state = new Map<string, FailureState>();
  /** Per client address, in memory only. */
  private readonly byAddress = new Map<string, { failures: number; firstFailure: number }>();
  private lastSweep = 0;

  constructor(
    private readonly db: SqliteDatabase,
    readonly policy: BruteForcePolicy = DEFAULT_BRUTE_FORCE_POLICY,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** Told when a name becomes locked (to drop cached credentials). */
    private readonly onLock: (username: string) => void = () => {},
  ) {
    const rows = db
      .prepare<
        [],
        { username: string; failures: number; first_failure: number; locked_until: number | null }
      >('SELECT * FROM iam_login_failure')
      .all();
    for (const row of rows) {
      this.state.set(row.username.toLowerCase(), {
        failures: row.failures,
        firstFailure: row.first_failure,
        lockedUntil: row.locked_until,
      });
    }
  }

  private current(username: string): FailureState | undefined {
    const key = username.toLowerCase();
    const s = this.state.get(key);
    if (!s) return undefined;
    const now = this.now();
    const lockOver = s.lockedUntil !== null && s.lockedUntil <= now;
    const windowOver = s.lockedUntil === null && s.firstFailure + this.policy.windowMs <= now;
    if (lockOver || windowOver) {
      this.forget(key);
      return undefined;
    }
    return s;
  }

  /** Seconds until the lock ends, or 0 when the name is not locked. */
  lockedForSeconds(username: string): number {
    const s = this.current(username);
    if (!s?.lockedUntil) return 0;
    return Math.max(1, Math.ceil((s.lockedUntil - this.now()) / 1000));
  }

  /** Throws TOO_MANY_REQUESTS while the name is locked: for every way of getting in. */
  assertNotLocked(username: string): void {
    const seconds = this.lockedForSeconds(username);
    if (seconds > 0) {
      throw new PipeworkError(
        'TOO_MANY_REQUESTS',
        'Too many failed logins; this account is temporarily locked.',
        {
          retryAfterSeconds: seconds,
        },
      );
    }
  }

  private delayFor(failures: number, after: number): number {
    if (failures < after) return 0;
    return Math.min(this.policy.baseDelayMs * 2 ** (failures - after), this.policy.maxDelayMs);
  }

  private addressFailures(ip: string | undefined): number {
    const entry = ip === undefined ? undefined : this.byAddress.get(ip);
    if (!entry) return 0;
    if (entry.firstFailure + this.policy.windowMs <= this.now()) {
      this.byAddress.delete(ip!);
      return 0;
    }
    return entry.failures;
  }

  /** Before a password check: refuses when locked, waits when the name (or the address) has failed often. */
  async beforeAttempt(username: string, ip?: string): Promise<void> {
    this.assertNotLocked(username);
    const delay = Math.max(
      this.delayFor(this.current(username)?.failures ?? 0, this.policy.slowAfter),
      this.delayFor(this.addressFailures(ip), this.policy.ipSlowAfter),
    );
    if (delay > 0) await this.sleep(delay);
  }

  recordFailure(username: string, ip?: string): void {
    if (ip !== undefined) {
      const entry = this.byAddress.get(ip);
      if (entry && this.addressFailures(ip) > 0) entry.failures += 1;
      else {
        if (this.byAddress.size >= MAX_TRACKED_ADDRESSES)
          this.byAddress.delete(this.byAddress.keys().next().value!);
        this.byAddress.set(ip, { failures: 1, firstFailure: this.now() });
      }
    }
    // A name no user can have is counted for its address only: it cannot be locked out, and junk names
    // (any length, any bytes) never fill the table.
    if (!isPossibleUsername(username)) return;
    const key = username.toLowerCase();
    const now = this.now();
    if (this.state.size > SWEEP_NAMES_ABOVE && now - this.lastSweep >= 60_000) {
      this.lastSweep = now;
      for (const name of [...this.state.keys()]) this.current(name);
    }
    const s = this.current(key) ?? { failures: 0, firstFailure: now, lockedUntil: null };
    s.failures += 1;
    if (s.failures >= this.policy.lockAfter && s.lockedUntil === null) {
      s.lockedUntil = now + this.policy.lockMs;
      this.onLock(key);
    }
    this.state.set(key, s);
    this.db
      .prepare(
        `INSERT INTO iam_login_failure (username, failures, first_failure, locked_until) VALUES (?, ?, ?, ?)
         ON CONFLICT (username) DO UPDATE SET failures = excluded.failures, first_failure = excluded.first_failure,
           locked_until = excluded.locked_until`,
      )
      .run(key, s.failures, s.firstFailure, s.lockedUntil);
  }

  /** A successful login clears the count (not a lock: a locked name never reaches a successful login). */
  recordSuccess(username: string): void {
    if (this.state.has(username.toLowerCase())) this.forget(username.toLowerCase());
  }

  /** Lifts a lock (admin action). */
  release(username: string): void {
    this.forget(username.toLowerCase());
  }

  status(username: string): BruteForceStatus {
    const s = this.current(username);
    return {
      username,
      failures: s?.failures ?? 0,
      locked: (s?.lockedUntil ?? 0) > this.now(),
      lockedUntil: s?.lockedUntil ?? null,
    };
  }

  private forget(key: string): void {
    this.state.delete(key);
    this.db.prepare('DELETE FROM iam_login_failure WHERE username = ?').run(key);
  }
}
