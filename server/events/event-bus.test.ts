import { describe, expect, it, vi } from 'vitest';
import { EventBus, eventJson, type PipeworkEvent } from './event-bus';
import { currentEventDepth, runAtEventDepth } from './event-context';

describe('EventBus', () => {
  it('delivers after the publisher returns, in order, to every listener', async () => {
    const bus = new EventBus({ clock: () => 42 });
    const seen: string[] = [];
    bus.subscribe((e) => void seen.push(`a:${e.eventKey}`));
    bus.subscribe((e) => void seen.push(`b:${e.eventKey}`));
    bus.publish('one', { origin: null, target: 1 });
    bus.publish('two', null);
    expect(seen).toEqual([]);
    await bus.idle();
    expect(seen).toEqual(['a:one', 'b:one', 'a:two', 'b:two']);
  });

  it('keeps going when a listener throws or rejects, and reports it', async () => {
    const error = vi.fn();
    const bus = new EventBus({ logger: { error } });
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('sync');
    });
    bus.subscribe(async () => {
      throw new Error('async');
    });
    bus.subscribe((e) => void seen.push(e.id));
    bus.publish('x', null);
    await bus.idle();
    expect(seen).toEqual([1]);
    expect(error).toHaveBeenCalledTimes(2);
  });

  it('waits in idle() for async listeners', async () => {
    const bus = new EventBus();
    let done = false;
    bus.subscribe(async () => {
      await new Promise((r) => setTimeout(r, 20));
      done = true;
    });
    bus.publish('x', null);
    await bus.idle();
    expect(done).toBe(true);
  });

  it('stops delivering after unsubscribe', async () => {
    const bus = new EventBus();
    const seen: PipeworkEvent[] = [];
    const off = bus.subscribe((e) => void seen.push(e));
    off();
    bus.publish('x', null);
    await bus.idle();
    expect(seen).toEqual([]);
    expect(bus.listenerCount).toBe(0);
  });

  it('records how deep in an event chain an event was published', async () => {
    const bus = new EventBus({ clock: () => 7 });
    const event = await runAtEventDepth(2, async () => {
      await Promise.resolve();
      expect(currentEventDepth()).toBe(2);
      return bus.publish('x', { origin: null, target: null }, { actor: 'u1' });
    });
    expect(event).toMatchObject({ depth: 2, actor: 'u1', timestamp: 7 });
    expect(eventJson(event)).toEqual({
      eventKey: 'x',
      payload: { origin: null, target: null },
      timestamp: 7,
    });
    expect(bus.publish('y', null).depth).toBe(0);
  });
});
