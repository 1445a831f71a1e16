/**
 * "Run this periodic job on one instance of the installation at a time": the TTL cleanup and other jobs ask a
 * `JobLock` before each pass. The embedded (SQLite) installation is one process, so `InProcessJobLock` only
 * keeps two passes of one job from overlapping; on PostgreSQL, `PostgresJobLock` holds a session advisory
 * lock on a dedicated pool connection for the pass, so instances sharing the database run it once between them.
 */
import type { Pool, PoolClient } from 'pg';

/** What a pass came to: its value when it ran, `ran: false` when another pass of the job held the lock. */
export type JobRun<T> = { ran: true; value: T } | { ran: false };

export interface JobLock {
  /** Runs `fn` unless a pass of `job` is running (here or on another instance); never waits for it. */
  runExclusive<T>(job: string, fn: () => Promise<T>): Promise<JobRun<T>>;
}

/** One process (the SQLite installation): every pass runs, but never two of the same job at once. */
export class InProcessJobLock implements JobLock {
  private readonly running = new Set<string>();

  async runExclusive<T>(job: string, fn: () => Promise<T>): Promise<JobRun<T>> {
    if (this.running.has(job)) return { ran: false };
    this.running.add(job);
    try {
      return { ran: true, value: await fn() };
    } finally {
      this.running.delete(job);
    }
  }
}

/** The advisory lock key of a job: one per job name, shared by every instance on the database. */
const JOB_LOCK_KEY = "hashtext('pipework.job.' || $1)";

/**
 * Several instances on one PostgreSQL database: `pg_try_advisory_lock` on a connection taken from the pool
 * for the whole pass, unlocked after it (also when it fails). A connection that breaks meanwhile is
 * discarded, which ends its session and so its lock.
 */
export class PostgresJobLock implements JobLock {
  /** `pool`: the installation's pool; each running pass holds one of its connections. */
  constructor(private readonly pool: Pool) {}

  async runExclusive<T>(job: string, fn: () => Promise<T>): Promise<JobRun<T>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      let locked: boolean;
      try {
        const sql = `SELECT pg_try_advisory_lock(${JOB_LOCK_KEY}) AS locked`;
        locked = (await client.query<{ locked: boolean }>(sql, [job])).rows[0]?.locked === true;
      } catch (error) {
        broken = asError(error);
        throw error;
      }
      if (!locked) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        broken = await unlock(client, job);
      }
    } finally {
      // Releasing with an error destroys the connection: its session, and any lock it still held, ends.
      client.release(broken);
    }
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** Unlocks the job; the error when that failed (the connection is then not fit for reuse). */
async function unlock(client: PoolClient, job: string): Promise<Error | undefined> {
  try {
    await client.query(`SELECT pg_advisory_unlock(${JOB_LOCK_KEY})`, [job]);
    return undefined;
  } catch (error) {
    return asError(error);
  }
}
