// The corpus's app setup pipelines (iam.run.as systemuser, roles, composites) against a fresh server.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { type IamTestServer, startIamTestServer } from '../../iam/test-iam';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const apps = path.resolve(repoRoot, '../shared/corpus/app-examples/global/app');
const setups = readdirSync(apps, { recursive: true, encoding: 'utf8' })
  .filter((f) => /setup[/\\].*IAM.*\.pi\.yaml$/.test(f))
  .sort();

let server: IamTestServer;
beforeAll(async () => {
  server = await startIamTestServer();
});
afterAll(() => server.close());

describe('the app setup pipelines of the corpus run against a fresh server', () => {
  it('finds them', async () => {
    expect(setups.length).toBeGreaterThanOrEqual(8);
  });

  it.each(setups)('%s', async (file) => {
    const source = readFileSync(path.join(apps, file), 'utf8');
    // Without the IGNORE policy, so that every step must really succeed.
    const strict = source.replace(/^\s*onCommandError:.*$/m, '');
    const r = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: strict,
    });
    expect(r.status, r.text).toBeLessThan(300);
    const role = /name:\s*"(CAN_APP_[A-Z]+)"/.exec(source)![1]!;
    expect(await server.iam.roles.byName(role)).toBeDefined();
    expect(await server.iam.roles.compositeNames('ROLE_DEVELOPER')).toContain(role);
    // Running it twice is harmless except for the create, which reports CONFLICT (the corpus ignores it).
    const again = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: source,
    });
    expect(again.status, again.text).toBeLessThan(300);
  });

  it('leave developers with the app roles and their permissions', async () => {
    const developer = await server.iam.roles.expand(['ROLE_DEVELOPER']);
    expect(developer).toContain('CAN_APP_DEMO');
    expect(developer).toContain('CAN_PIPE_property.schema.put');
  });
});
