import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { inSequence, underPrefixes } from './in-sequence';

const mark =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.append('X-Seen', name);
    next();
  };

let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use(
    inSequence(
      mark('a'),
      (req, res, next) => {
        if (req.path === '/answered') res.send('answered early');
        else if (req.path === '/failed') next(new Error('stopped'));
        else if (req.path === '/thrown') throw new Error('thrown');
        else next();
      },
      mark('c'),
    ),
  );
  app.use(underPrefixes(['/api', '/auth'], mark('guarded')));
  app.get('/{*rest}', (_req, res) => res.send('reached'));
  app.use(((error, _req, res, _next) => {
    res.status(500).send(`error: ${(error as Error).message}`);
  }) as express.ErrorRequestHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('inSequence', () => {
  it.each([
    ['/go', 200, 'reached', 'a, c'],
    ['/api', 200, 'reached', 'a, c, guarded'],
    ['/api/v3/pipeline', 200, 'reached', 'a, c, guarded'],
    ['/API/v3/pipeline', 200, 'reached', 'a, c, guarded'],
    ['/Auth/realms/x', 200, 'reached', 'a, c, guarded'],
    ['/apix/v3', 200, 'reached', 'a, c'],
    ['/x/api', 200, 'reached', 'a, c'],
    ['/answered', 200, 'answered early', 'a'],
    ['/failed', 500, 'error: stopped', 'a'],
    ['/thrown', 500, 'error: thrown', 'a'],
  ])(
    '%s: runs the handlers in order until one answers or fails, the guarded ones under their prefixes',
    async (path, status, body, seen) => {
      const response = await fetch(url + path);
      expect(response.status).toBe(status);
      expect(await response.text()).toBe(body);
      expect(response.headers.get('x-seen')).toBe(seen);
    },
  );
});
