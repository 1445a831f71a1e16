/**
 * Runs stored pipelines whose first command is `event.listen` when a matching event occurs: it keeps an index
 * of such pipelines (built at start, kept current from property events), evaluates each one's filter, and runs
 * it as the user who last wrote its property (any write re-binds it: a move or copy too, see docs/security.md,
 * "Who code runs as"), who must be able to read the properties the event is about. With several
 * instances (PostgreSQL) every dispatcher sees every event, and a `DispatchCoordination` makes each listener
 * run on one of them only, and lets a starting dispatcher catch up on what none dispatched.
 */
import type { Principal } from '../../shared/auth';
import { compileExpression, compileTemplate, containsExpression, type PelUtilities } from '../../shared/pel';
import { parsePipeline, type PipelineScript } from '../../shared/pipeline';
import { DEFAULT_RUN_LIMITS } from '../../shared/runner';
import { isAppPipelineKey, isJsonType, type Property } from '../../shared/property';
import type { Logger } from '../logging/logger';
import type { PropertyService } from '../store/property-service';
import type { DispatchCoordination } from './dispatch-coordination';
import type { PipeworkEvent } from './event-bus';
import { CascadeBudget, logCascadeRefusal } from './cascade-budget';
import { runInEventOrigin } from './event-context';
import { asProductProperty, payloadWithPaths } from './property-event-shape';

/** One stored pipeline that listens for an event. */
export interface EventListenerRegistration {
  pipelineKey: string;
  eventKey: string;
  filter?: string;
  script: PipelineScript;
}

export interface EventListenDispatcherOptions {
  properties: PropertyService;
  principalOf: (uuid: string) => Promise<Principal | null>;
  /** Runs a pipeline as a principal; resolves when it is done. */
  run: (script: PipelineScript, principal: Principal, pipelineKey: string) => Promise<unknown>;
  utilities: (principal: Principal) => PelUtilities;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** The budget of listener runs one write may cause (levels deep, runs in all); default 3 levels, 100 runs. */
  cascades?: CascadeBudget;
  /** Listener pipelines running at once; more wait in a queue. Default 8. */
  maxConcurrent?: number;
  /** Runs waiting at most; past it further runs are dropped (and logged), so a burst cannot exhaust memory. Default 10,000. */
  maxQueued?: number;
  /**
   * Several instances, each seeing every event (PostgreSQL): which one runs a listener, and what to catch up
   * at start. Without it this process runs every listener of every event it sees (SQLite).
   */
  coordination?: DispatchCoordination;
}

/**
 * The body an event.listen pipeline receives: the event (`payload` as SSE clients see it), with `origin` and
 * `target` also at the top in the real product's shape: `path` beside `key`, and a JSON value parsed.
 */
export function eventBody(event: PipeworkEvent): Record<string, unknown> {
  const payload = payloadWithPaths(structuredClone(event.payload)) as {
    origin?: unknown;
    target?: unknown;
  } | null;
  return {
    eventKey: event.eventKey,
    payload,
    origin: asProductProperty(payload?.origin ?? null),
    target: asProductProperty(payload?.target ?? null),
    timestamp: event.timestamp,
  };
}

/** The property keys an event is about (origin and target), for visibility checks. */
export function keysOfEvent(event: PipeworkEvent): string[] {
  const payload = event.payload as {
    origin?: { key?: unknown } | null;
    target?: { key?: unknown } | null;
  } | null;
  const keys: string[] = [];
  for (const side of [payload?.origin, payload?.target])
    if (typeof side?.key === 'string') keys.push(side.key);
  return keys;
}

export class EventListenDispatcher {
  private readonly registrations = new Map<string, EventListenerRegistration>();
  private unsubscribe?: () => void;
  private readonly cascades: CascadeBudget;
  private readonly maxConcurrent: number;
  private readonly maxQueued: number;
  private readonly waiting: (() => Promise<void>)[] = [];
  private active = 0;
  /** With coordination: the last event id seen (catch-up and live overlap), and the chain keeping event order. */
  private lastSeen = 0;
  private inOrder: Promise<void> = Promise.resolve();

  constructor(private readonly options: EventListenDispatcherOptions) {
    this.cascades = options.cascades ?? new CascadeBudget();
    this.maxConcurrent = options.maxConcurrent ?? 8;
    this.maxQueued = options.maxQueued ?? 10_000;
  }

