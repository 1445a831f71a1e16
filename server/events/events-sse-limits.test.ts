// SSE hardening: a client that stops reading is cut off (memory stays bounded, the server survives), and a
// subscriber's visibility follows IAM changes while the stream is open.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { eventsHandler } from '../http/events-route';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let ann: Principal;
let salesUuid: string;
beforeAll(async () => {
  // a real socket: event-stream clients connect over node:net
  server = await startTestServer({ socket: true });
  const { iam } = server.services;
  salesUuid = (await iam.groups.create({ name: 'sales' })).uuid;
  ann = await iam.createUser({
    username: 'ann',
    password: 'ann-pw',
    roles: ['ROLE_DEVELOPER'],
    groups: ['sales'],
  });
});
afterAll(() => server.close());

const admin = async () => (await server.services.iam.principalByUsername('admin'))!;

/** Opens an SSE stream on a raw socket that reads the response head and then stops reading. */
async function stalledClient(port: number, path: string, auth: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`);
  await once(socket, 'data');
  socket.pause();
  return socket;
}

/** Reads an SSE stream as text until `stop()`. */
async function reader(path: string, auth: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: auth },
    signal: controller.signal,
  });
  let text = '';
  const done = (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += Buffer.from(chunk).toString();
      }
    } catch {
      // aborted
    }
  })();
  return {
    get text() {
      return text;
    },
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('slow SSE clients', () => {
  it('are cut off once their backlog passes the limit, and the server keeps serving', async () => {
    const { events, properties } = server.services;
    const before = events.listenerCount;
    const port = Number(new URL(server.url).port);
    const socket = await stalledClient(port, '/api/v3/events', server.adminAuth);
    await until(() => events.listenerCount === before + 1);
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    const big = 'x'.repeat(1024 * 1024);
    // Each change event carries the value twice (origin and target): far more than 4 MiB plus socket buffers.
    for (let i = 0; i < 40 && !closed; i++) {
      await properties.create(await admin(), { key: `global/sse-slow/k${i % 4}`, value: `${i}${big}` });
      await events.idle();
    }
    await until(() => events.listenerCount === before);
    socket.resume(); // let the socket see the reset
    await until(() => closed);
    expect((await http(server.url, '/healthz')).status).toBe(200);
  }, 30_000);

  it('never write after the end: heartbeats and events after a cut-off are dropped, not thrown', async () => {
    // The route on its own server, with a tiny backlog limit and a fast heartbeat.
    const app = express();
    app.get(
      '/events',
      (_req, res, next) => {
        void admin().then((principal) => {
          res.locals.principal = principal;
          next();
        });
      },
      eventsHandler(server.services, { heartbeatMs: 5, maxBufferedBytes: 16 * 1024 }),
    );
    const own: Server = createServer(app).listen(0, '127.0.0.1');
    await once(own, 'listening');
    try {
      const socket = await stalledClient((own.address() as AddressInfo).port, '/events', 'x');
      socket.on('error', () => {});
      const { events, properties } = server.services;
      const before = events.listenerCount;
      for (let i = 0; i < 30 && events.listenerCount === before; i++) {
        await properties.create(await admin(), {
          key: `global/sse-beat/k${i % 3}`,
          value: 'y'.repeat(256 * 1024),
        });
        await events.idle();
      }
      // Heartbeats fire every 5 ms; an unhandled write-after-end error would fail this test run.
      await new Promise((r) => setTimeout(r, 100));
      expect(events.listenerCount).toBeLessThan(before);
      socket.destroy();
    } finally {
      own.closeAllConnections();
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  }, 30_000);
});

describe('SSE visibility follows IAM while the stream is open', () => {
  it('stops sending a group’s events once the subscriber leaves the group', async () => {
    const { iam, properties, events } = server.services;
    const stream = await reader('/api/v3/events', server.basicAuth('ann', 'ann-pw'));
    await properties.create(await admin(), { key: `group/${salesUuid}/before`, value: 'visible' });
    await events.idle();
    await until(() => stream.text.includes('visible'));
    await iam.groups.removeMember(salesUuid, ann.uuid);
    await properties.create(await admin(), { key: `group/${salesUuid}/after`, value: 'hidden-now' });
    await properties.create(await admin(), { key: 'global/sse-iam/marker', value: 'marker' });
    await events.idle();
    await until(() => stream.text.includes('marker'));
    await stream.stop();
    expect(stream.text).not.toContain('hidden-now');
  });

  it('ends the stream of a user who is disabled', async () => {
    const { iam, properties, events } = server.services;
    const ben = await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
    const stream = await reader('/api/v3/events', server.basicAuth('ben', 'ben-pw'));
    await iam.setEnabled(ben.uuid, false);
    await properties.create(await admin(), { key: 'global/sse-iam/after-disable', value: 'not for ben' });
    await events.idle();
    await stream.done; // the server ended the response
    expect(stream.text).not.toContain('not for ben');
  });
});
