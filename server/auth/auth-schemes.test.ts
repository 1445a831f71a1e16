// Basic over HTTP: valid credentials, refusals answered alike, malformed headers.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { type IamTestServer, basic, startIamTestServer } from '../iam/test-iam';

let server: IamTestServer;
beforeAll(async () => {
  // a real socket: some requests are raw bytes over node:net, which fetch cannot send
  server = await startIamTestServer({ socket: true });
  await server.iam.createUser({
    username: 'alice',
    password: 'alice-pw',
    email: 'alice@example.com',
    firstName: 'Alice',
    lastName: 'Doe',
  });
});
afterAll(() => server.close());

/** Sends the request bytes exactly as given (header-name case, raw bytes) and returns the status code. */
function rawStatus(header: Buffer): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1])));
    socket.on('error', reject);
    // Written, not ended: a half-closed socket may be dropped while the password is being checked.
    socket.write(
      Buffer.concat([
        Buffer.from('GET /api/v3/command/datetime HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'),
        header,
        Buffer.from('\r\n\r\n'),
      ]),
    );
  });
}

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

  it('reads the header name in any case, on the wire', async () => {
    for (const name of ['AUTHORIZATION', 'authorization', 'Authorization', 'aUtHoRiZaTiOn']) {
      expect(await rawStatus(Buffer.from(`${name}: ${basic('alice', 'alice-pw')}`)), name).toBe(200);
    }
  });

  it('accepts a password holding colons', async () => {
    await server.iam.createUser({ username: 'colin', password: 'a:b::c:' });
    expect((await whoAmI(basic('colin', 'a:b::c:'))).text).toBe('colin');
    expect((await whoAmI(basic('colin', 'a:b'))).status).toBe(401);
  });

  it.each<[string, Buffer]>([
    [
      'bytes that are not UTF-8 after decoding',
      Buffer.from(`Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`),
    ],
    [
      'raw bytes that are not UTF-8 in the header',
      Buffer.concat([Buffer.from('Basic '), Buffer.from([0xff, 0xfe, 0x80])]),
    ],
    ['base64url characters', Buffer.from('Basic YWxpY2U6-_-_')],
    ['padding in the middle', Buffer.from('Basic YW=xpY2U6cHc=')],
    ['a long Bearer token', Buffer.from(`Bearer ${'a'.repeat(15_000)}`)],
    ['a long Basic password', Buffer.from(basic('alice', 'p'.repeat(11_000)))],
    ['a long list of RunAs', Buffer.from(`${basic('alice', 'alice-pw')}${', RunAs bob'.repeat(1000)}`)],
  ])('refuses %s with 401 or 403, never a server error', async (_name, value) => {
    const status = await rawStatus(Buffer.concat([Buffer.from('Authorization: '), value]));
    expect([401, 403]).toContain(status);
  });

  it('leaves a header over the HTTP limit to Node (431), never a server error', async () => {
    expect(await rawStatus(Buffer.from(`Authorization: Bearer ${'a'.repeat(70_000)}`))).toBe(431);
  });
});
