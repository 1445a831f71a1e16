// Webhooks over real HTTP on a real server: a call with the token runs the linked pipeline with the request as
// its body (synchronously with wait=true, else as an async run); a wrong or revoked token is a plain 404 with
// nothing run; a body over the webhook's limit is 413, calls past its rate 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, putPipeline } from '../testing/http-client';
import { signWebhookBody } from '../webhooks';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PIPELINE = 'global/app/hooks/pipeline/lead';
const command = (name: string, params: Record<string, unknown>) =>
  http(server.url, '/api/v3/pipeline', {
    type: 'application/json',
    body: JSON.stringify({ pipeline: [{ [name]: params }] }),
    auth: server.adminAuth,
  });

async function createWebhook(extra: Record<string, unknown> = {}) {
  const put = await command('webhook.put', {
    eventKey: 'webhook.lead.created',
    pipeline: PIPELINE,
    ...extra,
  });
  expect(put.status).toBe(200);
  return put.json as { uuid: string; token: string; webhookUrl: string };
}

const webhookRuns = async (uuid: string): Promise<number> =>
  (
    await http(server.url, `/api/v3/runs?trigger=webhook&limit=500`, { auth: server.adminAuth })
  ).json.runs.filter((r: { trigger: { source?: string } }) => r.trigger.source === uuid).length;
const lastName = () =>
  http(server.url, '/api/v3/command/property.get?key=global/app/hooks/last', { auth: server.adminAuth });

const receive = (token: string, body: string, query = '', type = 'application/json') =>
  http(server.url, `/api/v3/command/webhook.receive?token=${encodeURIComponent(token)}${query}`, {
    method: 'POST',
    body,
    type,
  });

beforeAll(async () => {
  const yaml = `pipeline:
  - property.schema.put:
      key: global/app/hooks/last
      value: "#{body.payload.name}"
  - set.body:
      value:
        got: "#{vars.name}"
        who: "#{@user.username()}"
vars:
  name: "#{body.payload.name}"
`;
  const stored = await putPipeline(server.url, PIPELINE, yaml, server.adminAuth);
  expect(stored.status).toBeLessThan(300);
});

