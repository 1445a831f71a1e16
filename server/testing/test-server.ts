/**
 * Starts the real app with its own temporary database, for integration tests. By default the server takes its
 * requests in-process (in-process-fetch.ts): `fetch(server.url + ...)` goes through Node's HTTP parser and the
 * whole app without a TCP port. `socket: true` listens on a free loopback port instead, for tests that need
 * one (see the option).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app';
import { createHttpServer } from '../http/http-server';
import { serveInProcess, type InProcessRoute } from './in-process-fetch';
import { DEFAULT_LISTENER_CONFIG } from '../http/listener-config';
import { loadConfig, type ServerConfig } from '../config';
import { closeServices, createServices, type ServiceOptions } from '../create-services';
import { TEST_HASH_COST } from '../iam';
import { silentLogger, type Logger } from '../logging/logger';
import type { ServerServices } from '../services';

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

export interface TestServer {
  url: string;
  services: ServerServices;
  config: ServerConfig;
  /** `Authorization` header value for the first-start admin. */
  adminAuth: string;
  basicAuth(username: string, password: string): string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment variables as the server would read them (PIPEWORK_DATA and the admin password are set). */
  env?: Record<string, string>;
  logger?: Logger;
  /** Folder of a built workbench to serve. */
  webDist?: string;
  /** Service options; by default passwords are hashed at the cheap test cost. */
  services?: ServiceOptions;
  /** Start on an existing database file (a restart of an earlier test server). */
  databaseFile?: string;
  /**
   * Listen on a real loopback TCP port. Needed when something other than this process's `fetch` talks to
   * the server (a child process, a browser, `node:http` or `node:net` clients, the server's own outbound
   * HTTP client) or when the test is about socket behaviour. Without it, `url` works with `fetch` only.
   */
  socket?: boolean;
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

async function listenOnLoopback(server: Server, config: ServerConfig): Promise<InProcessRoute> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  config.port = port; // the address links (delivery mails, @instance) are made with
  return { origin: `http://127.0.0.1:${port}`, remove: () => {} };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipework-test-'));
  const config = loadConfig({
    PIPEWORK_DATA: dataDir,
    PIPEWORK_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    PORT: '0',
    ...options.env,
  });
  if (options.databaseFile) config.databaseFile = options.databaseFile;
  const services = await createServices(config, options.logger ?? silentLogger(), {
    ...options.services,
    iam: { passwordHashCost: TEST_HASH_COST, announce: () => {}, ...options.services?.iam },
  });
  const app = createApp(services, { webDist: options.webDist ?? join(dataDir, 'no-web') });
  const server: Server = createHttpServer(app, config.listener ?? DEFAULT_LISTENER_CONFIG);
  const transport = options.socket ? await listenOnLoopback(server, config) : serveInProcess(server);
  return {
    url: transport.origin,
    services,
    config,
    adminAuth: basicAuth('admin', TEST_ADMIN_PASSWORD),
    basicAuth,
    async close() {
      transport.remove();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve())); // an in-process server was never bound
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
