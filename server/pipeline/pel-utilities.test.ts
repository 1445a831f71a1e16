/**
 * The server's PEL utilities honour the caller's permissions as the commands do: two users, one property only
 * one of them may read, and `@property`, `uri:property:`, `@iam` and `uri:user:` asked by each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryContent } from '../../shared/values';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';
import { registerDriveUriResolver } from '../uri/pel-uri-resolver';
import { utilitiesFor } from './pel-utilities';

let server: TestServer;
let alice: string;
let bob: string;
/** Bob's own folder is `user/<his uuid>`: only he (and admins) may read it. */
let secret: string;

beforeAll(async () => {
  process.env.PIPEWORK_ENV_REGION = 'eu-central';
  server = await startTestServer();
  const iam = server.services.iam;
  await iam.createUser({
    username: 'alice',
    password: 'alice-pw',
    email: 'alice@example.com',
    firstName: 'Alice',
    lastName: 'Liddell',
  });
  await iam.createUser({ username: 'bob', password: 'bob-pw', email: 'bob@example.com' });
  alice = server.basicAuth('alice', 'alice-pw');
  bob = server.basicAuth('bob', 'bob-pw');
  const bobPrincipal = await iam.principalByUsername('bob');
  secret = `user/${bobPrincipal!.uuid}/secret`;
  await server.services.properties.create(bobPrincipal, { key: secret, value: { pin: '4711' } });
});
afterAll(async () => {
  delete process.env.PIPEWORK_ENV_REGION;
  await server.close();
});

/** Runs `set.body: <template>` as a user; the body on success, the error value otherwise. */
async function run(auth: string, template: string): Promise<{ status: number; body: unknown; text: string }> {
  const response = await http(server.url, '/api/v3/pipeline', {
    body: JSON.stringify({ pipeline: [{ 'set.body': template }] }),
    type: 'application/json',
    auth,
  });
  let body: unknown = null;
  try {
    body = response.json;
  } catch {
    body = response.text;
  }
  return { status: response.status, body, text: response.text };
}

describe('@property as two users', () => {
  it('gives the owner the value', async () => {
    const r = await run(bob, `#{@property.value('${secret}').pin}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('4711');
  });

  it('gives anyone else nothing: null, false, empty, or an error without the value', async () => {
    const r = await run(
      alice,
      `#{ {'lazy': @property.lazy('${secret}#pin'), 'exists': @property.exists('${secret}'), 'get': @property.get('${secret}'), 'values': @property.values('user/**')} }`,
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ lazy: null, exists: false, get: null, values: [] });
    for (const expression of [`#{@property.value('${secret}')}`]) {
      const refused = await run(alice, expression);
      expect(refused.status, expression).toBe(400);
      expect(refused.text, expression).toContain('PEL_EVAL');
      expect(refused.text, expression).not.toContain('4711');
    }
    // A URI to it is refused as property.get refuses it: FORBIDDEN, never its content.
    for (const expression of [
      `#{@resolve.uri('uri:property:${secret}#pin')}`,
      `#{@convert.lazy('uri:property:${secret}')}`,
      `#{@content.newContent('uri:property:${secret}')}`,
    ]) {
      const refused = await run(alice, expression);
      expect(refused.status, expression).toBe(403);
      expect(refused.text, expression).toContain('FORBIDDEN');
      expect(refused.text, expression).not.toContain('4711');
    }
  });

  it('resolves uri:property: for the owner', async () => {
    const r = await run(bob, `#{@uri.resolve('$uri:property:${secret}#pin')}`);
    expect(r.text).toBe('4711');
  });

  it('refuses a write from an expression as property.put would, and says who may not write', async () => {
    const r = await run(alice, `#{@property.updateValue('${secret}', 'x')}`);
    expect(r.status).toBe(403);
    expect(r.text).toContain('FORBIDDEN');
    expect(r.text).toContain('You may not change');
  });
});

describe('@iam and uri:user: as two users', () => {
  it('answers the caller about themself, with the names IAM knows', async () => {
    const r = await run(
      alice,
      "#{ {'me': @resolve.uri('uri:user').username, 'first': @user.firstName(), 'last': @user.lastName(), 'shown': @user.emailAndDisplayName()} }",
    );
    expect(r.body).toEqual({
      me: 'alice',
      first: 'Alice',
      last: 'Liddell',
      shown: 'Alice Liddell <alice@example.com>',
    });
  });

  it('hides other users from a caller without iam.user.get, and shows them to the admin', async () => {
    const hidden = await run(
      alice,
      "#{ {'iam': @iam.userByUsername('bob'), 'email': @iam.userByEmail('bob@example.com')} }",
    );
    expect(hidden.body).toEqual({ iam: null, email: null });
    const refused = await run(alice, "#{@resolve.uri('uri:user:username:bob')}");
    expect(refused.status).toBe(400);
    const shown = await run(
      server.adminAuth,
      "#{ {'name': @iam.userByEmail('bob@example.com').username, 'uri': @resolve.uri('uri:user:username=bob').email} }",
    );
    expect(shown.body).toEqual({ name: 'bob', uri: 'bob@example.com' });
  });
});

describe('@instance and uri:drive:', () => {
  it('publishes only PIPEWORK_ENV_ values', async () => {
    const r = await run(
      alice,
      "#{ {'region': @instance.env('REGION'), 'secret': @instance.env('PIPEWORK_ADMIN_PASSWORD'), 'stage': @instance.stage()} }",
    );
    expect(r.body).toEqual({ region: 'eu-central', secret: null, stage: 'prod' });
  });

  it('refuses uri:drive: until the drive plugs in its resolver, then serves it', async () => {
    registerDriveUriResolver(null); // the drive's own resolver is registered by default (drive-uri-resolver.test.ts)
    const before = await run(alice, "#{@resolve.uri('uri:drive:docs/a.txt')}");
    expect(before.status).toBe(400);
    expect(before.text).toContain("it needs the server's drive");
    registerDriveUriResolver(
      (principal) => (path) =>
        principal?.username === 'alice' && path === 'docs/a.txt'
          ? new BinaryContent(new TextEncoder().encode('hi'), 'text/plain', 'a.txt')
          : undefined,
    );
    try {
      const after = await run(alice, "#{@convert.toBase64(@content.newContent('uri:drive:docs/a.txt'))}");
      expect(after.text).toBe('aGk=');
      const other = await run(bob, "#{@resolve.uri('uri:drive:docs/a.txt')}");
      expect(other.status).toBe(400);
    } finally {
      registerDriveUriResolver(null);
    }
  });
});

describe('utilities built on first use', () => {
  it('names every server utility as an own property and builds none until an expression reads it', async () => {
    const bob = await server.services.iam.principalByUsername('bob');
    const utilities = utilitiesFor(server.services)(bob);
    const names = ['user', 'property', 'instance', 'iam', 'resolve', 'uri', 'convert', 'content'];
    for (const name of names) {
      const descriptor = Object.getOwnPropertyDescriptor(utilities, name);
      expect(descriptor?.get, name).toBeTypeOf('function'); // a getter: nothing built yet
    }
    // Read, each is the working utility for the run's principal.
    const user = utilities.user as { username(): string };
    expect(user.username()).toBe('bob');
  });
});