  /** Indexes the stored listener pipelines and starts following events. */
  async start(): Promise<void> {
    const stored = await this.options.properties.store.list({ pattern: '**/pipeline/**' });
    for (const property of stored) this.index(property);
    const coordination = this.options.coordination;
    if (!coordination) {
      this.unsubscribe = this.options.properties.events.subscribe((event) => this.onEvent(event));
      return;
    }
    // Live events wait while the missed ones are dispatched; subscribed first, so none falls in between.
    let live: PipeworkEvent[] | undefined = [];
    this.unsubscribe = this.options.properties.events.subscribe((event) =>
      live ? void live.push(event) : this.onEvent(event),
    );
    try {
      for await (const event of coordination.missed()) void this.onEvent(event);
    } finally {
      const waiting = live;
      live = undefined;
      for (const event of waiting) void this.onEvent(event);
    }
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** The registered listeners, for `event.mapping`-style inspection and tests. */
  listeners(): EventListenerRegistration[] {
    return [...this.registrations.values()];
  }

  private index(property: Property): void {
    this.registrations.delete(property.key);
    if (!isAppPipelineKey(property.key) || !property.value?.includes('event.listen')) return;
    let script: PipelineScript;
    try {
      script = parsePipeline(property.value, isJsonType(property.type) ? 'json' : 'yaml');
    } catch {
      return; // not a pipeline (or a broken one): nothing listens
    }
    const first = script.steps[0];
    if (first?.command !== 'event.listen') return;
    const eventKey = first.params.key ?? first.defaultValue;
    if (typeof eventKey !== 'string' || eventKey === '') return;
    const filter = typeof first.params.filter === 'string' ? first.params.filter : undefined;
    this.registrations.set(property.key, { pipelineKey: property.key, eventKey, filter, script });
  }

  private onEvent(event: PipeworkEvent): Promise<unknown> | undefined {
    const coordination = this.options.coordination;
    if (coordination) {
      if (event.id <= this.lastSeen) return undefined; // dispatched already while catching up
      this.lastSeen = event.id;
    }
    this.track(event);
    const matching = [...this.registrations.values()].filter((r) => r.eventKey === event.eventKey);
    if (!coordination) {
      return matching.length === 0
        ? undefined
        : Promise.all(matching.map((registration) => this.schedule(registration, event)));
    }
    // Claimed at once, but scheduled (and reported handled) in event order, as without coordination.
    const claimed = Promise.all(
      matching.map((registration) => this.claim(coordination, registration, event)),
    );
    const scheduled = this.inOrder
      .then(() => claimed)
      .then((owned) => {
        coordination.handled(event.id);
        return matching.filter((_, i) => owned[i]).map((registration) => this.schedule(registration, event));
      });
    this.inOrder = scheduled.then(() => undefined);
    return scheduled.then((runs) => Promise.all(runs));
  }

  /** Whether this instance runs the listener for the event; a failed claim runs nowhere, and is logged. */
  private async claim(
    coordination: DispatchCoordination,
    registration: EventListenerRegistration,
    event: PipeworkEvent,
  ): Promise<boolean> {
    try {
      return await coordination.claim(event.id, registration.pipelineKey);
    } catch (error) {
      this.options.logger.error(
        { err: error, pipeline: registration.pipelineKey, eventKey: event.eventKey, eventId: event.id },
        'event listener not run: it could not be claimed',
      );
      return false;
    }
  }

  /** Queues one run; resolves when it is done (or dropped because too many are waiting). */
  private schedule(registration: EventListenerRegistration, event: PipeworkEvent): Promise<void> {
    if (this.waiting.length >= this.maxQueued) {
      this.options.logger.error(
        { pipeline: registration.pipelineKey, eventKey: event.eventKey, eventId: event.id },
        'event listener not run: too many runs waiting',
      );
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(() => this.trigger(registration, event).finally(resolve));
      this.pump();
    });
  }

  private pump(): void {
    while (this.active < this.maxConcurrent && this.waiting.length > 0) {
      const run = this.waiting.shift()!;
      this.active += 1;
      void run().finally(() => {
        this.active -= 1;
        this.pump();
      });
    }
  }

  /** Keeps the index current when pipelines are stored, changed, moved or deleted. */
  private track(event: PipeworkEvent): void {
    if (!event.eventKey.startsWith('property.')) return;
    const { origin, target } = (event.payload ?? {}) as {
      origin?: Property | null;
      target?: Property | null;
    };
    if (origin && isAppPipelineKey(origin.key)) this.registrations.delete(origin.key);
    if (target && isAppPipelineKey(target.key)) this.index(target);
  }

  private async trigger(registration: EventListenerRegistration, event: PipeworkEvent): Promise<void> {
    const { properties, logger } = this.options;
    const where = { pipeline: registration.pipelineKey, eventKey: event.eventKey, eventId: event.id };
    try {
      const author = await properties.store.authorOf(registration.pipelineKey);
      const principal = author ? await this.options.principalOf(author) : null;
      if (!principal) {
        logger.warn(where, 'event listener not run: the user who stored it no longer exists');
        return;
      }
      if (!keysOfEvent(event).every((key) => properties.access.canRead(principal, key))) return;
      const body = eventBody(event);
      if (registration.filter !== undefined && !this.passes(registration.filter, body, principal)) return;
      const admitted = this.cascades.admit(event, registration.pipelineKey);
      if (!admitted.ok) return logCascadeRefusal(logger, admitted, where);
      await runInEventOrigin(admitted.origin, () =>
        this.options.run({ ...registration.script, body }, principal, registration.pipelineKey),
      );
      logger.debug(where, 'event listener ran');
    } catch (error) {
      logger.error({ ...where, err: error }, 'event listener failed');
    }
  }

  private passes(filter: string, body: unknown, principal: Principal): boolean {
    const scope = { body, vars: {}, headers: {} };
    // A filter holds the event loop as a pipeline's expressions may: one slice at most.
    const options = {
      utilities: this.options.utilities(principal),
      limits: { maxEvaluationMs: DEFAULT_RUN_LIMITS.sliceMillis },
    };
    const result = containsExpression(filter)
      ? compileTemplate(filter).evaluate(scope, options)
      : compileExpression(filter).evaluate(scope, options);
    return result === true || result === 'true';
  }
}
