/**
 * Serves a real `http.Server` to this process's `fetch` without a TCP port: the server gets an origin of its
 * own (`http://in-process-<n>.test`), and `fetch` sends requests to such an origin over in-memory connections
 * that Node's HTTP server parses as it parses a socket's bytes. Requests to any other origin go out as before.
 *
 * The client side is undici's HTTP/1.1 client (the one Node's `fetch` is built on) with a `connect` that
 * returns one end of an `InMemorySocket` pair and hands the other end to the server. Responses stream as they
 * do over a socket, and aborting a request closes its connection, which the server sees as a client gone.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Agent } from 'undici';
import { InMemorySocket } from './in-memory-socket';

const HOST_SUFFIX = '.test';

interface Routing {
  servers: Map<string, Server>;
  agent: Agent;
  realFetch: typeof fetch;
  count: number;
}

/** One routing per process, kept on the global object so that a module loaded twice still wraps fetch once. */
const ROUTING = Symbol.for('pipework.testing.inProcessFetch');
type WithRouting = typeof globalThis & { [ROUTING]?: Routing };

function routing(): Routing {
  const global = globalThis as WithRouting;
  const existing = global[ROUTING];
  if (existing) return existing;
  const servers = new Map<string, Server>();
  const agent = new Agent({
    connect(options, callback) {
      const server = servers.get(options.hostname);
      if (!server) {
        callback(new Error(`No in-process server is serving ${options.hostname} (was it closed?)`), null);
        return;
      }
      const [client, serverEnd] = InMemorySocket.pair();
      server.emit('connection', serverEnd);
      // undici's connector type asks for a net.Socket; the in-memory end has the part of it undici uses
      callback(null, client as unknown as Socket);
    },
  });
  const created: Routing = { servers, agent, realFetch: globalThis.fetch, count: 0 };
  global[ROUTING] = created;
  globalThis.fetch = routedFetch;
  return created;
}

function hostOf(input: string | URL | Request): string | undefined {
  const href = input instanceof Request ? input.url : String(input);
  try {
    return new URL(href).hostname;
  } catch {
    return undefined; // not an absolute URL: the real fetch gives the error it gives
  }
}

function routedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { servers, agent, realFetch } = routing();
  const host = hostOf(input);
  if (host === undefined || !servers.has(host)) return realFetch(input, init);
  return realFetch(input, { ...init, dispatcher: agent } as RequestInit);
}

export interface InProcessRoute {
  /** `http://in-process-<n>.test`: the base URL that tests fetch. */
  origin: string;
  /** Stops routing the origin; the server's open connections are the server's to close. */
  remove(): void;
}

/**
 * Routes a fresh origin to `server`. Node starts the server's connection list (which `closeAllConnections`
 * and the headers and request timeouts work on) when the server is listening; it is started here as well,
 * since this server takes its connections without a listener.
 */
export function serveInProcess(server: Server): InProcessRoute {
  const state = routing();
  state.count += 1;
  const host = `in-process-${state.count}${HOST_SUFFIX}`;
  state.servers.set(host, server);
  server.emit('listening');
  return {
    origin: `http://${host}`,
    remove: () => {
      state.servers.delete(host);
    },
  };
}
