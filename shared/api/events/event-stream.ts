/**
 * `GET /api/v3/events`: property events as Server-Sent Events (`text/event-stream`; each message's `data` is
 * one event's JSON), each only to clients that may read every property it is about (docs/events.md).
 */
import { defineEndpoint, type None } from '../endpoint';

export interface EventStreamQuery {
  /** The event key, a trailing `*` allowed (`property.*`, `*`). */
  key?: string;
  /** A property key pattern (`global/app/myapp/**`). */
  filter?: string;
}

/** The answer is a stream of messages, read as it comes (never as one JSON value). */
export const eventStream = defineEndpoint<None, EventStreamQuery, None, ReadableStream<Uint8Array>>({
  method: 'GET',
  path: '/api/v3/events',
  summary: 'following events',
  query: {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'The event key; a trailing * matches any rest.' },
      filter: { type: 'string', description: 'A property key pattern, e.g. global/app/myapp/**.' },
    },
  },
});
