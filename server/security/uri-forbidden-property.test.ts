// A URI to a property the caller may not read is refused with the 403 shape, wherever it is resolved, and
// nothing of the property (not even whether it exists) comes back beyond what property.get itself tells.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { basicAuth, startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let secretKey: string;
const auth = { username: 'urireader', password: 'uri-reader-pass-1' };

beforeAll(async () => {
  server = await startTestServer();
  const admin = (await server.services.iam.principalByUsername('admin'))!;
  secretKey = `user/${admin.uuid}/secret/token`;
  await server.services.properties.create(admin, {
    key: secretKey,
    value: '{"token":"s3cr3t"}',
    type: 'application/json',
  });
  await server.services.iam.roles.create({ name: 'ROLE_URI' });
  await server.services.iam.roles.addComposites('ROLE_URI', [
    'CAN_PIPE_resolve',
    'CAN_PIPE_content.get',
    'CAN_PIPE_set.body',
    'CAN_PIPE_log',
  ]);
  await server.services.iam.createUser({ ...auth, roles: ['ROLE_URI'] });
});
afterAll(() => server.close());

const run = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', {
    body: yaml,
    type: 'application/yaml',
    auth: basicAuth(auth.username, auth.password),
  });

describe('$uri:property: to a property the caller may not read', () => {
  it.each([
    ['resolve', (k: string) => `  - resolve:\n      uri: "$uri:property:${k}"\n`],
    ['resolve with a field filter', (k: string) => `  - resolve:\n      uri: "$uri:property:${k}#token"\n`],
    [
      'resolve with an attribute filter',
      (k: string) => `  - resolve:\n      uri: "$uri:property:${k}@value"\n`,
    ],
    ['content.get', (k: string) => `  - content.get:\n      uri: "$uri:property:${k}"\n`],
    ['@resolve.uri', (k: string) => `  - set.body: "#{@resolve.uri('$uri:property:${k}#token')}"\n`],
    ['a transform.ftl template', (k: string) => `  - transform.ftl:\n      template: "$uri:property:${k}"\n`],
    [
      'a transform.ftl model',
      (k: string) => `  - transform.ftl:\n      model: "$uri:property:${k}"\n      template: "\${token}"\n`,
    ],
    [
      'a mail.send template and model',
      (k: string) =>
        `  - mail.send:\n      to: x@example.com\n      message: "$uri:property:${k}"\n      model: "$uri:property:${k}"\n`,
    ],
  ])('is FORBIDDEN through %s', async (_, step) => {
    const response = await run(`pipeline:\n${step(secretKey)}`);
    expect(response.status).toBe(403);
    expect(response.json?.value?.code).toBe('FORBIDDEN');
    expect(response.text).not.toContain('s3cr3t');
  });
});