describe('webhooks', () => {
  it('runs the linked pipeline with the request body, as the creator, answering with wait=true', async () => {
    const hook = await createWebhook({ payloadType: 'raw' });
    expect(hook.token).toMatch(/^[\w-]{43}$/);
    expect(hook.webhookUrl).toContain(`token=${hook.token}`);
    const response = await receive(hook.token, JSON.stringify({ name: 'Ada' }), '&wait=true');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ got: 'Ada', who: 'admin' });
    const listed = await command('webhook.list', {});
    expect(JSON.stringify(listed.json)).not.toContain(hook.token);
  });

  it('starts an async run by default and answers its correlation id', async () => {
    const hook = await createWebhook({ payloadType: 'raw' });
    const response = await http(server.url, '/api/v3/webhook/receive', {
      method: 'POST',
      body: JSON.stringify({ name: 'Grace' }),
      type: 'application/json',
      headers: { token: hook.token },
    });
    expect(response.status).toBe(202);
    expect(response.json.correlationId).toEqual(expect.any(String));
    // It shows as a run of the webhook, in the run history.
    const runOf = async () =>
      (await http(server.url, `/api/v3/runs/${response.json.correlationId}`, { auth: server.adminAuth }))
        .json;
    await expect.poll(async () => (await runOf()).status, { timeout: 10_000 }).toBe('succeeded');
    expect(await runOf()).toMatchObject({
      pipelineKey: PIPELINE,
      trigger: { kind: 'webhook', source: hook.uuid },
      username: 'admin',
      output: { got: 'Grace' },
    });
  });

  it('answers a wrong or revoked token with the plain 404 of an unknown path, running nothing', async () => {
    const hook = await createWebhook({ payloadType: 'raw' });
    const unknown = await http(server.url, '/api/v3/no-such-endpoint', {
      method: 'POST',
      body: '{}',
      type: 'application/json',
    });
    const wrong = await receive(`${hook.token.slice(0, -1)}x`, JSON.stringify({ name: 'Eve' }), '&wait=true');
    expect(wrong.status).toBe(404);
    expect(wrong.json.value.code).toBe('NOT_FOUND');
    expect(unknown.status).toBe(401); // an unknown path asks for credentials first; a webhook never does
    const missing = await receive('', '{}', '&wait=true');
    expect(missing.status).toBe(404);
    expect((await command('webhook.delete', { uuid: hook.uuid })).status).toBe(200);
    const revoked = await receive(hook.token, JSON.stringify({ name: 'Eve' }), '&wait=true');
    expect(revoked.status).toBe(404);
    const last = await http(server.url, '/api/v3/command/property.get?key=global/app/hooks/last', {
      auth: server.adminAuth,
    });
    expect(last.json.value).not.toBe('Eve');
  });

  it('refuses a body over the webhook limit (413) and calls past its rate (429)', async () => {
    const hook = await createWebhook({ payloadType: 'raw', maxPayloadLength: 100, ratePerMinute: 3 });
    const runsBefore = await webhookRuns(hook.uuid);
    const big = await receive(hook.token, JSON.stringify({ name: 'y'.repeat(200) }), '&wait=true');
    expect(big.status).toBe(413);
    expect(big.json.value.code).toBe('PAYLOAD_TOO_LARGE');
    expect(big.json.value.message).toEqual(expect.any(String));
    const async413 = await receive(hook.token, JSON.stringify({ name: 'y'.repeat(200) }));
    expect(async413.status).toBe(413);
    expect(await webhookRuns(hook.uuid)).toBe(runsBefore); // nothing ran, not even queued
    expect((await lastName()).json.value).not.toBe('y'.repeat(200));
    const statuses: number[] = [];
    statuses.push((await receive(hook.token, '{"name":"r"}', '&wait=true')).status);
    statuses.push((await receive(hook.token, '{"name":"r"}', '&wait=true')).status);
    expect(statuses).toEqual([200, 429]); // the refused big calls counted too
  });

  it('opens a webhook by its uuid and a body signed with its named secret instead of the token', async () => {
    const secret = 'a shared signing secret';
    expect(
      (await command('secret.put', { name: 'hook-signing', format: 'secret-text', secret })).status,
    ).toBe(200);
    const hook = await createWebhook({ payloadType: 'raw', secret: 'hook-signing' });
    expect((await command('webhook.get', { uuid: hook.uuid })).json.secret).toBe('hook-signing');
    const body = JSON.stringify({ name: 'Signed' });
    const signed = (signature: string, query = '&wait=true', headerName = 'X-Pipework-Signature-256') =>
      http(server.url, `/api/v3/command/webhook.receive?uuid=${hook.uuid}${query}`, {
        method: 'POST',
        body,
        type: 'application/json',
        headers: { [headerName]: signature },
      });
    const ok = await signed(signWebhookBody(secret, Buffer.from(body)));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ got: 'Signed', who: 'admin' });
    const github = await signed(
      signWebhookBody(secret, Buffer.from(body)),
      '&wait=true',
      'X-Hub-Signature-256',
    );
    expect(github.status).toBe(200);

    const before = await webhookRuns(hook.uuid);
    const wrongSecret = await signed(signWebhookBody('another secret', Buffer.from(body)));
    const otherBody = await signed(signWebhookBody(secret, Buffer.from('{"name":"Mallory"}')));
    const malformed = await signed('sha256=zz');
    const unsigned = await http(server.url, `/api/v3/command/webhook.receive?uuid=${hook.uuid}&wait=true`, {
      method: 'POST',
      body,
      type: 'application/json',
    });
    for (const refused of [wrongSecret, otherBody, malformed, unsigned]) {
      expect(refused.status).toBe(404);
      expect(refused.json.value.code).toBe('NOT_FOUND');
    }
    expect(await webhookRuns(hook.uuid)).toBe(before);

    // A webhook without a secret cannot be opened by a signature; a deleted secret opens nothing.
    const plain = await createWebhook({ payloadType: 'raw' });
    const plainCall = await http(server.url, `/api/v3/command/webhook.receive?uuid=${plain.uuid}&wait=true`, {
      method: 'POST',
      body,
      type: 'application/json',
      headers: { 'X-Pipework-Signature-256': signWebhookBody(secret, Buffer.from(body)) },
    });
    expect(plainCall.status).toBe(404);
    expect((await command('secret.delete', { name: 'hook-signing' })).status).toBe(200);
    expect((await signed(signWebhookBody(secret, Buffer.from(body)))).status).toBe(404);
    expect(
      (await command('webhook.put', { eventKey: 'w', pipeline: PIPELINE, secret: 'no-such' })).status,
    ).toBe(404);
  });

  it('refuses a bad webhook.put: an unknown payload type, a limit over 4 MB', async () => {
    expect(
      (await command('webhook.put', { eventKey: 'w', pipeline: PIPELINE, payloadType: 'xml' })).status,
    ).toBe(400);
    expect(
      (await command('webhook.put', { eventKey: 'w', pipeline: PIPELINE, maxPayloadLength: 5_000_000 }))
        .status,
    ).toBe(400);
  });
});
