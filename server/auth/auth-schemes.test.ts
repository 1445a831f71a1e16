// Basic over HTTP: valid credentials, refusals answered alike, malformed headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../iam/test-iam';

let server: IamTestServer;
beforeAll(async () => {
  server = await startIamTestServer();
  await server.iam.createUser({
    username: 'alice',
    password: 'alice-pw',
    email: 'alice@example.com',
    firstName: 'Alice',
    lastName: 'Doe',
  });
});
afterAll(() => server.close());

const pipeline = (steps: unknown[]) => JSON.stringify({ pipeline: steps });
async function whoAmI(auth: string, headers: Record<string, string> = {}) {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    headers,
    type: 'application/json',
    body: pipeline([{ set: { value: '#{@user.username()}' } }]),
  });
}

describe('Basic', () => {
  it('accepts valid credentials, with any case of header name and scheme', async () => {
    expect((await whoAmI(basic('alice', 'alice-pw'))).text).toBe('alice');
    const lower = basic('alice', 'alice-pw').replace('Basic', 'basic');
    const r = await http(server.url, '/api/v3/pipeline', {
      headers: { AUTHORIZATION: lower, 'Content-Type': 'application/json' },
      body: pipeline([{ set: { value: '#{@user.username()}' } }]),
    });
    expect(r.text).toBe('alice');
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const wrong = await whoAmI(basic('alice', 'nope'));
    const unknown = await whoAmI(basic('mallory', 'alice-pw'));
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.json.value.code).toBe('UNAUTHENTICATED');
      expect(r.headers.get('www-authenticate')).toContain('Basic');
    }
    expect(wrong.json.value.message).toBe(unknown.json.value.message);
  });

  it.each([
    ['no header', undefined],
    ['empty', ''],
    ['unknown scheme', 'Digest abc'],
    ['not base64', 'Basic !!!'],
    ['no colon', `Basic ${Buffer.from('alice').toString('base64')}`],
    ['RunAs alone', 'RunAs alice'],
  ])('refuses %s with 401', async (_name, auth) => {
    const r = await http(
      server.url,
      '/api/v3/command/datetime',
      auth === undefined ? {} : { headers: { authorization: auth } },
    );
    expect(r.status).toBe(401);
    expect(r.json.value.code).toBe('UNAUTHENTICATED');
  });
});
