/** The Express application: health, the API under /api/v3, the token endpoints and the built workbench. */
import { fileURLToPath } from 'node:url';
import express from 'express';
import { PipeworkError } from '../shared/errors';
import { authenticate } from './http/authenticate';
import { COMMAND_PATH, commandHandler } from './http/command-routes';
import { errorHandler } from './http/error-response';
import { pipelineHandler } from './http/pipeline-route';
import { propertyRoutes } from './http/property-routes';
import { schemaHandler } from './http/schema-route';
import { tokenRoutes } from './http/token-routes';
import { traceRequests } from './http/trace-id';
import { webApp } from './http/web-app';
import type { ServerServices } from './services';

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../dist/web', import.meta.url));

export interface AppOptions {
  /** Folder of the built workbench; not served when it does not exist. */
  webDist?: string;
}

export function createApp(services: ServerServices, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', false);
  app.use(traceRequests(services.logger));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // The API's routes sit on the app itself (no mounted router): the hot path stays short.
  const commandPath = new RegExp(`^/api/v3${COMMAND_PATH.source.slice(1)}`);
  app.get(commandPath, schemaHandler(services));
  app.use('/api/v3', authenticate(services.authenticator));
  app.use(...propertyRoutes(services));
  app.get(commandPath, commandHandler(services));
  app.post(commandPath, commandHandler(services));
  app.post('/api/v3/pipeline', pipelineHandler(services));
  app.all(/^\/api\/v3(\/.*)?$/, (req, _res, next) => {
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`));
  });

  app.use(tokenRoutes(services.iam, services.logger));
  app.use(webApp(options.webDist ?? DEFAULT_WEB_DIST));
  app.use((req, _res, next) =>
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`)),
  );
  app.use(errorHandler(services.logger));
  return app;
}
