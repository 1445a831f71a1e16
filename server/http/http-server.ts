/**
 * The HTTP server around the app, with the listener's limits for slow clients: slow headers and slow bodies are
 * cut off (Node answers 408) while other clients are served. Node checks these limits on a timer
 * (`connectionsCheckingInterval`, 30 s by default), so it is set to a fraction of the shortest limit. Its
 * requests and responses are born as the app's (`app-request-classes.ts`).
 */
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { requestClassesOf } from './app-request-classes';
import { answerClientErrors } from './client-error';
import type { ListenerConfig } from './listener-config';

export function createHttpServer(app: Express, listener: ListenerConfig): Server {
  const server = createServer(
    {
      ...requestClassesOf(app),
      headersTimeout: listener.headersTimeoutMs,
      requestTimeout: Math.max(listener.requestTimeoutMs, listener.headersTimeoutMs),
      keepAliveTimeout: listener.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(listener.headersTimeoutMs / 4))),
    },
    app,
  );
  answerClientErrors(server);
  return server;
}
