/**
 * Stored pipelines read and parsed once per version: `POST /api/v3/pipeline:<key>` (the real clients' fast
 * path) takes the parsed script from here instead of reading the property and its text on every call. The
 * caller's right to read the key is checked on every call, as the store would check it, and the run is bound by
 * the code's author as `pipeline.start` binds it (stored-code-run-as.ts): the authors read with the text are
 * kept with it, and who the caller runs as is decided anew on every call.
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
import { forOneRun } from './parsed-pipelines';
import { readStoredCode, runAsFor, type StoredCodeServices } from './stored-code-run-as';

/** How many stored pipelines are kept, and how many characters of text they may add up to. */
export const STORED_PIPELINE_CACHE = { entries: 500, characters: 4_000_000 } as const;

interface Entry {
  property: Property;
  script: PipelineScript;
  /** Who wrote the code, read before and after its text (stored-code-run-as.ts). */
  authors: (string | null | undefined)[];
}

/** A stored pipeline ready for one run, and who the caller runs it as. */
export interface LoadedPipeline {
  property: Property;
  script: PipelineScript;
  runAs: Principal | null;
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
    private readonly services: StoredCodeServices,
    events: EventBus,
  ) {
    this.stops.push(services.properties.onCommitted((changes) => this.forget(changes)));
    this.stops.push(
      events.subscribe((event) => {
        if (!event.eventKey.startsWith('property.')) return;
        const { origin, target } = (event.payload ?? {}) as { origin?: Property; target?: Property };
        this.forget([{ origin: origin ?? null, target: target ?? null } as PropertyChange]);
      }),
    );
  }

  /** The stored pipeline at `rawKey` as the caller may read it, a script of its own for one run, and its runner. */
  async load(caller: Principal | null, rawKey: unknown): Promise<LoadedPipeline> {
    const key = normalizePropertyKey(rawKey);
    const { properties } = this.services;
    properties.access.assertRead(caller, key);
    const cached = this.entries.get(key);
    if (cached) {
      const runAs = await runAsFor(this.services, caller, key, cached.authors);
      return { property: cached.property, script: forOneRun(cached.script), runAs };
    }
    const seen = this.changesSeen;
    const {
      code: property,
      runAs,
      authors,
    } = await readStoredCode(this.services, caller, key, () => properties.get(caller, key));
    const script = scriptOfProperty(property, 'path');
    if (seen === this.changesSeen) {
      this.entries.set(key, { property, script, authors }, key.length + (property.value?.length ?? 0));
    }
    return { property, script: forOneRun(script), runAs };
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
