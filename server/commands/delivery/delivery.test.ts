// Secure delivery end to end on a real server: the delivery.* commands, the mails in the outbox, the public
// download page for each privacy level, bad input refused whole, expiry and the cleanup job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFile, outboxMails, receivedDelivery } from '../../testing/delivery-download';
import { eventually } from '../../testing/eventually';
import { http } from '../../testing/http-client';
import { basicAuth, startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
const SENDER = basicAuth('dora', 'dora-password-1');

beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_DELIVERY_PASSWORD_TRIES: '3' } });
  await run(server.adminAuth, [
    {
      'iam.user.create': {
        name: 'dora',
        email: 'dora@example.com',
        password: 'dora-password-1',
        roleNames: 'ROLE_DEVELOPER',
      },
    },
    { 'iam.user.create': { name: 'eve', email: 'eve@example.com', password: 'eve-password-1' } },
  ]);
});
afterAll(() => server?.close());

async function run(auth: string, pipeline: unknown[], body?: unknown) {
  return http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({ pipeline, body }),
  });
}

async function ok(auth: string, pipeline: unknown[], body?: unknown) {
  const response = await run(auth, pipeline, body);
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const file = (name: string, text: string) => ({
  name,
  content: Buffer.from(text).toString('base64'),
  contentEncoding: 'base64',
  mimeType: 'text/plain',
});

describe('secure delivery', () => {
  it('level 1: create, send, a plain link; downloads counted and the sender told once', async () => {
    const created = await ok(SENDER, [
      {
        'delivery.create': {
          subject: 'Plain files',
          message: 'Hello Ann',
          recipients: 'ann@example.com',
          attachments: [file('a.txt', 'alpha bytes')],
        },
      },
    ]);
    expect(created).toMatchObject({
      status: 'DRAFT',
      privacyLevel: 1,
      attachments: [{ name: 'a.txt', length: 11 }],
    });
    expect(await receivedDelivery(server, 'ann@example.com', 'Plain files')).toBeUndefined();
    await ok(SENDER, [{ 'delivery.send': { deliveryUuid: created.uuid } }]);
    const received = (await receivedDelivery(server, 'ann@example.com', 'Plain files'))!;
    expect(received.linkMail.text).toContain('Hello Ann');
    expect(received.password).toBeUndefined();
    const page = await fetch(server.url + received.path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('a.txt');
    expect(html).not.toMatch(/<script|style=|<style/i);
    for (let i = 0; i < 2; i++) {
      const got = await downloadFile(server, received);
      expect(got.status).toBe(200);
      expect(got.bytes.toString()).toBe('alpha bytes');
      expect(got.headers.get('content-disposition')).toContain('attachment');
    }
    const details = await ok(SENDER, [{ 'delivery.get': { deliveryUuid: created.uuid } }]);
    expect(details).toMatchObject({ status: 'FINALIZED', downloads: 2 });
    expect(details.recipients[0]).toMatchObject({ email: 'ann@example.com', downloads: 2 });
    const notices = (await outboxMails(server)).filter((m) => m.subject === 'Downloaded: Plain files');
    expect(notices.map((m) => m.to)).toEqual(['dora@example.com']);
    const outbox = await ok(SENDER, [{ 'delivery.outbox.list': {} }]);
    expect(outbox.map((d: { uuid: string }) => d.uuid)).toContain(created.uuid);
  });

  it('level 2: the password comes in its own mail; without it nothing is shown; tries are limited', async () => {
    const created = await ok(SENDER, [
      {
        'delivery.create': {
          subject: 'With password',
          privacyLevel: 'L02_CREDENTIALS',
          recipients: ['bob@example.com'],
          attachments: [file('b.txt', 'bravo')],
          notifySender: false,
        },
      },
      { 'delivery.send': { deliveryUuid: '#{body.uuid}' } },
    ]);
    expect(created.privacyLevel).toBe(2);
    const received = (await receivedDelivery(server, 'bob@example.com', 'With password'))!;
    expect(received.password).toMatch(/^\S{22}$/);
    expect(received.linkMail.text).not.toContain(received.password);
    const page = await (await fetch(server.url + received.path)).text();
    expect(page).toContain('type="password"');
    expect(page).not.toContain('b.txt');
    expect((await fetch(`${server.url}${received.path}/0`)).status).toBe(403);
    const got = await downloadFile(server, received);
    expect(got.page).toContain('b.txt');
    expect(got.bytes.toString()).toBe('bravo');
    const wrong = () =>
      fetch(server.url + received.path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=nope',
      });
    expect((await wrong()).status).toBe(403);
    expect((await wrong()).status).toBe(403);
    expect((await wrong()).status).toBe(403);
    expect((await wrong()).status).toBe(429);
    expect((await downloadFile(server, received)).status).toBe(429);
    expect((await outboxMails(server)).some((m) => m.subject === 'Downloaded: With password')).toBe(false);
  });

  it('levels 3 and 4: stored encrypted, readable through the link only', async () => {
    for (const level of [3, 4]) {
      const subject = `Encrypted ${level}`;
      const d = await ok(SENDER, [
        {
          'delivery.create': {
            subject,
            message: `secret note ${level}`,
            privacyLevel: level,
            recipients: 'cy@example.com',
          },
        },
      ]);
      await ok(
        SENDER,
        [{ 'delivery.attachment.add': { deliveryUuid: d.uuid, name: 'c.txt', mimeType: 'text/plain' } }],
        'charlie',
      );
      const sent = await ok(SENDER, [{ 'delivery.send': { deliveryUuid: d.uuid } }]);
      expect(sent.encrypted).toBe(true);
      const stored =
        server.services.database.kind === 'sqlite'
          ? (server.services.database.db
              .prepare('SELECT content FROM delivery_attachment WHERE delivery_uuid = ?')
              .get(d.uuid) as { content: Buffer })
          : undefined;
      expect(stored!.content.toString('latin1')).not.toContain('charlie');
      const received = (await receivedDelivery(server, 'cy@example.com', subject))!;
      expect(received.linkMail.text.includes(`secret note ${level}`)).toBe(level === 3);
      const got = await downloadFile(server, received);
      expect(got.bytes.toString()).toBe('charlie');
      expect(got.page).toContain(`secret note ${level}`);
      if (level === 4) expect(sent.message).toBeNull();
      const again = await run(SENDER, [{ 'delivery.send': { deliveryUuid: d.uuid } }]);
      expect(again.json.value.code).toBe('CONFLICT');
    }
  });

  it('refuses a malformed recipient whole: nothing stored, nothing sent', async () => {
    const before = (await ok(SENDER, [{ 'delivery.outbox.list': {} }])).length;
    const mails = (await outboxMails(server)).length;
    const bad = await run(SENDER, [
      { 'delivery.create': { subject: 'Bad', recipients: 'ok@example.com, not an address' } },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'recipients' });
    const injected = await run(SENDER, [
      {
        'delivery.create': {
          subject: 'Bad',
          recipients: ['ok@example.com', 'x@example.com\r\nBcc: y@example.com'],
        },
      },
    ]);
    expect(injected.json.value.code).toBe('PARAM_INVALID');
    expect((await ok(SENDER, [{ 'delivery.outbox.list': {} }])).length).toBe(before);
    expect((await outboxMails(server)).length).toBe(mails);
  });

  it('answers an unknown, malformed or expired token with the same 404; the cleanup job deletes the bytes', async () => {
    const unknown = await fetch(`${server.url}/delivery/${'A'.repeat(43)}`);
    const malformed = await fetch(`${server.url}/delivery/..%2F..%2Fetc`);
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    const notFound = await unknown.text();
    expect(notFound).not.toMatch(/expired|delivery [0-9a-f-]{36}/i);
    const d = await ok(SENDER, [
      {
        'delivery.create': {
          subject: 'Short lived',
          recipients: 'dan@example.com',
          attachments: [file('d.txt', 'delta')],
          deleteAfter: Date.now() + 1500,
        },
      },
      { 'delivery.send': { deliveryUuid: '#{body.uuid}' } },
    ]);
    const received = (await receivedDelivery(server, 'dan@example.com', 'Short lived'))!;
    expect((await downloadFile(server, received)).bytes.toString()).toBe('delta');
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await fetch(server.url + received.path);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toBe(notFound);
    expect(await server.services.propertyJobs.ttlCleanup!.runOnce()).toBeGreaterThanOrEqual(1);
    const gone = await run(SENDER, [{ 'delivery.get': { deliveryUuid: d.uuid } }]);
    expect(gone.json.value.code).toBe('NOT_FOUND');
    if (server.services.database.kind === 'sqlite') {
      const rows = server.services.database.db
        .prepare('SELECT COUNT(*) AS n FROM delivery_attachment WHERE delivery_uuid = ?')
        .get(d.uuid) as { n: number };
      expect(rows.n).toBe(0);
    }
  });

  it('shows a delivery only to its sender; recipients see it in their inbox', async () => {
    const d = await ok(SENDER, [
      {
        'delivery.create': {
          subject: 'For Eve',
          recipients: 'eve@example.com',
          attachments: [file('e.txt', 'echo')],
        },
      },
      { 'delivery.send': { deliveryUuid: '#{body.uuid}' } },
    ]);
    const eve = basicAuth('eve', 'eve-password-1');
    const denied = await run(eve, [{ 'delivery.get': { deliveryUuid: d.uuid } }]);
    expect(denied.status).toBe(403); // ROLE_USER lacks CAN_PIPE_delivery.get
    const asOther = await run(server.adminAuth, [
      { 'iam.user.add.roles': { username: 'eve', roleNames: 'ROLE_DEVELOPER' } },
    ]);
    expect(asOther.status, asOther.text).toBe(200);
    const hidden = await run(eve, [{ 'delivery.get': { deliveryUuid: d.uuid } }]);
    expect(hidden.json.value.code).toBe('NOT_FOUND');
    const deleted = await run(eve, [{ 'delivery.delete': { deliveryUuid: d.uuid } }]);
    expect(deleted.json.value.code).toBe('NOT_FOUND');
    const inbox = await ok(eve, [{ 'delivery.inbox.list': {} }]);
    expect(inbox.map((x: { uuid: string }) => x.uuid)).toContain(d.uuid);
    expect(inbox[0]).not.toHaveProperty('recipients');
    const details = await ok(eve, [{ 'delivery.inbox.details': { deliveryUuid: d.uuid } }]);
    expect(details).toMatchObject({ subject: 'For Eve', attachments: [{ name: 'e.txt' }] });
  });

  it('changes only recipients once finalized', async () => {
    const d = await ok(SENDER, [{ 'delivery.create': { subject: 'Draft' } }]);
    await ok(SENDER, [
      { 'delivery.update': { deliveryUuid: d.uuid, subject: 'Draft 2', recipients: 'f@example.com' } },
    ]);
    await ok(SENDER, [{ 'delivery.finalize': { deliveryUuid: d.uuid } }]);
    const late = await run(SENDER, [{ 'delivery.update': { deliveryUuid: d.uuid, subject: 'Draft 3' } }]);
    expect(late.json.value.code).toBe('CONFLICT');
    const file2 = await run(
      SENDER,
      [{ 'delivery.attachment.add': { deliveryUuid: d.uuid, name: 'x.txt' } }],
      'x',
    );
    expect(file2.json.value.code).toBe('CONFLICT');
    const added = await ok(SENDER, [
      { 'delivery.recipient.add': { deliveryUuid: d.uuid, email: 'g@example.com', locale: 'de' } },
    ]);
    expect(added.recipients.map((r: { email: string }) => r.email)).toEqual([
      'f@example.com',
      'g@example.com',
    ]);
    await ok(SENDER, [{ 'delivery.send': { deliveryUuid: d.uuid, recipients: 'g@example.com' } }]);
    await eventually(() => receivedDelivery(server, 'g@example.com', 'Draft 2'), { what: 'the link mail' });
    expect(await receivedDelivery(server, 'f@example.com', 'Draft 2')).toBeUndefined();
    const stranger = await run(SENDER, [
      { 'delivery.send': { deliveryUuid: d.uuid, recipients: 'h@example.com' } },
    ]);
    expect(stranger.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter: 'recipients' });
  });
});
