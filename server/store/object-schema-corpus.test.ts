// Every object schema of the real apps in the corpus is accepted, and instances are checked against it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const apps = fileURLToPath(new URL('../../../shared/corpus/app-examples', import.meta.url));
const schemas = readdirSync(apps, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('/schema.json'))
  .sort();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function put(key: string, value: string) {
  const body = new URLSearchParams({ key, value, type: 'application/json', evalValue: 'false' }).toString();
  return http(server.url, '/api/v3/command/property.schema.put', {
    body,
    type: 'application/x-www-form-urlencoded',
    auth: server.adminAuth,
  });
}

describe('object schemas of the corpus', () => {
  it('finds them', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(10);
  });

  it.each(schemas)('%s is accepted', async (file) => {
    const key = relative(apps, join(apps, file)).replace(/\.json$/, '');
    const response = await put(key, readFileSync(join(apps, file), 'utf8'));
    expect(response.status, response.text).toBe(200);
  });

  it('checks instances against a schema with an enum placeholder', async () => {
    const base = 'global/app/demo/object/invoice/v1';
    const good = await put(
      `${base}/instance/00000000-0000-4000-8000-000000000001`,
      '{"amount": 12.5, "credits": ["c1"]}',
    );
    expect(good.status, good.text).toBe(200);
    const bad = await put(`${base}/instance/00000000-0000-4000-8000-000000000002`, '{"amount": "twelve"}');
    expect(bad.status).toBe(400);
    expect(bad.json.value.code).toBe('PARAM_INVALID');
    expect(bad.json.value.message).toContain('amount');
  });
});

describe('type names real apps use that JSON Schema lacks', () => {
  const base = 'global/app/lenient/object/visit/v1';
  const schema = JSON.stringify({
    type: 'object',
    properties: {
      when: { type: 'dateTime', title: 'Zeitpunkt' },
      count: { type: 'int' },
      name: { type: 'String' },
      tags: { type: 'array', items: { type: 'string' }, default: [{ type: 'not-a-schema' }] },
    },
  });

  it('publishes with a warning per name, naming what it is read as', async () => {
    const response = await put(`${base}/schema`, schema);
    expect(response.status, response.text).toBe(200);
    expect(response.json.warnings).toEqual([
      `Schema '${base}/schema': type 'int' at /properties/count is not a JSON Schema type; read as "integer".`,
      `Schema '${base}/schema': type 'String' at /properties/name is not a JSON Schema type; read as "string".`,
      `Schema '${base}/schema': type 'dateTime' at /properties/when is not a JSON Schema type; read as "string" or "number".`,
    ]);
  });

  it('validates instances as it reads the types', async () => {
    const ok = await put(
      `${base}/instance/00000000-0000-4000-8000-000000000011`,
      '{"when": "2026-11-26T09:00:00Z", "count": 3, "name": "x"}',
    );
    expect(ok.status, ok.text).toBe(200);
    const epoch = await put(
      `${base}/instance/00000000-0000-4000-8000-000000000012`,
      '{"when": 1764147600000}',
    );
    expect(epoch.status, epoch.text).toBe(200);
    const bad = await put(`${base}/instance/00000000-0000-4000-8000-000000000013`, '{"count": 2.5}');
    expect(bad.status).toBe(400);
    expect(bad.json.value.message).toContain('/count');
  });

  it('refuses a type name it cannot read, naming it', async () => {
    const response = await put(
      'global/app/lenient/object/odd/v1/schema',
      JSON.stringify({ type: 'object', properties: { x: { type: 'frobnicate' } } }),
    );
    expect(response.status).toBe(400);
    expect(response.json.value.code).toBe('PARAM_INVALID');
    expect(response.json.value.message).toContain("type 'frobnicate' at /properties/x");
  });
});
