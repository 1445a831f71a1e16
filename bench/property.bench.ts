/**
 * Property store benchmarks, each against raw better-sqlite3 in the same run: a `**` listing that matches
 * 1,000 of 100,000 properties, and how many properties a bulk publish creates per second.
 */
import { sqliteDb } from '../server/db/server-database';
import { randomUUID } from 'node:crypto';
import type { BenchReport } from './bench-report';
import { compareAsync } from './support/compare-async';
import type { Principal } from '../shared/auth';
import { startTestServer, type TestServer } from '../server/testing/test-server';

const APPS = 100;
const PER_APP = 1_000;
/** The common shape (`<folder>/**`, a prefix test) and one the general matcher answers (`**` in the middle). */
const LIST_PATTERNS = ['global/app/app-042/**', 'global/app/app-042/**/instance/*'];

/** Seeds 100 apps of 1,000 properties each in one transaction (setup, not measured). */
function seed(server: TestServer): void {
  const db = sqliteDb(server.services.database);
  const insert = db.prepare(
    `INSERT INTO property (uuid, key, value, type, created, version) VALUES (?, ?, ?, 'application/json', ?, 1)`,
  );
  db.transaction(() => {
    for (let app = 0; app < APPS; app++) {
      for (let i = 0; i < PER_APP; i++) {
        const key = `global/app/app-${String(app).padStart(3, '0')}/object/order/v1/instance/${String(i).padStart(5, '0')}`;
        insert.run(
          randomUUID(),
          key,
          JSON.stringify({ app, i, customer: `customer ${i}`, total: i * 3.5 }),
          Date.now(),
        );
      }
    }
  }).immediate();
}

async function benchList(report: BenchReport, server: TestServer, user: Principal, admin: Principal) {
  const { properties } = server.services;
  const db = sqliteDb(server.services.database);
  const raw = db.prepare('SELECT * FROM property WHERE key >= ? AND key < ? ORDER BY key');
  const [from, to] = ['global/app/app-042/', 'global/app/app-0420'];
  const expected = raw.all(from, to).length;
  for (const pattern of LIST_PATTERNS) {
    const got = (await properties.list(user, pattern)).length;
    if (got !== PER_APP || expected !== PER_APP) throw new Error(`${pattern} listed ${got}, raw ${expected}`);
    for (const [who, principal] of [
      ['a user', user],
      ['the admin', admin],
    ] as const) {
      const rates = await compareAsync(
        () => properties.list(principal, pattern),
        () => raw.all(from, to),
      );
      report.add({
        name: `property.list ${pattern} (1,000 of 100,000, as ${who})`,
        value: rates.ours,
        unit: 'lists/s',
        baseline: 'raw better-sqlite3 range query',
        baselineValue: rates.baseline,
      });
    }
  }
}

/** Runs `count` requests made by `request(i)` over `connections` concurrent clients; returns requests/s. */
async function concurrentRate(
  count: number,
  connections: number,
  request: (i: number) => Promise<Response>,
): Promise<number> {
  let next = 0;
  const client = async () => {
    for (let i = next++; i < count; i = next++) {
      const response = await request(i);
      if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, client));
  return (count * 1000) / (performance.now() - started);
}

async function benchPublish(report: BenchReport, server: TestServer, admin: Principal) {
  const count = 1_500;
  const connections = 8;
  const { properties } = server.services;
  const db = sqliteDb(server.services.database);
  // The baseline: the same durable single-row inserts, one transaction (and one fsync) each.
  const insert = db.prepare(
    `INSERT INTO property (uuid, key, value, type, created, version) VALUES (?, ?, ?, 'application/yaml', ?, 1)`,
  );
  let started = performance.now();
  for (let i = 0; i < count; i++)
    insert.run(randomUUID(), `global/app/raw/pipeline/p${i}`, `pipeline:\n  - log: ${i}\n`, Date.now());
  const rawRate = (count * 1000) / (performance.now() - started);

  started = performance.now();
  for (let i = 0; i < count; i++) {
    await properties.create(admin, {
      key: `global/app/svc/pipeline/p${i}`,
      value: `pipeline:\n  - log: ${i}\n`,
      type: 'application/yaml;type=pipeline',
    });
  }
  const serviceRate = (count * 1000) / (performance.now() - started);
  report.add({
    name: 'bulk publish: PropertyService.create (durable, one transaction each)',
    value: serviceRate,
    unit: 'props/s',
    baseline: 'raw better-sqlite3 durable insert',
    baselineValue: rawRate,
  });

  // What `pi publish` does: one property.schema.put per file over HTTP, several at a time. Its baseline is the
  // cheapest command over the same HTTP stack, so the ratio shows what storing costs on top of a request.
  const auth = { authorization: server.adminAuth };
  const httpRate = await concurrentRate(count, connections, (i) =>
    fetch(
      `${server.url}/api/v3/command/property.schema.put?key=global/app/pub/pipeline/p${i}&type=application/yaml;type=pipeline`,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/yaml' },
        body: `pipeline:\n  - log: ${i}\n`,
      },
    ),
  );
  const trivialRate = await concurrentRate(count, connections, () =>
    fetch(`${server.url}/api/v3/command/datetime`, { headers: auth }),
  );
  report.add({
    name: `bulk publish: property.schema.put over HTTP (${connections} clients)`,
    value: httpRate,
    unit: 'props/s',
    baseline: 'GET datetime, same HTTP stack',
    baselineValue: trivialRate,
  });
}

export default async function (report: BenchReport): Promise<void> {
  const server = await startTestServer({ socket: true }); // measured over a real loopback connection
  try {
    const { iam } = server.services;
    seed(server);
    const user = await iam.createUser({
      username: 'bench-user',
      password: 'bench-pw',
      roles: ['ROLE_DEVELOPER'],
    });
    const admin = (await iam.principalByUsername('admin'))!;
    await benchList(report, server, user, admin);
    await benchPublish(report, server, admin);
  } finally {
    await server.close();
  }
}
