/**
 * Failed logins, counted so that a third party cannot aim a lock-out at someone else. Two counts:
 *
 * - per account and source (the client's address, see `login-source.ts`): slowed after `slowAfter` failures and
 *   locked hard after `lockAfter`. Only that pair is locked: the same account from another address still signs
 *   in, so an attacker locks out only themself.
 * - per account over every source: past `accountSlowAfter` failures each attempt on the account waits (doubling,
 *   at most `maxDelayMs`), from anywhere. It never locks: many sources together slow guessing down but cannot
 *   keep the owner out.
 *
 * Per address over all names (password spraying): slowed after `ipSlowAfter`, in memory only.
 *
 * The counts live in the database (`iam_login_failure`, one row per account and source, the account's own
 * count under the source `*`), shared by every instance and kept across restarts; each failure is one atomic
 * upsert per row. A mirror in memory answers the check on every request; the login path re-reads the
 * database, and other instances' changes reach the mirror through the IAM change feed. Only passwords are
 * guarded: a session already earned (access or refresh token) is no guess and is not refused by a lock.
 * An admin lifts locks with `iam.bruteforce.release`, or on the server with `npm run unlock -- <user>`.
 */
import { PipeworkError } from '../../shared/errors';
import type { SqlPort } from '../db/sql';
import { loginSourceOf } from './login-source';
import { isPossibleUsername } from './names';

export interface BruteForcePolicy {
  /** Failures of one account from one source after which its attempts there wait (the wait doubles). */
  slowAfter: number;
  /** Failures of one account from one source after which that source is locked out of that account. */
  lockAfter: number;
  /** Failures of one account from all sources together after which every attempt on it waits; never a lock. */
  accountSlowAfter: number;
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
  accountSlowAfter: 20,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  ipSlowAfter: 20,
};

/** The source under which an account's failures from everywhere are counted. */
export const ACCOUNT_SOURCE = '*';
const NEVER = 2 ** 31 - 1;
const MAX_TRACKED_ADDRESSES = 10_000;
/** Above this many names, names whose windows and locks are over are swept out of the mirror. */
const SWEEP_NAMES_ABOVE = 10_000;

interface FailureState {
  failures: number;
  firstFailure: number;
  lockedUntil: number | null;
}

interface FailureRow {
  username: string;
  source: string;
  failures: number;
  first_failure: number;
  locked_until: number | null;
}

export interface LockedSource {
  source: string;
  failures: number;
  lockedUntil: number;
}

export interface BruteForceStatus {
  username: string;
  /** Failures of the account from every source within the window. */
  failures: number;
  /** Whether some source is locked out of the account. */
  locked: boolean;
  /** When the last of its locks ends. */
  lockedUntil: number | null;
  /** The sources locked out of the account. */
  lockedSources: LockedSource[];
}

const stateOf = (row: FailureRow): FailureState => ({
  failures: Number(row.failures),
  firstFailure: Number(row.first_failure),
  lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
});

/**
 * One failure, atomically: a stale count (its window or lock over) starts again at 1, and the count that
 * reaches `lockAfter` sets the lock. $1 name, $2 source, $3 now, $4 lockAfter, $5 lockMs, $6 windowMs.
 */
const RECORD_FAILURE = `
  INSERT INTO iam_login_failure AS f (username, source, failures, first_failure, locked_until)
  VALUES ($1, $2, 1, CAST($3 AS BIGINT), CASE WHEN 1 >= $4 THEN CAST($3 AS BIGINT) + $5 ELSE NULL END)
  ON CONFLICT (username, source) DO UPDATE SET
    failures = CASE WHEN STALE THEN 1 ELSE f.failures + 1 END,
    first_failure = CASE WHEN STALE THEN CAST($3 AS BIGINT) ELSE f.first_failure END,
    locked_until = CASE
      WHEN STALE THEN (CASE WHEN 1 >= $4 THEN CAST($3 AS BIGINT) + $5 ELSE NULL END)
      WHEN f.locked_until IS NULL AND f.failures + 1 >= $4 THEN CAST($3 AS BIGINT) + $5
      ELSE f.locked_until END
  RETURNING username, source, failures, first_failure, locked_until`.replaceAll(
  'STALE',
  '((f.locked_until IS NOT NULL AND f.locked_until <= CAST($3 AS BIGINT)) OR ' +
    '(f.locked_until IS NULL AND f.first_failure + $6 <= CAST($3 AS BIGINT)))',
);

