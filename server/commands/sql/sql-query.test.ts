// sql.query against a real PostgreSQL on loopback and a real SQLite file, through HTTP and in pipelines.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../../testing/postgres';
import { startTestServer, type TestServer } from '../../testing/test-server';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`sql.query PostgreSQL tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;
const REPORTER_PASSWORD = 'r3p0rter-pw-7f1c';
let server: TestServer;
let dir: string;
let liteFile: string;

/** sql.query as the admin, in the GET form and on the main server unless told otherwise. */
const sqlQuery = (input: Record<string, unknown>, form: CommandForm = 'GET', on: TestServer = server) =>
  callCommand(form, on.url, 'sql.query', input, on.adminAuth);
const pipeline = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

async function pgCount(sql: string): Promise<number> {
  const client = new pg.Client(postgres!.url);
  await client.connect();
  try {
    return Number((await client.query(sql)).rows[0].n);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipework-sql-'));
  liteFile = join(dir, 'shop.db');
  const lite = new Database(liteFile);
  lite.exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, secret TEXT);
    INSERT INTO items (name, price, secret) VALUES ('apple', 1.5, 'a'), ('pear', 2.25, 'b'), ('plum', 3, 'c');`);
  lite.close();
  const env: Record<string, string> = {
    PIPEWORK_DATASOURCE_LITE_URL: `sqlite:${liteFile}`,
    PIPEWORK_DATASOURCE_LITE_RW_URL: liteFile,
    PIPEWORK_DATASOURCE_LITE_RW_WRITE: 'true',
    PIPEWORK_SQL_MAX_ROWS: '100',
    PIPEWORK_SQL_TIMEOUT_MILLIS: '1500',
  };
  if (!pgMissing) {
    postgres = await startTestPostgres();
    const client = new pg.Client(postgres.url);
    await client.connect();
    await client.query(`CREATE ROLE reporter LOGIN PASSWORD '${REPORTER_PASSWORD}'`);
    await client.query(`CREATE TABLE items (id serial PRIMARY KEY, name text, price numeric, born date, raw bytea);
      INSERT INTO items (name, price, born, raw) VALUES ('apple', 1.5, '2024-02-29', '\\x0102'), ('pear', 2.25, NULL, NULL), ('plum', 3, NULL, NULL);`);
    await client.end();
    env.PIPEWORK_DATASOURCE_PG_URL = postgres.url;
    env.PIPEWORK_DATASOURCE_PG_RW_URL = postgres.url;
    env.PIPEWORK_DATASOURCE_PG_RW_WRITE = 'true';
    // Logs in as the user of an installation secret, not the URL's.
    env.PIPEWORK_DATASOURCE_REPORTS_URL = postgres.url;
    env.PIPEWORK_DATASOURCE_REPORTS_SECRET = 'reports-login';
    env.PIPEWORK_DATASOURCE_WRONGKIND_URL = postgres.url;
    env.PIPEWORK_DATASOURCE_WRONGKIND_SECRET = 'a-bearer';
    env.PIPEWORK_DATASOURCE_NOSECRET_URL = postgres.url;
    env.PIPEWORK_DATASOURCE_NOSECRET_SECRET = 'never-stored';
  }
  server = await startTestServer({ env });
}, 60_000);

