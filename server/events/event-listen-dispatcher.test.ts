// The dispatcher on its own: who a listener runs as, how many run at once, and what a burst may queue.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth';
import type { PipelineScript } from '../../shared/pipeline';
import { createTestPropertyService, makePrincipal, type TestPropertyService } from '../store/test-fixtures';
import { EventListenDispatcher } from './event-listen-dispatcher';

const LISTENER = `pipeline:
  - event.listen:
      key: property.created
  - log: hi
`;

const ann = makePrincipal('ann', { developer: true });
const admin = makePrincipal('root', { admin: true });
const principals = new Map([
  ['ann', ann],
  ['root', admin],
]);

let t: TestPropertyService;
afterEach(() => t.close());

function logger() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
}

/** A dispatcher whose runs record who they ran as and wait until `release()`. */
function dispatcher(options: { maxConcurrent?: number; maxQueued?: number } = {}) {
  const ranAs: string[] = [];
  let running = 0;
  let peak = 0;
  const gates: (() => void)[] = [];
  const log = logger();
  const d = new EventListenDispatcher({
    properties: t.service,
    principalOf: async (uuid) => principals.get(uuid) ?? null,
    run: async (_script: PipelineScript, principal: Principal) => {
      ranAs.push(principal.uuid);
      running += 1;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running -= 1;
    },
    utilities: () => ({}),
    logger: log,
    ...options,
  });
  /** Opens every gate until the bus and all runs have settled. */
  const release = async () => {
    let settled = false;
    const idle = t.events.idle().then(() => (settled = true));
    while (!settled) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setImmediate(r));
    }
    await idle;
  };
  return { d, ranAs, log, release, peak: () => peak };
}

describe('EventListenDispatcher', () => {
  it('runs at most maxConcurrent listener pipelines at once, and all of them in the end', async () => {
    t = createTestPropertyService();
    const { d, ranAs, release, peak } = dispatcher({ maxConcurrent: 3 });
    await d.start();
    await t.service.create(ann, { key: 'global/app/a/pipeline/p', value: LISTENER });
    for (let i = 0; i < 20; i++) await t.service.create(ann, { key: `global/burst/${i}`, value: 'x' });
    await new Promise((r) => setImmediate(r));
    expect(peak()).toBe(3);
    await release();
    expect(ranAs).toHaveLength(21); // its own creation, then the burst
    d.stop();
  });

  it('drops runs past maxQueued and logs them instead of queueing without bound', async () => {
    t = createTestPropertyService();
    const { d, ranAs, log, release } = dispatcher({ maxConcurrent: 1, maxQueued: 5 });
    await d.start();
    await t.service.create(ann, { key: 'global/app/a/pipeline/p', value: LISTENER });
    for (let i = 0; i < 20; i++) await t.service.create(ann, { key: `global/burst/${i}`, value: 'x' });
    await release();
    expect(ranAs).toHaveLength(6); // one running, five waiting
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ pipeline: 'global/app/a/pipeline/p' }),
      'event listener not run: too many runs waiting',
    );
    d.stop();
  });

  it('re-binds a listener to whoever changes it last: after an admin moves and retypes it, it runs as the admin', async () => {
    t = createTestPropertyService();
    const { d, ranAs, release } = dispatcher();
    await d.start();
    await t.service.create(ann, { key: 'global/app/a/pipeline/p', value: LISTENER });
    await release();
    expect(ranAs).toEqual(['ann']);
    await t.service.move(admin, 'global/app/a/pipeline/p', 'global/app/b/pipeline/p');
    await release();
    expect(await t.store.authorOf('global/app/b/pipeline/p')).toBe('root');
    await t.service.create(ann, { key: 'global/app/b/pipeline/p', type: 'application/yaml' });
    await release();
    expect(await t.store.authorOf('global/app/b/pipeline/p')).toBe('ann');
    await t.service.create(admin, { key: 'global/app/b/pipeline/p', type: 'application/yaml' });
    await release();
    ranAs.length = 0;
    await t.service.create(ann, { key: 'global/trigger', value: 'x' });
    await release();
    expect(ranAs).toEqual(['root']);
    d.stop();
  });
});
