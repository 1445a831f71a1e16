// `uri:drive:` in PEL, registered through the hook: the drive's own rules (own + shared; admins all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let ann: string;
let ben: string;
let annUuid: string;

const save = (auth: string, path: string, text: string) =>
  http(server.url, `/api/v3/command/drive.save?path=${encodeURIComponent(path)}`, {
    auth,
    type: 'application/octet-stream',
    body: text,
  });
const resolve = (auth: string, uri: string) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({
      pipeline: [{ 'set.body': { value: `#{@convert.toBase64(@resolve.uri('${uri}'))}` } }],
    }),
  });

const b64 = (text: string) => Buffer.from(text).toString('base64');

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.services.iam.createUser({
    username: 'ann',
    password: 'ann-pw',
    roles: ['ROLE_DEVELOPER'],
  });
  await server.services.iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_DEVELOPER'] });
  annUuid = a.uuid;
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
  expect((await save(ann, 'notes/a.txt', 'ann only')).status).toBe(200);
  expect((await save(ann, 'shared/team.txt', 'for all')).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

describe("@resolve.uri('uri:drive:...')", () => {
  it("reads the caller's own file and the shared folder", async () => {
    const own = await resolve(ann, 'uri:drive:notes/a.txt');
    expect(own.status, own.text).toBe(200);
    expect(own.text).toContain(b64('ann only'));
    const shared = await resolve(ben, 'uri:drive:shared/team.txt');
    expect(shared.status, shared.text).toBe(200);
    expect(shared.text).toContain(b64('for all'));
  });

  it("refuses another user's folder (FORBIDDEN), and names a missing file missing", async () => {
    const other = await resolve(ben, `uri:drive:user/${annUuid}/notes/a.txt`);
    expect(other.status).toBe(403);
    expect(other.text).not.toContain(b64('ann only'));
    const bensOwn = await resolve(ben, 'uri:drive:notes/a.txt');
    expect(bensOwn.status).toBeGreaterThanOrEqual(400);
    expect(bensOwn.text).not.toContain(b64('ann only'));
    expect(bensOwn.text).toContain('notes/a.txt');
  });

  it("lets an admin read any user's file", async () => {
    const admin = await resolve(server.adminAuth, `uri:drive:user/${annUuid}/notes/a.txt`);
    expect(admin.status, admin.text).toBe(200);
    expect(admin.text).toContain(b64('ann only'));
  });
});
