/**
 * Counts failed logins per username (known or not, so the answer never tells them apart), slows further
 * attempts and then locks the name for a while. The count lives in the database, shared by every instance of
 * an installation and kept across restarts: each failure is one atomic upsert, so failures on two instances
 * add up. A mirror in memory answers the check on every request; the login path re-reads the database, and
 * other instances' changes reach the mirror through the IAM change feed.
 */
import { PipeworkError } from '../../shared/errors';
import type { SqlPort } from '../db/sql';
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
/** Above this many names, names whose window or lock is over are swept out of the mirror. */
const SWEEP_NAMES_ABOVE = 10_000;

interface FailureState {
  failures: number;
  firstFailure: number;
  lockedUntil: number | null;
}

interface FailureRow {
  username: string;
  failures: number;
  first_failure: number;
  locked_until: number | null;
}

export interface BruteForceStatus {
  username: string;
  failures: number;
  locked: boolean;
  lockedUntil: number | null;
}

const stateOf = (row: FailureRow): FailureState => ({
  failures: Number(row.failures),
  firstFailure: Number(row.first_failure),
  lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
});

/**
 * One failure, atomically: a stale count (its window or lock over) starts again at 1, and the count that
 * reaches `lockAfter` sets the lock. $1 name, $2 now, $3 lockAfter, $4 lockMs, $5 windowMs.
 */
const RECORD_FAILURE = `
  INSERT INTO iam_login_failure AS f (username, failures, first_failure, locked_until)
  VALUES ($1, 1, CAST($2 AS BIGINT), CASE WHEN 1 >= $3 THEN CAST($2 AS BIGINT) + $4 ELSE NULL END)
  ON CONFLICT (username) DO UPDATE SET
    failures = CASE WHEN STALE THEN 1 ELSE f.failures + 1 END,
    first_failure = CASE WHEN STALE THEN CAST($2 AS BIGINT) ELSE f.first_failure END,
    locked_until = CASE
      WHEN STALE THEN (CASE WHEN 1 >= $3 THEN CAST($2 AS BIGINT) + $4 ELSE NULL END)
      WHEN f.locked_until IS NULL AND f.failures + 1 >= $3 THEN CAST($2 AS BIGINT) + $4
      ELSE f.locked_until END
  RETURNING username, failures, first_failure, locked_until`.replaceAll(
  'STALE',
  '((f.locked_until IS NOT NULL AND f.locked_until <= CAST($2 AS BIGINT)) OR ' +
    '(f.locked_until IS NULL AND f.first_failure + $5 <= CAST($2 AS BIGINT)))',
);

export class BruteForceGuard {
  private readonly state = new Map<string, FailureState>();
  /** Per client address, in memory only. */
  private readonly byAddress = new Map<string, { failures: number; firstFailure: number }>();
  private lastSweep = 0;

  constructor(
    private readonly sql: SqlPort,
    readonly policy: BruteForcePolicy = DEFAULT_BRUTE_FORCE_POLICY,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** Told when a name becomes locked (to drop cached credentials). */
    private readonly onLock: (username: string) => void = () => {},
    /** Told when a name's count changed here, so other instances re-read it. */
    private readonly published: (username: string) => void = () => {},
  ) {}

  /** Loads every stored count into the mirror (at start, and after missing other instances' changes). */
  async load(): Promise<void> {
    const rows = await this.sql.all<FailureRow>('SELECT * FROM iam_login_failure');
    this.state.clear();
    for (const row of rows) this.state.set(row.username.toLowerCase(), stateOf(row));
  }

  /** Re-reads one name from the database into the mirror (the login path, and another instance's change). */
  async refresh(username: string): Promise<void> {
    const key = username.toLowerCase();
    if (!isPossibleUsername(key)) return;
    const row = await this.sql.get<FailureRow>('SELECT * FROM iam_login_failure WHERE username = $1', [key]);
    const wasLocked = this.lockedForSeconds(key) > 0;
    if (row) this.state.set(key, stateOf(row));
    else this.state.delete(key);
    if (!wasLocked && this.lockedForSeconds(key) > 0) this.onLock(key);
  }

  private current(username: string): FailureState | undefined {
    const key = username.toLowerCase();
    const s = this.state.get(key);
    if (!s) return undefined;
    const now = this.now();
    const lockOver = s.lockedUntil !== null && s.lockedUntil <= now;
    const windowOver = s.lockedUntil === null && s.firstFailure + this.policy.windowMs <= now;
    if (lockOver || windowOver) {
      this.state.delete(key);
      // Only this stale state goes: a fresh count written meanwhile (here or elsewhere) stays.
      void this.sql
        .run('DELETE FROM iam_login_failure WHERE username = $1 AND first_failure = $2', [
          key,
          s.firstFailure,
        ])
        .catch(() => undefined);
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

  /**
   * The mirror's answer when it says "not locked" (no database round trip); a lock it shows is confirmed in the
   * database first, since another instance may have released it meanwhile.
   */
  async assertNotLockedCheaply(username: string): Promise<void> {
    if (this.lockedForSeconds(username) > 0) await this.assertNotLockedNow(username);
  }

  /** `assertNotLocked` after re-reading the database: a lock earned on another instance holds at once. */
  async assertNotLockedNow(username: string): Promise<void> {
    await this.refresh(username);
    this.assertNotLocked(username);
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
    await this.assertNotLockedNow(username);
    const delay = Math.max(
      this.delayFor(this.current(username)?.failures ?? 0, this.policy.slowAfter),
      this.delayFor(this.addressFailures(ip), this.policy.ipSlowAfter),
    );
    if (delay > 0) await this.sleep(delay);
  }

  async recordFailure(username: string, ip?: string): Promise<void> {
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
    const wasLocked = this.lockedForSeconds(key) > 0;
    const row = await this.sql.get<FailureRow>(RECORD_FAILURE, [
      key,
      now,
      this.policy.lockAfter,
      this.policy.lockMs,
      this.policy.windowMs,
    ]);
    const s = stateOf(row!);
    this.state.set(key, s);
    if (!wasLocked && s.lockedUntil !== null && s.lockedUntil > now) this.onLock(key);
    this.published(key);
  }

  /** A successful login clears the count (not a lock: a locked name never reaches a successful login). */
  async recordSuccess(username: string): Promise<void> {
    if (this.state.has(username.toLowerCase())) await this.forget(username.toLowerCase());
  }

  /** Lifts a lock (admin action). */
  async release(username: string): Promise<void> {
    await this.forget(username.toLowerCase());
  }

  /** The name's state, read from the database. */
  async status(username: string): Promise<BruteForceStatus> {
    await this.refresh(username);
    const s = this.current(username);
    return {
      username,
      failures: s?.failures ?? 0,
      locked: (s?.lockedUntil ?? 0) > this.now(),
      lockedUntil: s?.lockedUntil ?? null,
    };
  }

  private async forget(key: string): Promise<void> {
    this.state.delete(key);
    await this.sql.run('DELETE FROM iam_login_failure WHERE username = $1', [key]);
    this.published(key);
  }
}
