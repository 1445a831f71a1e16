// mail.send with `model` and templates from properties (as the corpus apps write it), into the outbox, read back.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';

let server: TestServer;
let ann: string;
let ben: string;
let benUuid: string;

/** Creates the property with the value as the body, so its `#{...}` is stored, not evaluated. */
const put = (auth: string, key: string, value: unknown) =>
  http(server.url, '/api/v3/pipeline', {
    auth,
    type: 'application/json',
    body: JSON.stringify({
      pipeline: [
        {
          'property.schema.put': { key, ...(typeof value === 'string' ? {} : { type: 'application/json' }) },
        },
      ],
      body: value,
    }),
  });
const send = (form: CommandForm, params: Record<string, unknown>, auth = ann) =>
  callCommand(form, server.url, 'mail.send', params, auth);
const pipe = (yaml: string): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', { auth: ann, type: 'application/yaml', body: yaml });

async function outboxMail(response: HttpResponse) {
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  const name = response.json.outbox as string;
  return simpleParser(await server.services.mail.outboxMail(name));
}

beforeAll(async () => {
  server = await startTestServer({ env: { PIPEWORK_MAIL_FROM: 'robot@pipework.test' } });
  await server.services.iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  const b = await server.services.iam.createUser({
    username: 'ben',
    password: 'ben-pw',
    roles: ['ROLE_DEVELOPER'],
  });
  benUuid = b.uuid;
  ann = server.basicAuth('ann', 'ann-pw');
  ben = server.basicAuth('ben', 'ben-pw');
  const template = 'Hallo #{model.name}, Ihr Antrag ${model.reason} (${days} Tage) ist eingegangen.';
  const first = await put(ann, 'global/app/mailtest/template/message', template);
  expect(first.status, JSON.stringify(first.json)).toBe(200);
  expect((await put(ann, 'global/app/mailtest/template/subject', 'Antrag von ${name}')).status).toBe(200);
  expect(
    (
      await put(ann, 'global/app/mailtest/object/form/v1/instance/1', {
        name: 'Ann',
        reason: 'Urlaub',
        days: 3,
      })
    ).status,
  ).toBe(200);
  expect((await put(ben, `user/${benUuid}/secret`, { name: 'Geheim' })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

describe('mail.send renders templates with a model', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'loads message, subject and model from properties (%s)',
    async (form) => {
      const mail = await outboxMail(
        await send(form, {
          to: 'ann@example.com',
          subject: 'uri:property:global/app/mailtest/template/subject',
          message: 'uri:property:global/app/mailtest/template/message',
          model: 'uri:property:global/app/mailtest/object/form/v1/instance/1',
        }),
      );
      expect(mail.subject).toBe('Antrag von Ann');
      expect(mail.text?.trim()).toBe('Hallo Ann, Ihr Antrag Urlaub (3 Tage) ist eingegangen.');
    },
  );

  it('takes $uri:property: and a model given as a value, in a pipeline step', async () => {
    const mail = await outboxMail(
      await pipe(
        'pipeline:\n' +
          '  - set:\n      value: {name: Cy, reason: Reise, days: 5}\n      output: "#{vars.form}"\n' +
          '  - mail.send:\n      to: cy@example.com\n' +
          '      message: "$uri:property:global/app/mailtest/template/message"\n' +
          '      model: "#{vars.form}"\n',
      ),
    );
    expect(mail.text?.trim()).toBe('Hallo Cy, Ihr Antrag Reise (5 Tage) ist eingegangen.');
  });

  it('reads the model from the drive as JSON', async () => {
    const saved = await http(server.url, '/api/v3/command/drive.save?path=forms/f.json', {
      auth: ann,
      type: 'application/octet-stream',
      body: JSON.stringify({ name: 'Dora', reason: 'Kur', days: 9 }),
    });
    expect(saved.status).toBe(200);
    const mail = await outboxMail(
      await send('pipeline', {
        to: 'd@example.com',
        message: 'uri:property:global/app/mailtest/template/message',
        model: 'uri:drive:forms/f.json',
      }),
    );
    expect(mail.text?.trim()).toBe('Hallo Dora, Ihr Antrag Kur (9 Tage) ist eingegangen.');
  });

  it('never shows a property the caller may not read: FORBIDDEN / PROPERTY_NOT_FOUND', async () => {
    const before = (await server.services.mail.outbox()).length;
    const forbidden = await send('pipeline', {
      to: 'x@example.com',
      message: 'uri:property:global/app/mailtest/template/message',
      model: `uri:property:user/${benUuid}/secret`,
    });
    expect(forbidden.status).toBe(403);
    expect(codeOf(forbidden)).toBe('FORBIDDEN');
    expect(JSON.stringify(forbidden.json)).not.toContain('Geheim');
    const asTemplate = await send('GET', {
      to: 'x@example.com',
      message: `uri:property:user/${benUuid}/secret`,
    });
    expect(asTemplate.status).toBe(403);
    const missing = await send('GET', {
      to: 'x@example.com',
      message: 'uri:property:global/app/mailtest/none',
    });
    expect(missing.status).toBe(404);
    expect((await server.services.mail.outbox()).length).toBe(before);
    // Ben may read his own property.
    const own = await outboxMail(
      await send(
        'GET',
        {
          to: 'x@example.com',
          message: 'uri:property:global/app/mailtest/template/message',
          model: `uri:property:user/${benUuid}/secret`,
        },
        ben,
      ),
    );
    expect(own.text).toContain('Hallo Geheim');
  });

  it('refuses FreeMarker directives and built-ins with PARAM_INVALID', async () => {
    await put(ann, 'global/app/mailtest/template/directive', '<#if model.x>yes</#if>');
    await put(ann, 'global/app/mailtest/template/builtin', 'Hi ${name?upper_case}');
    for (const key of ['directive', 'builtin']) {
      const response = await send('GET', {
        to: 'x@example.com',
        message: `uri:property:global/app/mailtest/template/${key}`,
        model: '{"name":"a"}',
      });
      expect(response.status).toBe(400);
      expect(codeOf(response)).toBe('PARAM_INVALID');
    }
  });

  it('sends a plain message unchanged (no template, model ignored)', async () => {
    const mail = await outboxMail(
      await send('GET', { to: 'x@example.com', message: 'Costs ${price}', model: '{"price":1}' }),
    );
    expect(mail.text?.trim()).toBe('Costs ${price}');
  });
});
