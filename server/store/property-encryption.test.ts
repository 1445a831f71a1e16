// Encrypted properties (guides/180_encryption.md) on both databases, through the real server: `encrypted: true`
// on property.schema.put seals every later value with the installation's secrets key; property.value.get
// decrypts for whoever may read the property (`decrypt: false` gives the sealed form); lists and property.get
// show the sealed form; the value is never in clear in the database (the SQLite files are read byte by byte,
// PostgreSQL's tables as text); a value that looks sealed is refused; a restored version stays sealed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../testing/command-forms';
import { http } from '../testing/http-client';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../testing/postgres';
import { startTestServer, type TestServer } from '../testing/test-server';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL encryption tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;
beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

const PLAIN = 'card-4111-1111-1111-1111';
const JSON_PLAIN = { iban: 'DE02120300000000202051', holder: 'Ann Example' };

async function freshDatabaseUrl(name: string): Promise<string> {
  const admin = new pg.Client(postgres!.url);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgres!.url);
  url.pathname = `/${name}`;
  return url.href;
}

/** Every text of the database: the SQLite files (with the WAL) as bytes, or PostgreSQL's tables as text. */
async function databaseText(server: TestServer, url?: string): Promise<string> {
  if (!url) {
    const dir = server.services.config.dataDir;
    return readdirSync(dir)
      .filter((f) => /\.(sqlite|db)(-wal|-shm)?$/.test(f) || f.includes('sqlite'))
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('\n');
  }
  const client = new pg.Client(url);
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const texts: string[] = [];
    for (const { table_name } of tables.rows) {
      const rows = await client.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`);
      texts.push(...rows.rows.map((r) => r.t));
    }
    return texts.join('\n');
  } finally {
    await client.end();
  }
}

const backends: [string, boolean][] = [
  ['SQLite', false],
  ['PostgreSQL', Boolean(pgMissing)],
];

describe.each(backends)('encrypted properties on %s', (name, skip) => {
  let server: TestServer;
  let url: string | undefined;
  let ann: string;
  let ben: string;
  let annUuid: string;

  beforeAll(async () => {
    if (skip) return;
    url = name === 'PostgreSQL' ? await freshDatabaseUrl(`encrypted_${process.pid}`) : undefined;
    // Every run's trace is kept, so the database check also covers what the run history records.
    const env: Record<string, string> = { PIPEWORK_RUNS_TRACE_SAMPLE: '1' };
    if (url) env.PIPEWORK_DATABASE_URL = url;
    server = await startTestServer({ env });
    const a = await server.services.iam.createUser({
      username: 'ann',
      password: 'ann-pw',
      roles: ['ROLE_DEVELOPER'],
    });
    annUuid = a.uuid;
    await server.services.iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
    ann = server.basicAuth('ann', 'ann-pw');
    ben = server.basicAuth('ben', 'ben-pw');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const run = (yaml: string, auth = ann) =>
    http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });

  it.skipIf(skip)('seals at rest, decrypts for readers, shows the sealed form elsewhere', async () => {
    const key = `user/${annUuid}/data/card`;
    const jsonKey = 'global/app/myapp/data/bank';
    // The values come from the service (a form would bring them), not as literals in a recorded pipeline.
    const annPrincipal = (await server.services.iam.principalByUsername('ann'))!;
    await server.services.properties.create(annPrincipal, { key, encrypted: true });
    await server.services.properties.put(annPrincipal, { key, value: PLAIN });
    await server.services.properties.create(annPrincipal, {
      key: jsonKey,
      type: 'application/json',
      value: JSON_PLAIN,
      encrypted: true,
    });
    const created = await run(`pipeline:
  - property.value.get:
      path: "${key}"
      decrypt: true
`);
    expect(created.status, created.text).toBe(200);
    expect(created.text).toBe(PLAIN);
    // The default of decrypt is true (api/commands.md); JSON comes back parsed.
    const json = await run(`pipeline:\n  - property.value.get:\n      path: "${jsonKey}"\n`);
    expect(json.json).toEqual(JSON_PLAIN);
    const sealed = await run(
      `pipeline:\n  - property.value.get:\n      path: "${key}"\n      decrypt: false\n`,
    );
    expect(String(sealed.json ?? sealed.text)).toMatch(/^\{"\$encrypted":"v1:/);
    const listed = await run(`pipeline:\n  - property.list:\n      pattern: "global/app/myapp/data/**"\n`);
    expect(JSON.stringify(listed.json)).not.toContain(JSON_PLAIN.iban);
    expect(JSON.stringify(listed.json)).toContain('$encrypted');
    const got = await run(`pipeline:\n  - property.get:\n      key: "${key}"\n`);
    expect(JSON.stringify(got.json)).not.toContain(PLAIN);
    // Ben may not read Ann's folder: no decrypting for him either.
    const foreign = await run(`pipeline:\n  - property.value.get:\n      path: "${key}"\n`, ben);
    expect(codeOf(foreign)).toBe('FORBIDDEN');
    expect(foreign.text).not.toContain(PLAIN);
    // Ben may read the global one, so he may decrypt it.
    const shared = await run(`pipeline:\n  - property.value.get:\n      path: "${jsonKey}"\n`, ben);
    expect(shared.json).toEqual(JSON_PLAIN);

    await server.services.runs.recorder.flush();
    const text = await databaseText(server, url);
    expect(text).toContain('$encrypted');
    expect(text, 'the runs were recorded').toContain(jsonKey);
    expect(text).not.toContain(PLAIN);
    expect(text).not.toContain(JSON_PLAIN.iban);
  });

  it.skipIf(skip)(
    'stays sealed: later writes, encrypting an existing value, a restored version',
    async () => {
      const key = 'global/app/myapp/data/later';
      const annPrincipal = (await server.services.iam.principalByUsername('ann'))!;
      const properties = server.services.properties;
      await properties.create(annPrincipal, { key, value: `plain-before-${name}` });
      await properties.create(annPrincipal, { key, encrypted: true });
      await properties.put(annPrincipal, { key, value: `second-secret-${name}` });
      await properties.create(annPrincipal, { key, value: `third-secret-${name}` });
      const first = await run(`pipeline:\n  - property.value.get: "${key}"\n`);
      expect(first.status, first.text).toBe(200);
      expect(first.text).toBe(`third-secret-${name}`);
      const history = await run(`pipeline:\n  - property.history.list:\n      key: "${key}"\n`);
      expect(history.status, history.text).toBe(200);
      const versions = (history.json as { id: number }[]).map((v) => v.id).sort((a, b) => a - b);
      const restored = await run(`pipeline:
  - property.history.restore:
      key: "${key}"
      version: ${versions[0]}
  - property.value.get: "${key}"
`);
      expect(restored.status, restored.text).toBe(200);
      expect(restored.text).toBe(`plain-before-${name}`);
      const text = await databaseText(server, url);
      expect(text).not.toContain(`second-secret-${name}`);
      expect(text).not.toContain(`third-secret-${name}`);
      const sealed = await run(
        `pipeline:\n  - property.value.get:\n      path: "${key}"\n      decrypt: false\n`,
      );
      expect(String(sealed.json ?? sealed.text)).toMatch(/^\{"\$encrypted":"v1:/);
    },
  );

  it.skipIf(skip)('a rotation of the secrets key seals the values again and loses none', async () => {
    const key = 'global/app/myapp/data/rotated';
    const made = await run(
      `pipeline:\n  - property.schema.put:\n      path: "${key}"\n      encrypted: true\n      value: "kept-${name}"\n`,
    );
    expect(made.status, made.text).toBe(200);
    const sealedForm = async () =>
      String(
        (await run(`pipeline:\n  - property.value.get:\n      path: "${key}"\n      decrypt: false\n`)).text,
      );
    const before = await sealedForm();
    const rotated = await http(server.url, '/api/v3/command/secret.key.rotate', {
      auth: server.adminAuth,
      method: 'POST',
    });
    expect(rotated.status, rotated.text).toBe(200);
    const after = await sealedForm();
    expect(after).not.toBe(before);
    expect(after).toContain(`"v1:${(rotated.json as { keyId: string }).keyId}:`);
    const value = await run(`pipeline:\n  - property.value.get: "${key}"\n`);
    expect(value.text).toBe(`kept-${name}`);
  });

  it.skipIf(skip)('refuses a value that looks sealed, writing nothing', async () => {
    const key = 'global/app/myapp/data/forged';
    const forged = await run(`pipeline:
  - property.schema.put:
      path: "${key}"
      value: '{"$encrypted":"v1:0123456789abcdef:AAAA"}'
`);
    expect(codeOf(forged)).toBe('PARAM_INVALID');
    const exists = await run(`pipeline:\n  - property.exists: "${key}"\n`);
    expect(exists.json).toBe(false);
  });
});
