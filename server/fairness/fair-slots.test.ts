import { describe, expect, it } from 'vitest';
import { FairSlots, SlotRefused } from './fair-slots';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'granted',
    (error: unknown) => (error instanceof SlotRefused ? error.reason : String(error)),
  );

describe('FairSlots', () => {
  it('grants at once below both caps, queues past them, refuses past the queue', async () => {
    const slots = new FairSlots({ total: 3, perKey: 2, queuePerKey: 1 });
    const a1 = await slots.acquire('a');
    await slots.acquire('a');
    const queued = slots.acquire('a');
    expect(await refusal(slots.acquire('a'))).toBe('queue-full');
    await slots.acquire('b'); // the third slot: b is below its cap
    expect(slots.usage()).toEqual({ held: 3, waiting: 1 });
    a1();
    a1(); // a second release does nothing
    await queued;
    expect(slots.usage('a')).toEqual({ held: 2, waiting: 0 });
    expect(slots.usage()).toEqual({ held: 3, waiting: 0 });
  });

  it('takes a free slot at once without a promise, and leaves a full one to acquire', async () => {
    const slots = new FairSlots({ total: 2, perKey: 1, queuePerKey: 1 });
    const a = slots.tryAcquire('a');
    expect(a).toBeTypeOf('function');
    expect(slots.tryAcquire('a')).toBeNull(); // a is at its cap
    const b = slots.tryAcquire('b');
    expect(slots.tryAcquire('c')).toBeNull(); // all slots held
    expect(slots.usage()).toEqual({ held: 2, waiting: 0 });
    const waiting = slots.acquire('c');
    b!();
    await waiting;
    expect(slots.usage('c')).toEqual({ held: 1, waiting: 0 });
    a!();
    slots.close();
    expect(slots.tryAcquire('a')).toBeNull();
  });

  it('serves the waiting key holding the fewest first, ties in turn', async () => {
    const slots = new FairSlots({ total: 2, perKey: 2, queuePerKey: 10 });
    const first = await slots.acquire('a');
    const second = await slots.acquire('a');
    const order: string[] = [];
    const wait = (key: string) => slots.acquire(key).then((release) => (order.push(key), release));
    const waits = [wait('a'), wait('a'), wait('b'), wait('c')];
    first(); // a holds 1, b and c none: b (waiting before c)
    second(); // a and c hold none: a, which has waited in turn longer
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['b', 'a']);
    (await waits[2])!(); // b's slot: c holds none, a one
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['b', 'a', 'c']);
  });

  it('leaves the queue on abort or timeout, and refuses everything once closed', async () => {
    const slots = new FairSlots({ total: 1, perKey: 1, queuePerKey: 5 });
    const held = await slots.acquire('a');
    const controller = new AbortController();
    const aborted = refusal(slots.acquire('b', { signal: controller.signal }));
    const timedOut = refusal(slots.acquire('c', { timeoutMillis: 20 }));
    controller.abort();
    expect(await aborted).toBe('cancelled');
    expect(await timedOut).toBe('timeout');
    expect(slots.usage()).toEqual({ held: 1, waiting: 0 });
    const waiting = refusal(slots.acquire('d'));
    slots.close();
    expect(await waiting).toBe('closed');
    expect(await refusal(slots.acquire('e'))).toBe('closed');
    held();
    expect(slots.usage()).toEqual({ held: 0, waiting: 0 });
  });

  it('times out each waiter at its own deadline with one timer, the shortest first', async () => {
    const slots = new FairSlots({ total: 1, perKey: 1, queuePerKey: 5 });
    const held = await slots.acquire('a');
    const order: string[] = [];
    const note = (name: string, promise: Promise<unknown>) =>
      refusal(promise).then((reason) => order.push(`${name}:${reason}`));
    const waits = [
      note('long', slots.acquire('b', { timeoutMillis: 80 })),
      note('short', slots.acquire('c', { timeoutMillis: 20 })),
      note('never', slots.acquire('d')),
    ];
    await Promise.all(waits.slice(0, 2));
    expect(order).toEqual(['short:timeout', 'long:timeout']);
    expect(slots.usage()).toEqual({ held: 1, waiting: 1 });
    held();
    await waits[2];
    expect(order).toEqual(['short:timeout', 'long:timeout', 'never:granted']);
  });

  it('leaves the queue when its cancellation cancels, and ignores one that cancels after the grant', async () => {
    const slots = new FairSlots({ total: 1, perKey: 1, queuePerKey: 5 });
    const cancellation = () => {
      const listeners: (() => void)[] = [];
      return {
        cancelled: false,
        onCancel: (listener: () => void) => listeners.push(listener),
        cancel: () => listeners.forEach((listener) => listener()),
      };
    };
    const held = await slots.acquire('a');
    const gone = cancellation();
    const served = cancellation();
    const leaving = refusal(slots.acquire('b', { cancellation: gone }));
    const staying = slots.acquire('c', { cancellation: served });
    gone.cancel();
    expect(await leaving).toBe('cancelled');
    held();
    const release = await staying;
    served.cancel();
    expect(slots.usage()).toEqual({ held: 1, waiting: 0 });
    release();
    expect(slots.usage()).toEqual({ held: 0, waiting: 0 });
    expect(await refusal(slots.acquire('d', { cancellation: { cancelled: true, onCancel: () => {} } }))).toBe(
      'cancelled',
    );
  });
});
