import type { AddressInfo, Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackSmtp, type LoopbackSmtp } from '../../mail/loopback-smtp';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

let smtp: LoopbackSmtp;
let server: TestServer;
let ann: string;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  server = await startTestServer({
    env: {
      PIPEWORK_SMTP_URL: smtp.url,
      PIPEWORK_MAIL_FROM: 'robot@pipework.test',
      PIPEWORK_MAIL_FROM_NAME: 'Pipework',
    },
  });
  await server.services.iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const send = (form: CommandForm, params: Record<string, unknown>) =>
  callCommand(form, server.url, 'mail.send', params, ann);
const pipe = (yaml: string): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', { auth: ann, type: 'application/yaml', body: yaml });

describe('mail.send to a real SMTP server on loopback', () => {
  it.each<CommandForm>(['GET', 'pipeline'])('sends a text mail with cc and bcc (%s form)', async (form) => {
    const seen = smtp.received.length;
    const response = await send(form, {
      to: 'Ann <ann@example.com>, ben@example.com',
      cc: 'cy@example.com',
      bcc: 'boss@example.com',
      subject: `Weekly numbers ${form}`,
      message: 'All good.',
      replyTo: 'desk@example.com',
    });
    expect(response.status).toBe(200);
    expect(response.json.accepted.sort()).toEqual([
      'ann@example.com',
      'ben@example.com',
      'boss@example.com',
      'cy@example.com',
    ]);
    const { mail, rcptTo } = await smtp.next(seen);
    expect(mail.subject).toBe(`Weekly numbers ${form}`);
    expect(mail.text?.trim()).toBe('All good.');
    expect(mail.html).toBe(false);
    expect(mail.from?.value).toEqual([{ name: 'Pipework', address: 'robot@pipework.test' }]);
    expect(mail.replyTo?.value[0]?.address).toBe('desk@example.com');
    const to = Array.isArray(mail.to) ? mail.to : [mail.to!];
    expect(to[0]!.value.map((a) => a.address)).toEqual(['ann@example.com', 'ben@example.com']);
    expect(mail.headers.has('bcc')).toBe(false); // the blind copy is in the envelope only
    expect(rcptTo).toContain('boss@example.com');
  });

  it('sends HTML with a drive file and a list of recipients, as a pipeline step', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 1, 2, 3, 250]);
    await http(server.url, '/api/v3/command/drive.save?path=reports/r.pdf', {
      auth: ann,
      type: 'application/pdf',
      body: pdf,
    });
    const seen = smtp.received.length;
    const response = await pipe(
      'vars:\n  who: [ann@example.com, ben@example.com]\n' +
        'pipeline:\n  - mail.send:\n      to: "#{vars.who}"\n      subject: Report\n' +
        '      message: "<p>See <b>attached</b></p>"\n      fromName: Reports desk\n' +
        '      attachments: uri:drive:reports/r.pdf\n',
    );
    expect(response.status).toBe(200);
    const { mail } = await smtp.next(seen);
    expect(mail.html).toContain('<b>attached</b>');
    expect(mail.from?.value[0]?.name).toBe('Reports desk');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'r.pdf', contentType: 'application/pdf' });
    expect(new Uint8Array(mail.attachments[0]!.content)).toEqual(pdf);
  });

  it('attaches a file in the body, and the message comes from a text body otherwise', async () => {
    await http(server.url, '/api/v3/command/drive.save?path=notes/n.txt', {
      auth: ann,
      type: 'text/plain',
      body: 'note',
    });
    let seen = smtp.received.length;
    await pipe(
      'pipeline:\n  - drive.read: notes/n.txt\n  - mail.send: {to: ann@example.com, subject: Body file, message: see file}\n',
    );
    let { mail } = await smtp.next(seen);
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['n.txt', 'note']]);
    seen = smtp.received.length;
    await pipe('pipeline:\n  - set.body: the body is the message\n  - mail.send: {to: ann@example.com}\n');
    ({ mail } = await smtp.next(seen));
    expect(mail.text?.trim()).toBe('the body is the message');
    expect(mail.attachments).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['CR/LF in the subject', { to: 'a@example.com', subject: 'Hi\r\nBcc: victim@example.com' }, 'subject'],
    ['LF in the subject', { to: 'a@example.com', subject: 'Hi\nX-Injected: 1' }, 'subject'],
    ['CR/LF in to', { to: 'a@example.com\r\nBcc: victim@example.com' }, 'to'],
    ['CR/LF in a list of recipients', { to: ['a@example.com', 'b@example.com\nBcc: v@example.com'] }, 'to'],
    ['CR/LF in fromName', { to: 'a@example.com', fromName: 'Desk\r\nBcc: v@example.com' }, 'fromName'],
    ['CR/LF in from', { to: 'a@example.com', from: 'me@example.com\r\nBcc: v@example.com' }, 'from'],
    ['CR/LF in replyTo', { to: 'a@example.com', replyTo: 'r@example.com\r\nBcc: v@example.com' }, 'replyTo'],
    ['NUL in cc', { to: 'a@example.com', cc: 'c@example.com\u0000' }, 'cc'],
    ['an address without @', { to: 'not-an-address' }, 'to'],
    ['junk after an address', { to: 'a@example.com, junk' }, 'to'],
    ['a space in an address', { to: 'a b@example.com' }, 'to'],
    ['a bad domain', { to: 'a@-example.com' }, 'to'],
    ['a bad bcc', { to: 'a@example.com', bcc: '@example.com' }, 'bcc'],
    ['two senders', { to: 'a@example.com', from: 'a@example.com, b@example.com' }, 'from'],
    ['no recipient', { to: '' }, 'to'],
    ['a traversing attachment', { to: 'a@example.com', attachments: '../../etc/passwd' }, 'path'],
    [
      'an attachment from elsewhere',
      { to: 'a@example.com', attachments: 'file:///etc/passwd' },
      'attachments',
    ],
    ['a user as attachment', { to: 'a@example.com', attachments: '$uri:user:admin' }, 'attachments'],
  ])('refuses %s and sends nothing', async (_what, params, parameter) => {
    const seen = smtp.received.length;
    for (const form of ['GET', 'pipeline'] as CommandForm[]) {
      const response = await send(form, params);
      expect([response.status, codeOf(response), response.json.value.parameter]).toEqual([
        400,
        'PARAM_INVALID',
        parameter,
      ]);
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(smtp.received.length).toBe(seen);
  });

  it('refuses a missing drive attachment with NOT_FOUND', async () => {
    const response = await send('GET', { to: 'a@example.com', attachments: 'reports/none.pdf' });
    expect(codeOf(response)).toBe('NOT_FOUND');
  });

  it('answers UPSTREAM_FAILED when the SMTP server refuses or is not there, without naming its URL', async () => {
    const refusing = await startLoopbackSmtp({ reject: true });
    const other = await startTestServer({
      env: { PIPEWORK_SMTP_URL: refusing.url.replace('smtp://', 'smtp://user:s3cret@') },
    });
    try {
      const refused = await callCommand(
        'GET',
        other.url,
        'mail.send',
        { to: 'a@example.com' },
        other.adminAuth,
      );
      expect([refused.status, codeOf(refused)]).toEqual([502, 'UPSTREAM_FAILED']);
      expect(refused.text).not.toContain('s3cret');
      await refusing.close();
      const gone = await callCommand('GET', other.url, 'mail.send', { to: 'a@example.com' }, other.adminAuth);
      expect([gone.status, codeOf(gone)]).toEqual([502, 'UPSTREAM_FAILED']);
    } finally {
      await other.close();
    }
  });
});

