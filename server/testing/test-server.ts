/** Starts the real app on a free loopback port with its own temporary database, for integration tests. */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app';
import { createHttpServer } from '../http/http-server';
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
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
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
  const server: Server = createHttpServer(app, config.listener ?? DEFAULT_LISTENER_CONFIG).listen(
    0,
    '127.0.0.1',
  );
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  config.port = port; // the address links (delivery mails, @instance) are made with
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    config,
    adminAuth: basicAuth('admin', TEST_ADMIN_PASSWORD),
    basicAuth,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
