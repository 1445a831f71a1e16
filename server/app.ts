/** The Express application: health, the API under /api/v3, the token endpoints and the built workbench. */
import { databaseAnswers } from './db/server-database';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';
import { pinsRoutes } from './runs/pins-routes';
import { runsRoutes } from './runs/runs-routes';
import { countRequests, METRICS_PATH, metricsHandlers } from './metrics/metrics-routes';
import { PipeworkError } from '../shared/errors';
import { authenticate } from './http/authenticate';
import { refuseCrossOrigin, refuseWritesOverGet } from './http/browser-request-guard';
import { securityHeaders } from './http/security-headers';
import { COMMAND_PATH, commandHandler, publicTokenCommandHandler } from './http/command-routes';
import { errorHandler } from './http/error-response';
import { pipelineHandler } from './http/pipeline-route';
import {
  PERSISTED_PIPELINE_PATH,
  putPersistedPipelineHandler,
  runPersistedPipelineHandler,
} from './http/persisted-pipeline-route';
import { pipelineDebugRoutes } from './http/pipeline-debug-route';
import { attachmentStreamHandler } from './http/attachment-stream-route';
import { driveStreamHandler } from './http/drive-stream-route';
import { deliveryPageRoutes } from './http/delivery-page-route';
import { EVENTS_PATH, eventsHandler } from './http/events-route';
import { schemaHandler } from './http/schema-route';
import { tokenRoutes } from './http/token-routes';
import { WEBHOOK_RECEIVE_PATHS, webhookReceiveHandler } from './http/webhook-route';
import { traceRequests } from './http/trace-id';
import { webApp } from './http/web-app';
import type { ServerServices } from './services';

/** The built workbench: beside the sources (server/ → dist/web) or beside the bundle (dist/server/ → dist/web). */
function defaultWebDist(): string {
  if (process.env.PIPEWORK_WEB_DIST) return process.env.PIPEWORK_WEB_DIST;
  const fromSources = fileURLToPath(new URL('../dist/web', import.meta.url));
  return existsSync(fromSources) ? fromSources : fileURLToPath(new URL('../web', import.meta.url));
}

export interface AppOptions {
  /** Folder of the built workbench; not served when it does not exist. */
  webDist?: string;
}

/** The answer to a known path called with a method it does not take. */
function methodNotAllowed(allow: string): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', allow);
    next(new PipeworkError('METHOD_NOT_ALLOWED', `${req.path} takes ${allow}, not ${req.method}.`));
  };
}

export function createApp(services: ServerServices, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', false);
  app.use(traceRequests(services.logger));
  app.use(securityHeaders());
  app.use(countRequests(services));
  // Another site's page may not call the API or the token endpoints with the browser's credentials.
  app.use(['/api', '/auth'], refuseCrossOrigin(services.config.allowedOrigins ?? []));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Readiness: the instance can serve, its database answers. Load balancers take an instance that cannot
  // reach the database out of rotation while /healthz (liveness) keeps it from being restarted.
  app.get('/readyz', (_req, res, next) => {
    databaseAnswers(services.database).then(
      (ready) => res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable' }),
      next,
    );
  });

  // The API's routes sit on the app itself, each with its own chain (no prefix middleware): the hot path
  // stays short.
  const caller = authenticate(services.authenticator);
  const command = commandHandler(services);
  const streamedAttachments = attachmentStreamHandler(services);
  const streamedDrive = driveStreamHandler(services);
  const publicTokens = publicTokenCommandHandler(services);
  app.all(WEBHOOK_RECEIVE_PATHS, webhookReceiveHandler(services)); // public: the token opens it
  app.get(
    COMMAND_PATH,
    schemaHandler(services),
    refuseWritesOverGet(services),
    publicTokens,
    caller,
    streamedAttachments,
    streamedDrive,
    command,
  );
  app.post(COMMAND_PATH, publicTokens, caller, streamedAttachments, streamedDrive, command);
  app.all(COMMAND_PATH, caller, methodNotAllowed('GET, POST'));
  app.post('/api/v3/pipeline', caller, pipelineHandler(services));
  app.all('/api/v3/pipeline', caller, methodNotAllowed('POST'));
  app.post(PERSISTED_PIPELINE_PATH, caller, runPersistedPipelineHandler(services));
  app.put(PERSISTED_PIPELINE_PATH, caller, putPersistedPipelineHandler(services));
  app.all(PERSISTED_PIPELINE_PATH, caller, methodNotAllowed('POST, PUT'));
  app.use(pipelineDebugRoutes(services, caller));
  app.get(EVENTS_PATH, caller, eventsHandler(services));
  app.use(runsRoutes(services, caller));
  app.use(pinsRoutes(services, caller));
  app.get(METRICS_PATH, ...metricsHandlers(services, caller));
  app.all(/^\/api\/v3(\/.*)?$/, caller, (req, _res, next) => {
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`));
  });

  app.use(deliveryPageRoutes(services)); // public: the secure delivery download page
  app.use(tokenRoutes(services.iam, services.logger));
  app.use(webApp(options.webDist ?? defaultWebDist()));
  app.use((req, _res, next) =>
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`)),
  );
  app.use(errorHandler(services.logger));
  return app;
}
