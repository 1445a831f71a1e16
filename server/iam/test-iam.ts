/** Test fixtures of the IAM module: an IAM on an in-memory database, and the real app with a test-speed IAM. */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app';
import { type ServerConfig, loadConfig } from '../config';
import { closeServices, createServices } from '../create-services';
import { type SqliteDatabase, openDatabase } from '../db';
import { silentLogger } from '../logging/logger';
import type { ServerServices } from '../services';
import { type IamOptions, type IamService, createIamService } from './iam-service';
import { TEST_HASH_COST } from './password-hasher';

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'pipework-iam-'));
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseFile: ':memory:',
    adminPassword: TEST_ADMIN_PASSWORD,
    realm: 'pipework',
    publicUrl: 'http://pipework.test',
    logLevel: 'silent',
    profiles: [],
    limits: {
      commandBodyBytes: 1 << 20,
      pipelineBodyBytes: 1 << 20,
      pipelineSteps: 1000,
      pipelineMillis: 10_000,
    },
    ...overrides,
  };
}

export interface TestIam {
  iam: IamService;
  db: SqliteDatabase;
  config: ServerConfig;
}

/** A fresh IAM; pass `db` to simulate a restart on the same database. */
export function createTestIam(
  options: IamOptions & { db?: SqliteDatabase; config?: Partial<ServerConfig> } = {},
): TestIam {
  const { db: given, config: overrides, ...iamOptions } = options;
  const config = testConfig(overrides);
  const db = given ?? openDatabase(':memory:');
  const iam = createIamService(db, config, silentLogger(), {
    passwordHashCost: TEST_HASH_COST,
    sleep: async () => {},
    ...iamOptions,
  });
  return { iam, db, config };
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface IamTestServer {
  url: string;
  services: ServerServices;
  iam: IamService;
  adminAuth: string;
  close(): Promise<void>;
}

/**
 * The real app on a loopback port, with an IAM that hashes at test speed and the given policies (brute force,
 * token lifetimes, clock). Give `databaseFile` to start again on the same database (a restart).
 */
export async function startIamTestServer(
  options: IamOptions & { databaseFile?: string } = {},
): Promise<IamTestServer> {
  const { databaseFile, ...iamOptions } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'pipework-auth-'));
  const config = loadConfig({
    PIPEWORK_DATA: dataDir,
    PIPEWORK_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    PORT: '0',
  });
  if (databaseFile) config.databaseFile = databaseFile;
  const services = createServices(config, silentLogger(), {
    iam: { passwordHashCost: TEST_HASH_COST, sleep: async () => {}, ...iamOptions },
  });
  const { iam } = services;
  const server = createApp(services, { webDist: join(dataDir, 'no-web') }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    iam,
    adminAuth: basic('admin', TEST_ADMIN_PASSWORD),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
