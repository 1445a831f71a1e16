/** The Express application: health, the API under /api/v3, the token endpoints and the built workbench. */
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { PipeworkError } from '../shared/errors';
import { authenticate } from './http/authenticate';
import { commandRoutes } from './http/command-routes';
import { errorHandler } from './http/error-response';
import { pipelineRoute } from './http/pipeline-route';
import { schemaRoute } from './http/schema-route';
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

  app.use(tokenRoutes(services.iam, services.logger));

  const api = Router();
  api.use(schemaRoute(services));
  api.use(authenticate(services.authenticator));
  api.use(commandRoutes(services));
  api.use(pipelineRoute(services));
  api.use((req, _res, next) => {
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} /api/v3${req.path}.`));
  });
  app.use('/api/v3', api);

  app.use(webApp(options.webDist ?? DEFAULT_WEB_DIST));
  app.use((req, _res, next) =>
    next(new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`)),
  );
  app.use(errorHandler(services.logger));
  return app;
}
