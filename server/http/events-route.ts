/**
 * `GET /api/v3/events`: property events as Server-Sent Events, each only to clients that may read every
 * property it is about. Query: `key` (event key, a trailing `*` allowed, e.g. `property.*`) and `filter`
 * (a property key pattern, e.g. `global/app/myapp/**`). On PostgreSQL a client sending `Last-Event-ID` first
 * receives the events it missed that the outbox still holds (`../events/follow-events.ts`).
 */
import type { RequestHandler, Response } from 'express';
import { eventStream } from '../../shared/api';
import { hasPermission, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { compileKeyPattern, type KeyPattern } from '../../shared/property';
import { eventJson, type PipeworkEvent } from '../events/event-bus';
import { keysOfEvent } from '../events/event-listen-dispatcher';
import { followEvents, parseLastEventId } from '../events/follow-events';
import type { ServerServices } from '../services';
import { checkedQuery } from './endpoint-route';

/** What following events requires: the right to list properties. */
export const EVENTS_PERMISSION = 'CAN_PIPE_property.list';
const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped once this much is waiting for it. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface EventsRouteOptions {
  heartbeatMs?: number;
  maxBufferedBytes?: number;
}

/** An empty value is no value. */
function given(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

function eventKeyMatcher(key: string | undefined): (eventKey: string) => boolean {
  if (key === undefined) return () => true;
  if (key.endsWith('*')) {
    const prefix = key.slice(0, -1);
    return (eventKey) => eventKey.startsWith(prefix);
  }
  return (eventKey) => eventKey === key;
}

/** Each event's message, built once however many clients receive it. */
const messages = new WeakMap<PipeworkEvent, string>();

/** One SSE message: `id`, `event` and the event's JSON as `data`. */
export function sseMessage(event: PipeworkEvent): string {
  let message = messages.get(event);
  if (message === undefined) {
    message = `id: ${event.id}\nevent: ${event.eventKey}\ndata: ${JSON.stringify(eventJson(event))}\n\n`;
    messages.set(event, message);
  }
  return message;
}

/**
 * What the subscriber may read now: its identity is looked up again for every event (IAM caches it), so a
 * user who leaves a group, loses the permission, or is disabled stops receiving what they may no longer see.
 */
function currentReader(services: ServerServices, principal: Principal) {
  let viewer: Principal | null | undefined;
  let readable: ((key: string) => boolean) | null = null;
  return async (): Promise<((key: string) => boolean) | null> => {
    const fresh = await services.iam.principalByUuid(principal.uuid);
    if (fresh !== viewer) {
      viewer = fresh;
      readable =
        fresh && hasPermission(fresh, EVENTS_PERMISSION)
          ? services.properties.access.readFilter(fresh)
          : null;
    }
    return readable;
  };
}

/** Whether the response can still take writes (a write after the end would crash the process). */
function open(res: Response): boolean {
  return !res.writableEnded && !res.destroyed;
}

export function eventsHandler(services: ServerServices, options: EventsRouteOptions = {}): RequestHandler {
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  return (req, res, next) => {
    const principal = res.locals.principal as Principal | null;
    let pattern: KeyPattern | undefined;
    let wantsKey: (eventKey: string) => boolean;
    try {
      if (!principal || !hasPermission(principal, EVENTS_PERMISSION)) {
        throw new PipeworkError('FORBIDDEN', `Following events needs the permission ${EVENTS_PERMISSION}.`);
      }
      const query = checkedQuery(eventStream, req);
      const filter = given(query.filter);
      pattern = filter === undefined ? undefined : compileKeyPattern(filter);
      wantsKey = eventKeyMatcher(given(query.key));
    } catch (error) {
      next(error);
      return;
    }
    const reader = currentReader(services, principal);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write('retry: 3000\n: connected\n\n');

    // Ends the stream at once; a client that stopped reading is cut off so its backlog is freed now.
    const stop = () => {
      unsubscribe();
      clearInterval(heartbeat);
      if (res.writableLength > 0) res.destroy();
      else if (open(res)) res.end();
    };
    const send = (text: string) => {
      if (!open(res)) return;
      // The backlog is bounded: past the limit the client is dropped rather than buffered for.
      if (res.writableLength > maxBuffered) return stop();
      res.write(text);
    };
    const deliver = async (event: PipeworkEvent) => {
      if (!open(res) || !wantsKey(event.eventKey)) return;
      const readable = await reader();
      if (!readable) return stop();
      const keys = keysOfEvent(event);
      if (!keys.every(readable)) return;
      if (pattern && !keys.some((key) => pattern.matches(key))) return;
      send(sseMessage(event));
    };
    // One event after the other, so the stream keeps the order of the events even when a reader lookup waits;
    // on PostgreSQL a client coming back with Last-Event-ID first gets what it missed, on any instance.
    const unsubscribe = followEvents(services.events, deliver, () => stop(), {
      lastEventId: parseLastEventId(req.get('last-event-id')),
    });
    const heartbeat = setInterval(() => send(': ping\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
    heartbeat.unref();
    // A failed write (the peer reset the connection) must not become an unhandled 'error' event.
    res.on('error', stop);
    res.on('close', stop);
  };
}
