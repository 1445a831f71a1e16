import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { InMemorySocket } from './in-memory-socket';

function readAll(socket: InMemorySocket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return once(socket, 'end').then(() => text);
}

describe('InMemorySocket', () => {
  it('carries bytes both ways, with loopback addresses and each end the other’s port', async () => {
    const [client, server] = InMemorySocket.pair();
    expect([client.remoteAddress, server.remoteAddress]).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(client.remotePort).toBe(server.localPort);
    expect(server.remotePort).toBe(client.localPort);
    expect(client.localPort).not.toBe(server.localPort);
    const closed = Promise.all([once(client, 'close'), once(server, 'close')]);
    const atServer = readAll(server);
    const atClient = readAll(client);
    client.end('ping');
    server.end('pong');
    expect(await atServer).toBe('ping');
    expect(await atClient).toBe('pong');
    await closed; // both ends ended both ways
  });

  it('holds a writer back until the reader reads (backpressure)', async () => {
    const [client, server] = InMemorySocket.pair();
    const chunk = Buffer.alloc(64 * 1024);
    let accepted = 0;
    while (client.write(chunk)) accepted += 1;
    expect(accepted).toBeLessThan(10); // nothing reads the server end yet
    const drained = once(client, 'drain');
    server.resume();
    await drained;
    client.destroy();
    server.destroy();
  });

  it('lets the peer read its end of data when one end is destroyed, and then close', async () => {
    const [client, server] = InMemorySocket.pair();
    const closed = once(server, 'close');
    const atServer = readAll(server);
    client.write('last words');
    client.destroy();
    expect(await atServer).toBe('last words');
    server.end('lost'); // its peer is gone: written, never read
    await closed;
  });

  it('emits timeout after the set time without traffic, as the HTTP server’s keep-alive timer needs', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 100;
    server.emit('listening'); // the connection list, as serveInProcess starts it
    const [client, serverEnd] = InMemorySocket.pair();
    server.emit('connection', serverEnd);
    let answer = '';
    client.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const started = Date.now();
    client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(serverEnd, 'close'); // the server closed the idle kept-alive connection itself
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\n\r\nok$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    client.destroy();
    server.close();
  });
});
