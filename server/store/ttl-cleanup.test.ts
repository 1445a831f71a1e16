import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestPropertyService, makePrincipal, type TestPropertyService } from './test-fixtures';
import { startTtlCleanup } from './ttl-cleanup';

describe('TTL cleanup', () => {
  let t: TestPropertyService;
  afterEach(() => t.close());

  it('deletes expired properties on its schedule and emits property.deleted', async () => {
    let now = 1_000_000;
    t = createTestPropertyService(() => now);
    const alice = makePrincipal('alice');
    await t.service.create(alice, { key: 'global/a', value: '1', timeToLive: 1 });
    await t.service.create(alice, { key: 'global/b', value: '1' });
    const info = vi.fn();
    const job = startTtlCleanup(t.service, { intervalMs: 10, logger: { info, error: vi.fn() } });
    now += 60_000;
    await vi.waitFor(async () => expect(await t.store.keys({ pattern: '**' })).toEqual(['global/b']));
    job.stop();
    await job.runOnce(); // joins a pass still in flight, if any
    expect(await job.runOnce()).toBe(0);
    await t.events.idle();
    expect(t.seen.map((e) => e.eventKey)).toEqual([
      'property.created',
      'property.created',
      'property.deleted',
    ]);
    expect(info).toHaveBeenCalledWith({ count: 1 }, 'expired properties deleted');
  });

  it('never runs two passes at once and survives a failing pass', async () => {
    let calls = 0;
    const error = vi.fn();
    const job = startTtlCleanup(
      {
        deleteExpired: async () => {
          calls += 1;
          throw new Error('disk full');
        },
      },
      { intervalMs: 60_000, logger: { info: vi.fn(), error } },
    );
    const [a, b] = [job.runOnce(), job.runOnce()];
    expect(await a).toBe(0);
    expect(await b).toBe(0);
    expect(calls).toBe(1);
    expect(error).toHaveBeenCalledOnce();
    job.stop();
    t = createTestPropertyService();
  });
});