afterAll(async () => {
  await server?.close();
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sql.query on SQLite', () => {
  it.each<CommandForm>(['GET', 'pipeline'])('returns rows as objects (%s), values bound', async (form) => {
    const response = await sqlQuery(
      { datasource: 'lite', query: 'SELECT name, price FROM items WHERE price > ? ORDER BY id', params: [2] },
      form,
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { name: 'pear', price: 2.25 },
      { name: 'plum', price: 3 },
    ]);
  });

  it('takes values from PEL as bound parameters, named or positional, and writes to output', async () => {
    const response = await pipeline(`vars:
  wanted: pear
pipeline:
  - sql.query:
      datasource: LITE
      query: "SELECT id, name FROM items WHERE name = :name"
      params:
        name: "#{vars.wanted}"
      output: "#{vars.rows}"
  - set.body: "#{vars.rows[0].id}"
`);
    expect(response.status).toBe(200);
    expect(response.json).toBe(2);
  });

  it('treats SQL in a parameter as a value: injection does nothing', async () => {
    const hostile = "x' OR '1'='1'; DROP TABLE items; --";
    const response = await pipeline(`vars:
  name: ${JSON.stringify(hostile)}
pipeline:
  - sql.query:
      datasource: lite_rw
      query: "SELECT * FROM items WHERE name = ?"
      params: ["#{vars.name}"]
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
    const lite = new Database(liteFile, { readonly: true });
    expect(lite.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 3 });
    lite.close();
  });

  it('refuses #{...} in the query text: values are never spliced into SQL', async () => {
    const response = await pipeline(`vars:
  name: "x' OR '1'='1"
pipeline:
  - sql.query:
      datasource: lite
      query: "SELECT * FROM items WHERE name = '#{vars.name}'"
`);
    expect(response.status).toBe(400);
    expect(codeOf(response)).toBe('PARAM_INVALID');
    expect(response.json.value.message).toContain('params');
  });

  it('refuses a write on a read-only source, and a second statement in one query', async () => {
    const write = await sqlQuery({ datasource: 'lite', query: "DELETE FROM items WHERE name = 'apple'" });
    expect(write.status).toBe(403);
    expect(codeOf(write)).toBe('FORBIDDEN');
    expect(write.json.value.message).toContain('PIPEWORK_DATASOURCE_LITE_WRITE=true');
    const two = await sqlQuery({ datasource: 'lite_rw', query: 'SELECT 1; DELETE FROM items' });
    expect(two.status).toBe(400);
    const lite = new Database(liteFile, { readonly: true });
    expect(lite.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 3 });
    lite.close();
  });

  it('refuses ATTACH (another file) and VACUUM INTO on every source', async () => {
    for (const query of [`ATTACH '${liteFile}' AS other`, `VACUUM INTO '${join(dir, 'copy.db')}'`]) {
      const response = await sqlQuery({ datasource: 'lite_rw', query });
      expect(response.status, query).toBe(403);
    }
  });

  it('writes on a source that allows them', async () => {
    const response = await sqlQuery(
      { datasource: 'lite_rw', query: 'UPDATE items SET price = ? WHERE name = ?', params: [9, 'plum'] },
      'pipeline',
    );
    expect(response.json).toEqual([{ changes: 1 }]);
  });

  it('answers the row limit and the time limit with LIMIT_EXCEEDED, and keeps serving', async () => {
    const many = await sqlQuery({
      datasource: 'lite',
      query: 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n',
    });
    expect(codeOf(many)).toBe('LIMIT_EXCEEDED');
    const started = Date.now();
    const slow = sqlQuery({
      datasource: 'lite',
      query: 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n',
    });
    // The server is not held up while the query runs.
    const health = await http(server.url, '/healthz');
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    const slowResponse = await slow;
    expect(codeOf(slowResponse)).toBe('LIMIT_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(5000);
    const after = await sqlQuery({ datasource: 'lite', query: 'SELECT count(*) AS n FROM items' });
    expect(after.json).toEqual([{ n: 3 }]);
  });

  it('offers the rows as lists, with the column names apart', async () => {
    const response = await sqlQuery({
      datasource: 'lite',
      query: 'SELECT id, name FROM items ORDER BY id LIMIT 2',
      columnName: 'columns',
    });
    expect(response.json).toEqual({
      data: [
        [1, 'apple'],
        [2, 'pear'],
      ],
      columns: ['id', 'name'],
    });
  });
});

describe('sql.query errors', () => {
  it('names an unknown data source and how to configure it', async () => {
    const response = await sqlQuery({ datasource: 'nope', query: 'SELECT 1' });
    expect(response.status).toBe(404);
    expect(codeOf(response)).toBe('NOT_FOUND');
    expect(response.json.value.message).toContain('PIPEWORK_DATASOURCE_NOPE_URL');
  });

  it('never offers the server’s own database as the default source', async () => {
    const response = await sqlQuery({ query: 'SELECT 1' });
    expect(codeOf(response)).toBe('NOT_FOUND');
    expect(response.json.value.message).toContain("'hub'");
  });

  it('answers a SQL error as BAD_REQUEST with the database’s message', async () => {
    const response = await sqlQuery({ datasource: 'lite', query: 'SELECT * FROM missing_table' });
    expect(response.status).toBe(400);
    expect(response.json.value.message).toContain('no such table');
  });

  it('needs the CAN_PIPE_sql.query permission', async () => {
    await server.services.iam.createUser({ username: 'sqlless', password: 'sqlless-pass-1' });
    const response = await callCommand(
      'GET',
      server.url,
      'sql.query',
      { datasource: 'lite', query: 'SELECT 1' },
      server.basicAuth('sqlless', 'sqlless-pass-1'),
    );
    expect(response.status).toBe(403);
  });
});

describe.skipIf(pgMissing !== undefined)('sql.query on PostgreSQL', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'returns rows as objects (%s), positional values bound',
    async (form) => {
      const response = await sqlQuery(
        {
          datasource: 'pg',
          query: 'SELECT name, born, raw FROM items WHERE price < $1 ORDER BY id',
          params: [2],
        },
        form,
      );
      expect(response.status).toBe(200);
      expect(response.json).toEqual([
        { name: 'apple', born: expect.stringMatching(/^2024-02-2[89]T/), raw: 'AQI=' },
      ]);
    },
  );

  it('logs a source in with the user and password of the installation secret it names', async () => {
    const put = (input: Record<string, unknown>) =>
      callCommand('GET', server.url, 'secret.put', input, server.adminAuth);
    // The admin's own secret of that name is not the installation's: the source does not take it.
    await put({ name: 'reports-login', format: 'username-password', secret: 'postgres:mine' });
    const missing = await sqlQuery({ datasource: 'reports', query: 'SELECT current_user AS who' });
    expect(codeOf(missing)).toBe('NOT_FOUND');
    expect(missing.text).toContain('PIPEWORK_DATASOURCE_REPORTS_SECRET');
    const stored = await put({
      name: 'reports-login',
      format: 'username-password',
      secret: `reporter:${REPORTER_PASSWORD}`,
      scope: 'installation',
    });
    expect(stored.status).toBe(200);
    const who = await sqlQuery({ datasource: 'reports', query: 'SELECT current_user AS who' });
    expect(who.json).toEqual([{ who: 'reporter' }]);
    // The URL's user (postgres) may read items; the secret's may not: the source really is that user.
    const refused = await sqlQuery({ datasource: 'reports', query: 'SELECT name FROM items' });
    expect(codeOf(refused)).toBe('BAD_REQUEST');
    expect(refused.text).toContain('permission denied');
    expect(refused.text).not.toContain(REPORTER_PASSWORD);

    await put({ name: 'a-bearer', format: 'bearer', secret: 'tok-123', scope: 'installation' });
    const wrongKind = await sqlQuery({ datasource: 'wrongkind', query: 'SELECT 1 AS one' });
    expect(codeOf(wrongKind)).toBe('PARAM_INVALID');
    expect(wrongKind.text).toContain('username-password');
    expect(codeOf(await sqlQuery({ datasource: 'nosecret', query: 'SELECT 1 AS one' }))).toBe('NOT_FOUND');
  });

  it('binds named parameters, leaving casts, strings and comments alone', async () => {
    const response = await pipeline(`pipeline:
  - sql.query:
      datasource: pg
      query: "SELECT name, ':skip' AS text, price::text AS p FROM items /* :no */ WHERE name = :name OR name = :other ORDER BY id -- :x"
      params: { name: plum, other: pear }
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { name: 'pear', text: ':skip', p: '2.25' },
      { name: 'plum', text: ':skip', p: '3' },
    ]);
  });

  it('treats SQL in a parameter as a value: injection does nothing', async () => {
    const response = await pipeline(`vars:
  name: "x'; DELETE FROM items; --"
pipeline:
  - sql.query:
      datasource: pg_rw
      query: "SELECT * FROM items WHERE name = $1"
      params: ["#{vars.name}"]
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
    expect(await pgCount('SELECT count(*) AS n FROM items')).toBe(3);
  });

  it('refuses writes on a read-only source, however they are dressed', async () => {
    for (const query of [
      "DELETE FROM items WHERE name = 'apple'",
      'WITH gone AS (DELETE FROM items RETURNING *) SELECT * FROM gone',
      'COMMIT; DELETE FROM items',
      'CREATE TABLE evil (x int)',
    ]) {
      const response = await sqlQuery({ datasource: 'pg', query });
      expect(response.status, query).toBeGreaterThanOrEqual(400);
    }
    // A session setting does not outlive its query.
    await sqlQuery({ datasource: 'pg', query: 'SET default_transaction_read_only = off' });
    const after = await sqlQuery({ datasource: 'pg', query: 'DELETE FROM items' });
    expect(codeOf(after)).toBe('FORBIDDEN');
    expect(await pgCount('SELECT count(*) AS n FROM items')).toBe(3);
    expect(await pgCount("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'evil'")).toBe(0);
  });

  it('writes on a source that allows them', async () => {
    const response = await sqlQuery(
      {
        datasource: 'pg_rw',
        query: 'INSERT INTO items (name, price) VALUES ($1, $2) RETURNING name',
        params: ['fig', 4],
      },
      'pipeline',
    );
    expect(response.json).toEqual([{ name: 'fig' }]);
    await sqlQuery({ datasource: 'pg_rw', query: "DELETE FROM items WHERE name = 'fig'" });
    expect(await pgCount('SELECT count(*) AS n FROM items')).toBe(3);
  });

  it('stops at the row limit and the statement timeout, and keeps serving', async () => {
    const many = await sqlQuery({ datasource: 'pg', query: 'SELECT generate_series(1, 1000000) AS n' });
    expect(codeOf(many)).toBe('LIMIT_EXCEEDED');
    const started = Date.now();
    const slow = await sqlQuery({ datasource: 'pg', query: 'SELECT pg_sleep(10)' });
    expect(codeOf(slow)).toBe('LIMIT_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(5000);
    const after = await sqlQuery({ datasource: 'pg', query: 'SELECT count(*)::int AS n FROM items' });
    expect(after.json).toEqual([{ n: 3 }]);
  });
});

describe('a pipeline that stops ends its query', () => {
  let short: TestServer;
  beforeAll(async () => {
    const env: Record<string, string> = {
      PIPEWORK_DATASOURCE_LITE_URL: `sqlite:${liteFile}`,
      PIPEWORK_MAX_PIPELINE_MILLIS: '600',
      PIPEWORK_SQL_TIMEOUT_MILLIS: '30000',
    };
    if (postgres) env.PIPEWORK_DATASOURCE_PG_URL = postgres.url;
    short = await startTestServer({ env });
  });
  afterAll(() => short?.close());

  const endless = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n';

  it('on SQLite: the next query on the source does not wait for the abandoned one', async () => {
    const started = Date.now();
    const stopped = await sqlQuery({ datasource: 'lite', query: endless }, 'GET', short);
    expect(codeOf(stopped)).toBe('LIMIT_EXCEEDED');
    const next = await sqlQuery(
      { datasource: 'lite', query: 'SELECT count(*) AS n FROM items' },
      'GET',
      short,
    );
    expect(next.json).toEqual([{ n: 3 }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.skipIf(pgMissing !== undefined)('on PostgreSQL: the statement is cancelled on the server', async () => {
    const stopped = await sqlQuery({ datasource: 'pg', query: 'SELECT pg_sleep(20)' }, 'GET', short);
    expect(codeOf(stopped)).toBe('LIMIT_EXCEEDED');
    const deadline = Date.now() + 3000;
    let running = 1;
    while (running > 0 && Date.now() < deadline) {
      running = await pgCount(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND (query LIKE 'FETCH%' OR query LIKE '%pg_sleep(20)%')",
      );
      if (running > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running).toBe(0);
  });
});
