/**
 * `GET /api/v3/events`: property events as Server-Sent Events, each only to clients that may read every
 * property it is about. Query: `key` (event key, a trailing `*` allowed, e.g. `property.*`) and `filter`
 * (a property key pattern, e.g. `global/app/myapp/**`).
 */
import type { RequestHandler } from 'express';
import { hasPermission, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { compileKeyPattern, type KeyPattern } from '../../shared/property';
import { eventJson, type PipeworkEvent } from '../events/event-bus';
import { keysOfEvent } from '../events/event-listen-dispatcher';
import type { ServerServices } from '../services';

export const EVENTS_PATH = '/api/v3/events';
/** What following events requires: the right to list properties. */
export const EVENTS_PERMISSION = 'CAN_PIPE_property.list';
const HEARTBEAT_MS = 15_000;
/** A client that stops reading is dropped once this much is waiting for it. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function single(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new PipeworkError('PARAM_INVALID', `Parameter '${name}' takes one value.`, { parameter: name });
  }
  return value;
}

function eventKeyMatcher(key: string | undefined): (eventKey: string) => boolean {
  if (key === undefined) return () => true;
  if (key.endsWith('*')) {
    const prefix = key.slice(0, -1);
    return (eventKey) => eventKey.startsWith(prefix);
  }
  return (eventKey) => eventKey === key;
}

/** One SSE message: `id`, `event` and the event's JSON as `data`. */
export function sseMessage(event: PipeworkEvent): string {
  return `id: ${event.id}\nevent: ${event.eventKey}\ndata: ${JSON.stringify(eventJson(event))}\n\n`;
}

export function eventsHandler(services: ServerServices): RequestHandler {
  return (req, res, next) => {
    const principal = res.locals.principal as Principal | null;
    let pattern: KeyPattern | undefined;
    let wantsKey: (eventKey: string) => boolean;
    try {
      if (!principal || !hasPermission(principal, EVENTS_PERMISSION)) {
        throw new PipeworkError('FORBIDDEN', `Following events needs the permission ${EVENTS_PERMISSION}.`);
      }
      const filter = single(req.query.filter, 'filter');
      pattern = filter === undefined ? undefined : compileKeyPattern(filter);
      wantsKey = eventKeyMatcher(single(req.query.key, 'key'));
    } catch (error) {
      next(error);
      return;
    }
    const readable = services.properties.access.readFilter(principal);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write('retry: 3000\n: connected\n\n');

    const unsubscribe = services.events.subscribe((event) => {
      if (!wantsKey(event.eventKey)) return;
      const keys = keysOfEvent(event);
      if (!keys.every(readable)) return;
      if (pattern && !keys.some((key) => pattern.matches(key))) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.end();
        return;
      }
      res.write(sseMessage(event));
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  };
}
