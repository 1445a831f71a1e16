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
