/** Slow clients: slow headers and slow bodies are cut off (408) while normal clients are served meanwhile. */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { command } from './support/requests';
import { ADMIN_AUTH, killHard, startServerProcess, type ServerProcess } from './support/server-process';

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-slow-'));
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(dataDir, {
    PIPEWORK_HEADERS_TIMEOUT_MS: '1000',
    PIPEWORK_REQUEST_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await killHard(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a socket that writes `pieces` one every `everyMs`, and resolves with what the server answered, if anything. */
function trickle(pieces: string[], everyMs: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  let received = '';
  const timer = setInterval(() => {
    const piece = pieces.shift();
    if (piece !== undefined && !socket.destroyed) socket.write(piece);
  }, everyMs);
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}

it('cuts off a client that sends its headers too slowly, serving others meanwhile', async () => {
  const headers = [
    'GET /healthz HTTP/1.1\r\n',
    'Host: x\r\n',
    ...Array.from({ length: 50 }, (_, i) => `X-${i}: v\r\n`),
  ];
  const started = Date.now();
  const slow = trickle(headers, 200);
  const served = await command(server.url, 'log', { message: 'hi' });
  expect(served.status).toBeLessThan(300);
  const answer = await slow.answer;
  expect(answer).toMatch(/^HTTP\/1\.1 408/);
  expect(Date.now() - started).toBeLessThan(6000);
});

it('cuts off a client that sends its body too slowly', async () => {
  const head =
    'POST /api/v3/command/log HTTP/1.1\r\nHost: x\r\n' +
    `Authorization: ${ADMIN_AUTH}\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n`;
  const started = Date.now();
  const slow = trickle([head, ...Array.from({ length: 100 }, () => 'x'.repeat(10))], 200);
  const served = await command(server.url, 'log', { message: 'hi' });
  expect(served.status).toBeLessThan(300);
  const answer = await slow.answer;
  expect(answer).toMatch(/^HTTP\/1\.1 408/);
  expect(Date.now() - started).toBeLessThan(8000);
});
