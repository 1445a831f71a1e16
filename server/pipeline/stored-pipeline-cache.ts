/**
 * Stored pipelines read and parsed once per version: `POST /api/v3/pipeline:<key>` (the real clients' fast
 * path) takes the parsed script from here instead of reading the property and its text on every call. The
 * caller's right to read the key is checked on every call, as the store would check it.
 *
 * An entry goes when its property changes: at once for a write on this instance (`onCommitted`, before the
 * writer's answer leaves), and through the property events for a write on another instance (PostgreSQL), so
 * there a run may take the previous version until the event arrives (milliseconds).
 */
import type { Principal } from '../../shared/auth';
import { normalizePropertyKey, type Property, type PropertyChange } from '../../shared/property';
import type { PipelineScript } from '../../shared/pipeline';
import { LruCache } from '../../shared/values/lru-cache';
import { scriptOfProperty } from './stored-pipeline-script';
import type { EventBus } from '../events/event-bus';
import type { PropertyService } from '../store/property-service';
import { forOneRun } from './parsed-pipelines';

/** How many stored pipelines are kept, and how many characters of text they may add up to. */
export const STORED_PIPELINE_CACHE = { entries: 500, characters: 4_000_000 } as const;

interface Entry {
  property: Property;
  script: PipelineScript;
}

export class StoredPipelineCache {
  private readonly entries = new LruCache<Entry>(
    STORED_PIPELINE_CACHE.entries,
    STORED_PIPELINE_CACHE.characters,
  );
  /** Counts every change seen: a read that a change overtook does not store what it read. */
  private changesSeen = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly properties: PropertyService,
    events: EventBus,
  ) {
    this.stops.push(properties.onCommitted((changes) => this.forget(changes)));
    this.stops.push(
      events.subscribe((event) => {
        if (!event.eventKey.startsWith('property.')) return;
        const { origin, target } = (event.payload ?? {}) as { origin?: Property; target?: Property };
        this.forget([{ origin: origin ?? null, target: target ?? null } as PropertyChange]);
      }),
    );
  }

  /** The stored pipeline at `rawKey` as the caller may read it, and a script of its own for one run. */
  async load(
    principal: Principal | null,
    rawKey: unknown,
  ): Promise<{ property: Property; script: PipelineScript }> {
    const key = normalizePropertyKey(rawKey);
    this.properties.access.assertRead(principal, key);
    const cached = this.entries.get(key);
    if (cached) return { property: cached.property, script: forOneRun(cached.script) };
    const seen = this.changesSeen;
    const property = await this.properties.get(principal, key);
    const script = scriptOfProperty(property, 'path');
    if (seen === this.changesSeen) {
      this.entries.set(key, { property, script }, key.length + (property.value?.length ?? 0));
    }
    return { property, script: forOneRun(script) };
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private forget(changes: readonly PropertyChange[]): void {
    this.changesSeen++;
    for (const { origin, target } of changes) {
      if (origin?.key) this.entries.delete(origin.key);
      if (target?.key) this.entries.delete(target.key);
    }
  }
}
