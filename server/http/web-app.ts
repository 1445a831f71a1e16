/** Serves the built workbench (dist/web) with a fallback to index.html for the app's own routes. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';

export function webApp(distDir: string): Router {
  const router = Router();
  const index = join(distDir, 'index.html');
  router.use(express.static(distDir, { index: 'index.html', maxAge: '1h', setHeaders: noCacheForIndex }));
  router.get(/^\/(?!api\/|auth\/|healthz|readyz).*/, (_req, res, next) => {
    if (!existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}

function noCacheForIndex(res: express.Response, path: string): void {
  if (path.endsWith('index.html')) res.setHeader('Cache-Control', 'no-cache');
}
