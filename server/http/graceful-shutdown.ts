/**
 * A stop that loses no acknowledged work: the listener stops accepting, idle connections close, event streams
 * end (their clients reconnect elsewhere), and requests in flight get a grace period to finish before the
 * remaining connections are cut. The caller closes the database afterwards.
 */
import type { Server, ServerResponse } from 'node:http';

export interface DrainResult {
  /** Requests that were still running when the stop began. */
  inFlight: number;
  /** Event streams that were ended. */
  streamsEnded: number;
  /** Requests cut because the grace period ran out. */
  cut: number;
}

export interface RequestTracker {
  readonly inFlight: number;
  drain(graceMs: number): Promise<DrainResult>;
}

const isEventStream = (res: ServerResponse) =>
  String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

export function trackRequests(server: Server): RequestTracker {
  const open = new Set<ServerResponse>();
  let draining = false;
  let settle: (() => void) | undefined;
  server.on('request', (_req, res: ServerResponse) => {
    open.add(res);
    // A request that arrives on a kept-alive connection during the stop is served, then its connection closes.
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    res.on('close', () => {
      open.delete(res);
      if (open.size === 0) settle?.();
    });
  });
  return {
    get inFlight() {
      return open.size;
    },
    async drain(graceMs) {
      draining = true;
      const inFlight = open.size;
      server.close();
      server.closeIdleConnections();
      let streamsEnded = 0;
      for (const res of open) {
        if (isEventStream(res)) {
          streamsEnded++;
          res.end();
        } else if (!res.headersSent) {
          res.setHeader('Connection', 'close');
        }
      }
      if (open.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          settle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const cut = open.size;
      server.closeAllConnections();
      return { inFlight, streamsEnded, cut };
    },
  };
}
