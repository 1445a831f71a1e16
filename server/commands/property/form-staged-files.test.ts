// A form's large files over HTTP (docs/forms-and-lists.md): uploaded in chunks to the user's own staging
// key, moved onto the instance by property.schema.put in the transaction that stores it, so
// property.created is published only when both exist; other users' uploads, path tricks, a refused value
// and a missing upload store nothing and move nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGED_ATTACHMENT_NAME, stagingKeyOf } from '../../../shared/property';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

const OBJECT = 'global/app/claims/object/claim/v1';
const SCHEMA = {
  type: 'object',
  properties: {
    customer: { type: 'string', minLength: 2 },
    scan: {
      type: 'object',
      title: 'Scan',
      properties: {
        filename: { type: 'string' },
        contentLength: { type: 'number' },
        contentType: { type: 'string' },
        contentEncoding: { type: 'string' },
        content: { type: 'string' },
      },
    },
  },
};

let server: TestServer;
let ann: string;
let ben: string;
let annUuid: string;
let uploads = 0;

beforeAll(async () => {
  server = await startTestServer();
  const { iam, properties } = server.services;
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_USER'] });
  await iam.createUser({ username: 'ben', password: 'ben-pw', roles: ['ROLE_USER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
  annUuid = (await iam.principalByUsername('ann'))!.uuid;
  const admin = await iam.principalByUsername('admin');
  await properties.create(admin, {
    key: `${OBJECT}/schema`,
    value: JSON.stringify(SCHEMA),
    type: 'application/json',
  });
});
afterAll(() => server?.close());

const command = (name: string, params: Record<string, string>, auth: string, body?: string | Uint8Array) =>
  http(server.url, `/api/v3/command/${name}?${new URLSearchParams(params)}`, {
    auth,
    method: 'POST',
    ...(body === undefined
      ? {}
      : typeof body === 'string'
        ? { type: 'text/plain', body }
        : { type: 'application/octet-stream', body: body as Uint8Array<ArrayBuffer> }),
  });

/** Bytes that look like a PDF, different at every position. */
function pdfBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  for (let i = 9; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

/** Uploads `bytes` as the form does: the staging property (with a time to live), then chunks. */
async function stage(bytes: Uint8Array, auth = ann, chunk = 256 * 1024): Promise<string> {
  const key = stagingKeyOf(annUuid, `up-${++uploads}`);
  const created = await command(
    'property.schema.put',
    { key, ttl: '1440', existStrategy: 'error' },
    auth,
    '{}',
  );
  expect(created.status, created.text).toBe(200);
  for (let at = 0; at < bytes.length; at += chunk) {
    const put = await command(
      'property.attachment.chunk.put',
      { key, name: STAGED_ATTACHMENT_NAME },
      auth,
      bytes.subarray(at, at + chunk),
    );
    expect(put.status, put.text).toBe(200);
  }
  return key;
}

function submit(key: string, value: unknown, auth = ann) {
  return command(
    'property.schema.put',
    { key, type: 'application/json', evalValue: 'false' },
    auth,
    JSON.stringify(value),
  );
}

const file = (attachment: string, length: number) => ({
  filename: 'scan.pdf',
  contentType: 'application/pdf',
  contentLength: length,
  attachment,
});

async function download(key: string, name: string, auth = ann): Promise<Uint8Array> {
  const response = await fetch(
    `${server.url}/api/v3/command/property.attachment.content?${new URLSearchParams({ key, name })}`,
    { headers: { authorization: auth } },
  );
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const exists = async (key: string) => (await server.services.properties.store.get(key)) !== undefined;

describe('a form file staged and attached on submit', () => {
  it('moves the upload onto the instance before property.created is published', async () => {
    const bytes = pdfBytes(1_300_000);
    const staging = await stage(bytes);
    const instance = `${OBJECT}/instance/i1`;
    const seen: Promise<unknown>[] = [];
    const stop = server.services.events.subscribe((event) => {
      const target = (event.payload as { target?: { key?: string } }).target;
      if (event.eventKey === 'property.created' && target?.key === instance)
        seen.push(server.services.properties.store.attachments.get(instance, 'scan.pdf'));
    });
    const r = await submit(instance, { customer: 'ACME', scan: file(staging, 1) });
    await server.services.events.idle();
    stop();
    expect(r.status, r.text).toBe(200);
    // The length is the staged one, whatever the form said; content names the attachment (the real product's shape).
    expect(JSON.parse(r.json.property.value).scan).toEqual({
      filename: 'scan.pdf',
      contentType: 'application/pdf',
      contentLength: bytes.length,
      content: 'scan.pdf',
      attachment: 'scan.pdf',
    });
    expect(await Promise.all(seen)).toEqual([expect.objectContaining({ length: bytes.length })]);
    expect(Buffer.from(await download(instance, 'scan.pdf')).equals(Buffer.from(bytes))).toBe(true);
    expect(await exists(staging)).toBe(false);
  });

  it('keeps the attachment when the instance is edited, and replaces it with a new upload', async () => {
    const instance = `${OBJECT}/instance/i2`;
    const first = await stage(pdfBytes(1000));
    const created = await submit(instance, { customer: 'ACME', scan: file(first, 1000) });
    expect(created.status, created.text).toBe(200);
    const stored = JSON.parse(created.json.property.value);
    const edited = await submit(instance, { ...stored, customer: 'ACME Ltd' });
    expect(edited.status, edited.text).toBe(200);
    expect((await download(instance, 'scan.pdf')).length).toBe(1000);
    const second = await stage(pdfBytes(2000));
    expect((await submit(instance, { customer: 'ACME', scan: file(second, 2000) })).status).toBe(200);
    expect((await download(instance, 'scan.pdf')).length).toBe(2000);
  });

  it("refuses another user's staged upload and moves nothing", async () => {
    const staging = await stage(pdfBytes(500));
    const instance = `${OBJECT}/instance/stolen`;
    const r = await submit(instance, { customer: 'BEN', scan: file(staging, 500) }, ben);
    expect([r.status, r.json.value.code]).toEqual([403, 'FORBIDDEN']);
    expect(r.json.value.errors[0].instancePath).toBe('/scan');
    expect(await exists(instance)).toBe(false);
    expect(await exists(staging)).toBe(true);
    // Nor can ben write into it.
    const into = await command(
      'property.attachment.chunk.put',
      { key: staging, name: STAGED_ATTACHMENT_NAME },
      ben,
      new Uint8Array([1]),
    );
    expect(into.status).toBe(403);
  });

  it.each([
    ['a path in the upload id', (uuid: string) => `user/${uuid}/staging/../../global/x`],
    ['a deeper key', (uuid: string) => `user/${uuid}/staging/a/b`],
    ['another folder', () => 'global/app/claims/config/app'],
    ['an empty segment', (uuid: string) => `user/${uuid}//staging/x`],
  ])('refuses %s as PARAM_INVALID', async (_what, keyOf) => {
    const instance = `${OBJECT}/instance/trick`;
    const r = await submit(instance, { customer: 'ACME', scan: file(keyOf(annUuid), 1) });
    expect([r.status, r.json.value.code]).toEqual([400, 'PARAM_INVALID']);
    expect(await exists(instance)).toBe(false);
  });

  it('stores nothing and keeps the upload when the schema refuses the value', async () => {
    const staging = await stage(pdfBytes(700));
    const instance = `${OBJECT}/instance/refused`;
    const r = await submit(instance, { customer: 'A', scan: file(staging, 700) });
    expect([r.status, r.json.value.code]).toEqual([400, 'PARAM_INVALID']);
    expect(r.json.value.errors[0].instancePath).toBe('/customer');
    expect(await exists(instance)).toBe(false);
    expect((await download(staging, STAGED_ATTACHMENT_NAME)).length).toBe(700);
  });

  it('answers NOT_FOUND at the field for an upload that is gone', async () => {
    const r = await submit(`${OBJECT}/instance/late`, {
      customer: 'ACME',
      scan: file(stagingKeyOf(annUuid, 'never-uploaded'), 1),
    });
    expect([r.status, r.json.value.code]).toEqual([404, 'NOT_FOUND']);
    expect(r.json.value.errors[0].instancePath).toBe('/scan');
  });

  it('leaves small inline files as they are', async () => {
    const inline = {
      filename: 'a.txt',
      contentType: 'text/plain',
      contentEncoding: 'base64',
      content: 'aGk=',
    };
    const r = await submit(`${OBJECT}/instance/inline`, { customer: 'ACME', scan: inline });
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.json.property.value).scan).toEqual(inline);
  });
});

describe('values that only look like staged files', () => {
  it('leaves an object without a filename alone, whatever its attachment says', async () => {
    const value = { customer: 'ACME', note: { attachment: 'drive/some/path' } };
    const r = await submit(`${OBJECT}/instance/not-a-file`, value);
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.json.property.value)).toEqual(value);
  });
});