export class BruteForceGuard {
  /** Lower-case name → source → count. */
  private readonly state = new Map<string, Map<string, FailureState>>();
  /** Per client address, in memory only. */
  private readonly byAddress = new Map<string, { failures: number; firstFailure: number }>();
  private lastSweep = 0;

  constructor(
    private readonly sql: SqlPort,
    readonly policy: BruteForcePolicy = DEFAULT_BRUTE_FORCE_POLICY,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** Told when a name's count changed here, so other instances re-read it. */
    private readonly published: (username: string) => void = () => {},
  ) {}

  /** Loads every stored count into the mirror (at start, and after missing other instances' changes). */
  async load(): Promise<void> {
    const rows = await this.sql.all<FailureRow>('SELECT * FROM iam_login_failure');
    this.state.clear();
    for (const row of rows) this.put(row);
  }

  private put(row: FailureRow): void {
    const key = row.username.toLowerCase();
    let sources = this.state.get(key);
    if (!sources) this.state.set(key, (sources = new Map()));
    sources.set(row.source, stateOf(row));
  }

  /** Re-reads one name from the database into the mirror (the login path, and another instance's change). */
  async refresh(username: string): Promise<void> {
    const key = username.toLowerCase();
    if (!isPossibleUsername(key)) return;
    const rows = await this.sql.all<FailureRow>('SELECT * FROM iam_login_failure WHERE username = $1', [key]);
    this.state.delete(key);
    for (const row of rows) this.put(row);
  }

  /** The live count of a name from a source; a stale one (window or lock over) is dropped here and stored. */
  private current(key: string, source: string): FailureState | undefined {
    const sources = this.state.get(key);
    const s = sources?.get(source);
    if (!sources || !s) return undefined;
    const now = this.now();
    const lockOver = s.lockedUntil !== null && s.lockedUntil <= now;
    const windowOver = s.lockedUntil === null && s.firstFailure + this.policy.windowMs <= now;
    if (!lockOver && !windowOver) return s;
    sources.delete(source);
    if (sources.size === 0) this.state.delete(key);
    // Only this stale state goes: a fresh count written meanwhile (here or elsewhere) stays.
    void this.sql
      .run('DELETE FROM iam_login_failure WHERE username = $1 AND source = $2 AND first_failure = $3', [
        key,
        source,
        s.firstFailure,
      ])
      .catch(() => undefined);
    return undefined;
  }

  /** Seconds until the lock of this name from this address ends, or 0 when it is not locked. */
  lockedForSeconds(username: string, ip?: string): number {
    const s = this.current(username.toLowerCase(), loginSourceOf(ip));
    if (!s?.lockedUntil) return 0;
    return Math.max(1, Math.ceil((s.lockedUntil - this.now()) / 1000));
  }

  /** Throws TOO_MANY_REQUESTS while this address is locked out of the name. */
  assertNotLocked(username: string, ip?: string): void {
    const seconds = this.lockedForSeconds(username, ip);
    if (seconds > 0) {
      throw new PipeworkError(
        'TOO_MANY_REQUESTS',
        'Too many failed logins from this address; this account is temporarily locked for it.',
        { retryAfterSeconds: seconds },
      );
    }
  }

  /**
   * The mirror's answer when it says "not locked" (no database round trip); a lock it shows is confirmed in the
   * database first, since another instance may have released it meanwhile.
   */
  async assertNotLockedCheaply(username: string, ip?: string): Promise<void> {
    if (this.lockedForSeconds(username, ip) > 0) await this.assertNotLockedNow(username, ip);
  }

  /** `assertNotLocked` after re-reading the database: a lock earned on another instance holds at once. */
  async assertNotLockedNow(username: string, ip?: string): Promise<void> {
    await this.refresh(username);
    this.assertNotLocked(username, ip);
  }

