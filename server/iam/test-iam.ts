/** Test fixtures of the IAM module: an IAM on an in-memory database, and the real app with a test-speed IAM. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ServerConfig } from '../config';
import { type SqliteDatabase, openDatabase } from '../db';
import { SqliteSqlPort } from '../db/sql';
import { BUILT_IN_ROLES } from '../commands/command-roles';
import { silentLogger } from '../logging/logger';
import { http, type HttpResponse } from '../testing/http-client';
import { basicAuth, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

export { TEST_ADMIN_PASSWORD };
import { createIamService } from './iam-service';
import type { IamOptions, IamService } from './iam-types';
import { TEST_HASH_COST } from './password-hasher';

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
      uploadBytes: 1 << 30,
      pipelineSteps: 1000,
      pipelineMillis: 10_000,
    },
    ...overrides,
  };
}

export interface TestIam {
  iam: IamService;
  db: SqliteDatabase;
  sql: SqliteSqlPort;
  config: ServerConfig;
}

/** A fresh IAM; pass `db` to simulate a restart on the same database. */
export async function createTestIam(
  options: Partial<IamOptions> & { db?: SqliteDatabase; config?: Partial<ServerConfig> } = {},
): Promise<TestIam> {
  const { db: given, config: overrides, ...iamOptions } = options;
  const config = testConfig(overrides);
  const db = given ?? openDatabase(':memory:');
  const sql = new SqliteSqlPort(db);
  const iam = await createIamService(sql, config, silentLogger(), {
    builtInRoles: BUILT_IN_ROLES,
    passwordHashCost: TEST_HASH_COST,
    sleep: async () => {},
    ...iamOptions,
  });
  return { iam, db, sql, config };
}

/** `Authorization: Basic ...` for a username and password. */
export const basic = basicAuth;

/** The token endpoint of the default realm. */
export const TOKEN_PATH = '/auth/realms/pipework/protocol/openid-connect/token';

/** Posts a form to the token endpoint, as OAuth clients do. */
export function tokenRequest(
  server: { url: string },
  fields: Record<string, string>,
  path = TOKEN_PATH,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return http(server.url, path, {
    type: 'application/x-www-form-urlencoded',
    body: new URLSearchParams(fields).toString(),
    headers,
  });
}

export interface IamTestServer extends TestServer {
  iam: IamService;
}

/**
 * The real app (in-process, as startTestServer serves it by default), with an IAM that hashes at test speed,
 * waits nothing when slowing logins, and follows the given policies (brute force, token lifetimes, clock).
 * Give `databaseFile` to start again on the same database (a restart), `socket` for a real loopback port.
 */
export async function startIamTestServer(
  options: Partial<IamOptions> & { databaseFile?: string; socket?: boolean } = {},
): Promise<IamTestServer> {
  const { databaseFile, socket, ...iamOptions } = options;
  const server = await startTestServer({
    databaseFile,
    socket,
    services: { iam: { sleep: async () => {}, ...iamOptions } },
  });
  return { ...server, iam: server.services.iam };
}

/** A `start` for test files whose tests each start their own servers: they are closed after each test. */
export function serversClosedAfterEach(): (
  options?: Parameters<typeof startIamTestServer>[0],
) => Promise<IamTestServer> {
  const servers: IamTestServer[] = [];
  afterEach(async () => {
    while (servers.length) await servers.pop()!.close();
  });
  return async (options) => {
    const server = await startIamTestServer(options);
    // Closing one early (a restart) takes it off the list.
    const tracked: IamTestServer = {
      ...server,
      close: async () => {
        servers.splice(servers.indexOf(tracked), 1);
        await server.close();
      },
    };
    servers.push(tracked);
    return tracked;
  };
}
