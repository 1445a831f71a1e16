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
  );
  return { g, db, waits, advance: (ms: number) => (now += ms) };
}

describe('BruteForceGuard', () => {
  it('slows with a doubling, capped wait, then locks the source out of the account', async () => {
    const { g, waits } = guard();
    for (let i = 0; i < 4; i++) {
      await g.beforeAttempt('Ann', '10.0.0.1');
      await g.recordFailure('ann', '10.0.0.1');
    }
    expect(waits).toEqual([10, 20]);
    await expect(g.beforeAttempt('ANN', '10.0.0.1')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    // Another source is not locked out of the account.
    await expect(g.beforeAttempt('ann', '10.0.0.2')).resolves.toBeUndefined();
    expect(await g.status('ann')).toMatchObject({
      failures: 4,
      locked: true,
      lockedSources: [{ source: '10.0.0.1', failures: 4 }],
    });
  });

  it('slows an account failed from many sources, but never locks it', async () => {
    const { g, waits } = guard({ accountSlowAfter: 6, lockAfter: 4 });
    for (let i = 0; i < 12; i++) await g.recordFailure('ada', `10.1.0.${i}`);
    await g.beforeAttempt('ada', '10.2.0.1');
    expect(waits).toEqual([25]); // 10 * 2^(12-6), capped at maxDelayMs
    expect((await g.status('ada')).locked).toBe(false);
  });

  it('counts an IPv6 /64 as one source and an IPv4-mapped address as its IPv4 form', async () => {
    const { g } = guard();
    for (let i = 1; i <= 4; i++) await g.recordFailure('ivo', `2001:db8:1:2::${i}`);
    await expect(g.beforeAttempt('ivo', '2001:db8:1:2:ffff::9')).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    await expect(g.beforeAttempt('ivo', '2001:db8:1:3::1')).resolves.toBeUndefined();
    for (let i = 0; i < 4; i++) await g.recordFailure('ivo', '::ffff:10.9.9.9');
    await expect(g.beforeAttempt('ivo', '10.9.9.9')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
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

  it("a success clears its source's count; the account's count stays for its window", async () => {
    const { g, waits } = guard({ ipSlowAfter: 100 });
    for (let i = 0; i < 3; i++) await g.recordFailure('cy', '10.0.0.3');
    await g.recordSuccess('cy', '10.0.0.3');
    await g.beforeAttempt('cy', '10.0.0.3');
    expect(waits).toEqual([]);
    expect((await g.status('cy')).failures).toBe(3);
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