it('answers UPSTREAM_FAILED when the SMTP server never greets, after PIPEWORK_SMTP_TIMEOUT_MILLIS', async () => {
  const { createServer } = await import('node:net');
  const held: Socket[] = [];
  const silent = createServer((socket) => held.push(socket)).listen(0, '127.0.0.1');
  await new Promise((resolve) => silent.once('listening', resolve));
  const port = (silent.address() as AddressInfo).port;
  const other = await startTestServer({
    env: { PIPEWORK_SMTP_URL: `smtp://127.0.0.1:${port}`, PIPEWORK_SMTP_TIMEOUT_MILLIS: '300' },
  });
  try {
    const started = Date.now();
    const response = await callCommand(
      'GET',
      other.url,
      'mail.send',
      { to: 'a@example.com' },
      other.adminAuth,
    );
    expect([response.status, codeOf(response)]).toEqual([502, 'UPSTREAM_FAILED']);
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await other.close();
    held.forEach((s) => s.destroy());
    silent.close();
  }
});

describe('the outbox (no SMTP server)', () => {
  let local: TestServer;
  beforeAll(async () => {
    local = await startTestServer();
  });
  afterAll(() => local.close());

  it('writes each mail as .eml, which mail.outbox.list and mail.outbox.read show (admins only)', async () => {
    const csv = 'a,b\n1,2\n'.repeat(10_000);
    await http(local.url, '/api/v3/command/drive.save?path=exports/data.csv', {
      auth: local.adminAuth,
      type: 'text/csv',
      body: csv,
    });
    const response = await callCommand(
      'pipeline',
      local.url,
      'mail.send',
      {
        to: 'ann@example.com',
        subject: 'To the outbox',
        message: 'stored',
        attachments: ['exports/data.csv'],
      },
      local.adminAuth,
    );
    expect(response.status).toBe(200);
    expect(response.json.outbox).toMatch(/\.eml$/);
    const listed = await callCommand('GET', local.url, 'mail.outbox.list', {}, local.adminAuth);
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0].name).toBe(response.json.outbox);
    const raw = await fetch(`${local.url}/api/v3/command/mail.outbox.read?name=${listed.json[0].name}`, {
      headers: { authorization: local.adminAuth },
    });
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    const mail = await simpleParser(Buffer.from(await raw.arrayBuffer()));
    expect(mail.subject).toBe('To the outbox');
    expect(mail.text?.trim()).toBe('stored');
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['data.csv', csv]]);

    const traversal = await callCommand(
      'GET',
      local.url,
      'mail.outbox.read',
      { name: '../pipework.sqlite' },
      local.adminAuth,
    );
    expect([codeOf(traversal), traversal.json.value.parameter]).toEqual(['PARAM_INVALID', 'name']);
    await local.services.iam.createUser({ username: 'dev', password: 'dev-pw', roles: ['ROLE_DEVELOPER'] });
    const dev = local.basicAuth('dev', 'dev-pw');
    expect(codeOf(await callCommand('GET', local.url, 'mail.outbox.list', {}, dev))).toBe('FORBIDDEN');
    expect((await callCommand('GET', local.url, 'mail.send', { to: 'x@example.com' }, dev)).status).toBe(200);
  });
});