  private delayFor(failures: number, after: number): number {
    if (failures < after) return 0;
    return Math.min(this.policy.baseDelayMs * 2 ** (failures - after), this.policy.maxDelayMs);
  }

  private addressFailures(source: string): number {
    const entry = this.byAddress.get(source);
    if (!entry) return 0;
    if (entry.firstFailure + this.policy.windowMs <= this.now()) {
      this.byAddress.delete(source);
      return 0;
    }
    return entry.failures;
  }

  /** Before a password check: refuses when locked, waits when the pair, the account or the address failed often. */
  async beforeAttempt(username: string, ip?: string): Promise<void> {
    await this.assertNotLockedNow(username, ip);
    const key = username.toLowerCase();
    const source = loginSourceOf(ip);
    const delay = Math.max(
      this.delayFor(this.current(key, source)?.failures ?? 0, this.policy.slowAfter),
      this.delayFor(this.current(key, ACCOUNT_SOURCE)?.failures ?? 0, this.policy.accountSlowAfter),
      this.delayFor(this.addressFailures(source), this.policy.ipSlowAfter),
    );
    if (delay > 0) await this.sleep(delay);
  }

  async recordFailure(username: string, ip?: string): Promise<void> {
    const source = loginSourceOf(ip);
    const entry = this.byAddress.get(source);
    if (entry && this.addressFailures(source) > 0) entry.failures += 1;
    else {
      if (this.byAddress.size >= MAX_TRACKED_ADDRESSES)
        this.byAddress.delete(this.byAddress.keys().next().value!);
      this.byAddress.set(source, { failures: 1, firstFailure: this.now() });
    }
    // A name no user can have is counted for its address only: it cannot be locked out, and junk names
    // (any length, any bytes) never fill the table.
    if (!isPossibleUsername(username)) return;
    const key = username.toLowerCase();
    const now = this.now();
    if (this.state.size > SWEEP_NAMES_ABOVE && now - this.lastSweep >= 60_000) {
      this.lastSweep = now;
      for (const [name, sources] of [...this.state])
        for (const s of [...sources.keys()]) this.current(name, s);
    }
    const { lockAfter, lockMs, windowMs } = this.policy;
    const rows = await Promise.all([
      this.sql.get<FailureRow>(RECORD_FAILURE, [key, source, now, lockAfter, lockMs, windowMs]),
      this.sql.get<FailureRow>(RECORD_FAILURE, [key, ACCOUNT_SOURCE, now, NEVER, lockMs, windowMs]),
    ]);
    for (const row of rows) this.put(row!);
    this.published(key);
  }

  /**
   * A successful login clears the count of its source (a locked source never reaches one). The account's own
   * count stays until its window ends: a guesser elsewhere keeps being slowed.
   */
  async recordSuccess(username: string, ip?: string): Promise<void> {
    const key = username.toLowerCase();
    const source = loginSourceOf(ip);
    if (!this.state.get(key)?.has(source)) return;
    this.state.get(key)!.delete(source);
    await this.sql.run('DELETE FROM iam_login_failure WHERE username = $1 AND source = $2', [key, source]);
    this.published(key);
  }

  /** Lifts every lock and count of a name (admin action). */
  async release(username: string): Promise<void> {
    const key = username.toLowerCase();
    this.state.delete(key);
    await this.sql.run('DELETE FROM iam_login_failure WHERE username = $1', [key]);
    this.published(key);
  }

  /** The name's state, read from the database. */
  async status(username: string): Promise<BruteForceStatus> {
    await this.refresh(username);
    const key = username.toLowerCase();
    const lockedSources: LockedSource[] = [];
    for (const source of [...(this.state.get(key)?.keys() ?? [])]) {
      const s = this.current(key, source);
      if (source !== ACCOUNT_SOURCE && s?.lockedUntil) {
        lockedSources.push({ source, failures: s.failures, lockedUntil: s.lockedUntil });
      }
    }
    const ends = lockedSources.map((l) => l.lockedUntil);
    return {
      username,
      failures: this.current(key, ACCOUNT_SOURCE)?.failures ?? 0,
      locked: lockedSources.length > 0,
      lockedUntil: ends.length > 0 ? Math.max(...ends) : null,
      lockedSources,
    };
  }
}
