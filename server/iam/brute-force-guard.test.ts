// The brute-force guard alone: slowing, locking, windows, addresses, persistence.
import { describe, expect, it } from 'vitest';
import { SqliteSqlPort } from '../db/sql';
import { migrate, openDatabase } from '../db';
import { BruteForceGuard, DEFAULT_BRUTE_FORCE_POLICY } from './brute-force-guard';
import { IAM_MIGRATIONS } from './migrations';

function guard(policy: Partial<typeof DEFAULT_BRUTE_FORCE_POLICY> = {}) {
  const db = openDatabase(':memory:');
  migrate(db, 'iam', IAM_MIGRATIONS);
  let now = 1_000_000;
  const waits: number[] = [];
  const locked: string[] = [];
  const g = new BruteForceGuard(
    new SqliteSqlPort(db),
    {
      ...DEFAULT_BRUTE_FORCE_POLICY,
      slowAfter: 2,
      lockAfter: 4,
      baseDelayMs: 10,
      maxDelayMs: 25,
      ipSlowAfter: 3,
      ...policy,
    },
    () => now,
    async (ms) => void waits.push(ms),
    (name) => locked.push(name),
  );
  return { g, db, waits, locked, advance: (ms: number) => (now += ms) };
}

describe('BruteForceGuard', () => {
  it('slows with a doubling, capped wait, then locks and tells', async () => {
    const { g, waits, locked } = guard();
    for (let i = 0; i < 4; i++) {
      await g.beforeAttempt('Ann');
      await g.recordFailure('ann');
    }
    expect(waits).toEqual([10, 20]);
    expect(locked).toEqual(['ann']);
    await expect(g.beforeAttempt('ANN')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('forgets failures after the window and ends a lock after its time', async () => {
    const { g, advance } = guard({ windowMs: 1000, lockMs: 5000 });
    await g.recordFailure('bob');
    advance(1000);
    expect((await g.status('bob')).failures).toBe(0);
    for (let i = 0; i < 4; i++) await g.recordFailure('bob');
    expect(g.lockedForSeconds('bob')).toBe(5);
    advance(5000);
    expect(await g.status('bob')).toMatchObject({ locked: false, failures: 0 });
  });

  it('a success clears the count', async () => {
    const { g } = guard();
    await g.recordFailure('cy');
    await g.recordSuccess('cy');
    expect((await g.status('cy')).failures).toBe(0);
  });

  it('slows an address that sprays many usernames, without locking anyone', async () => {
    const { g, waits } = guard();
    for (const name of ['u1', 'u2', 'u3', 'u4']) await g.recordFailure(name, '10.0.0.9');
    await g.beforeAttempt('u5', '10.0.0.9');
    await g.beforeAttempt('u5', '10.0.0.10');
    expect(waits).toEqual([20]);
    expect((await g.status('u5')).locked).toBe(false);
  });

  it('reads locks back from the database (a restart keeps them)', async () => {
    const { g, db } = guard();
    for (let i = 0; i < 4; i++) await g.recordFailure('dee');
    const again = new BruteForceGuard(new SqliteSqlPort(db), g.policy, () => 1_000_000);
    expect((await again.status('dee')).locked).toBe(true);
  });

  it('counts a name no user can have for its address only, so junk names never fill the table', async () => {
    const { g, db, waits } = guard();
    for (let i = 0; i < 3; i++) await g.recordFailure(`${'x'.repeat(5000)}${i}`, '10.0.0.7');
    await g.recordFailure('bad name with spaces', '10.0.0.7');
    expect(db.prepare('SELECT COUNT(*) AS n FROM iam_login_failure').get()).toEqual({ n: 0 });
    await g.beforeAttempt('anyone', '10.0.0.7');
    expect(waits).toEqual([20]);
  });
});
