/**
 * Property-based hostile input for the token endpoint's form: whatever fields, values, encodings and sizes
 * arrive, the answer is a documented OAuth error (or tokens for the right password), never a crash or a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_scope',
];
const STATUSES = [200, 400, 401, 413, 415, 429];
const PATH = '/auth/realms/pipework/protocol/openid-connect/token';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const fieldName = fc.oneof(
  fc.constantFrom(
    'grant_type',
    'client_id',
    'client_secret',
    'username',
    'password',
    'refresh_token',
    'scope',
  ),
  fc.string({ maxLength: 12 }),
);
const fieldValue = fc.oneof(
  fc.constantFrom(
    'password',
    'refresh_token',
    'client_credentials',
    'cli',
    'workbench',
    'admin',
    TEST_ADMIN_PASSWORD,
    'openid',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ maxLength: 300 }),
);
/** A form body: fields (names may repeat) url-encoded, or raw text that is not quite a form. */
const formBody = fc.oneof(
  fc
    .array(fc.tuple(fieldName, fieldValue), { maxLength: 8 })
    .map((fields) => new URLSearchParams(fields).toString()),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('%', '%zz=1', 'a=%E0%A4%A', '&&&=&=', 'grant_type=password&grant_type=refresh_token'),
);
const contentType = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/json',
  'text/plain',
  '',
);
const authorization = fc.option(
  fc.oneof(
    fc.constant(`Basic ${btoa('cli:')}`),
    fc.string({ maxLength: 30 }).map((s) => `Basic ${s}`),
  ),
  { nil: undefined },
);

it('answers any form with a documented OAuth error or tokens, never a 500', async () => {
  await fc.assert(
    fc.asyncProperty(formBody, contentType, authorization, async (body, type, auth) => {
      const headers: Record<string, string> = {};
      if (type) headers['content-type'] = type;
      if (auth && /^[\x20-\x7e]*$/.test(auth)) headers.authorization = auth;
      const response = await fetch(server.url + PATH, { method: 'POST', headers, body });
      const text = await response.text();
      expect(STATUSES, `${response.status} for ${JSON.stringify(body)}`).toContain(response.status);
      const json = JSON.parse(text) as { error?: string; access_token?: string };
      if (response.status === 200) expect(json.access_token).toBeTypeOf('string');
      else expect(OAUTH_ERRORS, text).toContain(json.error);
    }),
    { numRuns: 300 },
  );
});
