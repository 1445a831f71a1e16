// The corpus apps that call mail.send: they validate, and (published, with what they need from outside the
// corpus put in place) run their mail step into the outbox, read back.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFolder } from '../../cli/publish';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus/app-examples');
const present = existsSync(corpus);
const MAIL_PIPELINES = [
  'global/app/itsupport/pipeline/accessrequestform-submit.pi.yaml',
  'global/app/itsupport/pipeline/equipmentrequestform-submit.pi.yaml',
  'global/app/serverroom/pipeline/sendemail.pi.yaml',
];

let server: TestServer;
beforeAll(async () => {
  if (present) server = await startTestServer({ env: { PIPEWORK_MAIL_FROM: 'robot@pipework.test' } });
});
afterAll(() => server?.close());

const run = (pipeline: unknown[], body: unknown) =>
  http(server.url, '/api/v3/pipeline', {
    auth: server.adminAuth,
    type: 'application/json',
    body: JSON.stringify({ pipeline, body }),
  });
const schemaPut = (key: string, value: unknown, type?: string) =>
  run([{ 'property.schema.put': { key, value, ...(type ? { type } : {}), evalValue: false } }], null);

/** What `pi publish <folder>` sends. */
async function publishApp(app: string): Promise<void> {
  for (const p of readFolder(corpus).filter((f) => f.key.startsWith(`global/app/${app}/`))) {
    const response = await schemaPut(p.key, p.value, p.type);
    expect(response.status, `${p.key}: ${response.text}`).toBe(200);
  }
}

/** The corpus pipeline's steps after its event.listen, as the event would run them. */
function stepsAfterListen(file: string): unknown[] {
  const steps = (parse(readFileSync(join(corpus, file), 'utf8')) as { pipeline: Record<string, unknown>[] })
    .pipeline;
  expect(Object.keys(steps[0]!)).toEqual(['event.listen']);
  return steps.slice(1);
}

describe.skipIf(!present)('corpus pipelines that call mail.send', () => {
  it.each(MAIL_PIPELINES)('%s validates without a mail.send problem', async (file) => {
    const response = await http(server.url, '/api/v3/command/pipeline.validate', {
      body: readFileSync(join(corpus, file), 'utf8'),
      type: 'text/plain',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    const problems = response.json as { commandName?: string; severity: string }[];
    expect(problems.filter((p) => p.commandName === 'mail.send')).toEqual([]);
  });

  it('itsupport accessrequestform-submit renders the template with the submitted form', async () => {
    await publishApp('itsupport');
    // Not in the corpus: the template (the real product's apps install it) and the recipient the pipeline
    // reads from config/itsupport (the corpus has config/app, whose recipient points into another app).
    await schemaPut(
      'global/app/itsupport/template/accessrequestform-message',
      '<p>Neue Anfrage von ${firstName} ${lastName}: #{model.reason}</p>',
    );
    await schemaPut(
      'global/app/itsupport/config/itsupport',
      { recipient: 'desk@example.com' },
      'application/json',
    );
    const key = 'global/app/itsupport/object/accessrequestform/v1/instance/r-1';
    await schemaPut(key, { firstName: 'Ann', lastName: 'Lee', reason: 'VPN' }, 'application/json');
    const response = await run(stepsAfterListen(MAIL_PIPELINES[0]!), { target: { key } });
    expect(response.status, response.text).toBe(200);
    const mail = await simpleParser(await server.services.mail.outboxMail(response.json.outbox as string));
    expect(mail.subject).toBe('Formular IT-Zugriff-Anfrage wurde ausgefüllt');
    expect(mail.html).toContain('Neue Anfrage von Ann Lee: VPN');
    expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0]!.address).toBe('desk@example.com');
  });

  it('serverroom sendemail protocols the access and mails the configured addresses', async () => {
    await publishApp('serverroom');
    const key = 'global/app/serverroom/object/accessprotocol/v1/instance/p-1';
    const value = { action: 'betreten', reason: 'Wartung' };
    await schemaPut(key, value, 'application/json');
    const response = await run(stepsAfterListen(MAIL_PIPELINES[2]!), { target: { key, value } });
    expect(response.status, response.text).toBe(200);
    const mail = await simpleParser(await server.services.mail.outboxMail(response.json.outbox as string));
    expect(mail.subject).toMatch(/^Serverraum wurde betreten von: /);
    expect(mail.text).toContain('betreten.');
    expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0]!.address).toBe(
      's.niedermeier@logabit.com',
    );
  });
});
