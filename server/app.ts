/** The Express application: health, the API under /api/v3, the token endpoints and the built workbench. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';
import { pinsRoutes } from './runs/pins-routes';
import { runsRoutes } from './runs/runs-routes';
import { countRequests, metricsHandlers } from './metrics/metrics-routes';
import { eventStream, metrics, putStoredPipeline, receiveWebhook, runStoredPipeline } from '../shared/api';
import { PipeworkError } from '../shared/errors';
import { authenticate } from './http/authenticate';
import { refuseCrossOrigin, refuseWritesOverGet } from './http/browser-request-guard';
import { securityHeaders } from './http/security-headers';
import { COMMAND_PATH, commandHandler, publicTokenCommandHandler } from './http/command-routes';
import { errorHandler } from './http/error-response';
import { pipelineHandler } from './http/pipeline-route';
import { putPersistedPipelineHandler, runPersistedPipelineHandler } from './http/persisted-pipeline-route';
import { routeOf } from './http/endpoint-route';
import { healthRoutes } from './http/health-routes';
import { pipelineDebugRoutes } from './http/pipeline-debug-route';
import { attachmentStreamHandler } from './http/attachment-stream-route';
import { driveStreamHandler } from './http/drive-stream-route';
import { deliveryPageRoutes } from './http/delivery-page-route';
import { eventsHandler } from './http/events-route';
import { schemaHandler } from './http/schema-route';
import { tokenRoutes } from './http/token-routes';
import { webhookReceiveHandler } from './http/webhook-route';
import { traceRequests } from './http/trace-id';
import { inSequence, underPrefixes } from './http/in-sequence';
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
  // What every request passes, as one layer.
  app.use(
    inSequence(
      traceRequests(services.logger),
      securityHeaders(),
      countRequests(services),
      // Another site's page may not call the API or the token endpoints with the browser's credentials.
      underPrefixes(['/api', '/auth'], refuseCrossOrigin(services.config.allowedOrigins ?? [])),
    ),
  );

  // The API's routes sit on the app itself, each with its own chain (no prefix middleware): the hot path
  // stays short.
  const caller = authenticate(services.authenticator);
  const command = commandHandler(services);
  const streamedAttachments = attachmentStreamHandler(services);
  const streamedDrive = driveStreamHandler(services);
  const publicTokens = publicTokenCommandHandler(services);
  // Public: the token opens it. GET or POST; any other method is the same 404 as an unknown path.
  app.all(routeOf(receiveWebhook), webhookReceiveHandler(services));
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
  // The body is the pipeline's (run) or the pipeline (put), in any type: the handlers read it themselves.
  app.post(routeOf(runStoredPipeline), caller, runPersistedPipelineHandler(services));
  app.put(routeOf(putStoredPipeline), caller, putPersistedPipelineHandler(services));
  app.all(routeOf(runStoredPipeline), caller, methodNotAllowed('POST, PUT'));
  app.use(pipelineDebugRoutes(services, caller));
  app.get(routeOf(eventStream), caller, eventsHandler(services)); // a stream: its own handler
  app.use(runsRoutes(services, caller));
  app.use(pinsRoutes(services, caller));
  app.get(routeOf(metrics), ...metricsHandlers(services, caller)); // text, not JSON
  app.all(/^\/api\/v3(\/.*)?$/, caller, (req, _res, next) => {
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`));
  });

  app.use(healthRoutes(services)); // after the API's routes: they are not on its paths
  app.use(deliveryPageRoutes(services)); // public: the secure delivery download page
  app.use(tokenRoutes(services.iam, services.logger));
  app.use(webApp(options.webDist ?? defaultWebDist()));
  app.use((req, _res, next) =>
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`)),
  );
  app.use(errorHandler(services.logger));
  return app;
}
