/**
 * Graceful stop: on SIGTERM the server stops accepting connections, ends event streams, lets a request in
 * flight finish (its write is kept), closes the database and exits 0.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { command } from './support/requests';
import { ADMIN_AUTH, killHard, startServerProcess } from './support/server-process';

const dataDir = mkdtempSync(join(tmpdir(), 'pipework-stop-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A request body that arrives in 10 pieces over about `millis`. */
function slowBody(millis: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, millis / 10));
      controller.enqueue(new TextEncoder().encode(`piece ${sent}\n`));
      if (++sent === 10) controller.close();
    },
  });
}

function refusesConnections(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

it('drains a slow upload and an event stream on SIGTERM, then closes the database and exits 0', async () => {
  const server = await startServerProcess(dataDir, { PIPEWORK_SHUTDOWN_GRACE_MS: '10000' });
  const key = 'global/app/stop/doc';
  expect((await command(server.url, 'property.schema.put', { key, value: 'doc' })).status).toBe(200);

  const events = await fetch(`${server.url}/api/v3/events`, { headers: { authorization: ADMIN_AUTH } });
  expect(events.status).toBe(200);
  const streamEnded = (async () => {
    const reader = events.body!.getReader();
    for (;;) if ((await reader.read()).done) return 'ended';
  })().catch((error: unknown) => `failed: ${String(error)}`);

  const upload = fetch(`${server.url}/api/v3/command/property.attachment.put?key=${key}&name=slow.txt`, {
    method: 'POST',
    headers: { authorization: ADMIN_AUTH, 'content-type': 'text/plain' },
    body: slowBody(1500),
    duplex: 'half',
  } as RequestInit);

  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await refusesConnections(server.url)).toBe(true);

  const uploaded = await upload;
  expect(uploaded.status).toBe(200);
  expect(await streamEnded).toBe('ended');
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.output()).toMatch(/"msg":"stopped"/);
  expect(server.output()).toMatch(/"cut":0/);
  // The last connection's close checkpoints the write-ahead log and removes it.
  expect(existsSync(join(dataDir, 'pipework.sqlite-wal'))).toBe(false);

  const again = await startServerProcess(dataDir);
  const content = await command(again.url, 'property.attachment.content', { key, name: 'slow.txt' });
  expect(content.bytes.toString()).toContain('piece 9');
  await killHard(again);
});
