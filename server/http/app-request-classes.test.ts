import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server';
import { DEFAULT_LISTENER_CONFIG } from './listener-config';

describe('requests born as the app’s', () => {
  const closers: (() => void)[] = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  it('gives each request and response the prototype Express would switch them to, before Express sees them', async () => {
    const app = express();
    const born = new WeakMap<IncomingMessage, { req: object; res: object }>();
    app.get('/probe', (req, res) => {
      const before = born.get(req)!;
      res.json({
        requestUnchanged: before.req === Object.getPrototypeOf(req),
        responseUnchanged: before.res === Object.getPrototypeOf(res),
        // Express's own request and response methods are still there.
        header: req.get('x-probe'),
      });
    });
    const server = createHttpServer(app, DEFAULT_LISTENER_CONFIG);
    // Runs before the app (the first listener): the objects as Node made them.
    server.prependListener('request', (req, res) => {
      born.set(req, { req: Object.getPrototypeOf(req) as object, res: Object.getPrototypeOf(res) as object });
    });
    server.listen(0, '127.0.0.1');
    closers.push(() => server.close());
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/probe`, { headers: { 'x-probe': 'yes' } });
    expect(await answer.json()).toEqual({ requestUnchanged: true, responseUnchanged: true, header: 'yes' });
  });
});
