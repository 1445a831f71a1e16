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
  expect(
    (await put(ben, `user/${benUuid}/secret`, { name: 'Geheim', reason: 'Privat', days: 1 })).status,
  ).toBe(200);
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

  it('renders FreeMarker directives, built-ins and ranges with the model', async () => {
    await put(
      ann,
      'global/app/mailtest/template/order',
      '<p>Hallo ${name?upper_case},</p>\n<ul>\n<#list items as item>\n<li>${item?counter}. ${item.title} ' +
        '(${(item.price * item.qty)?string("0.00")} EUR)</li>\n</#list>\n</ul>\n' +
        '<#if vip!false>VIP</#if><#list 1..stars as s>*</#list> #{model.items.size()} Posten',
    );
    const mail = await outboxMail(
      await send('pipeline', {
        to: 'x@example.com',
        message: 'uri:property:global/app/mailtest/template/order',
        model: {
          name: 'ann',
          stars: 3,
          items: [
            { title: 'Tee', price: 2.5, qty: 2 },
            { title: 'Brot', price: 3, qty: 1 },
          ],
        },
      }),
    );
    expect(String(mail.html).trim()).toBe(
      '<p>Hallo ANN,</p>\n<ul>\n<li>1. Tee (5.00 EUR)</li>\n<li>2. Brot (3.00 EUR)</li>\n</ul>\n*** 2 Posten',
    );
  });

  it("gives body, vars and headers as the names when there is no model (the guide's default model)", async () => {
    await put(ann, 'global/app/mailtest/template/default', 'Hello ${vars.name}, #{vars.name}!');
    const mail = await outboxMail(
      await pipe(
        'vars:\n  name: Sam\npipeline:\n  - mail.send:\n      to: sam@example.com\n' +
          '      message: "uri:property:global/app/mailtest/template/default"\n',
      ),
    );
    expect(mail.text?.trim()).toBe('Hello Sam, Sam!');
  });

  it('never reads a value of the model as a template (FreeMarker or PEL)', async () => {
    // Stored as the body, so the pipeline does not evaluate its #{...}: the template sees it as it was submitted.
    const key = 'global/app/mailtest/object/form/v1/instance/hostile';
    expect(
      (await put(ann, key, { name: '<#list 1..9 as i>${i}</#list>', reason: '#{1+1}', days: '${name}' }))
        .status,
    ).toBe(200);
    const mail = await outboxMail(
      await send('pipeline', {
        to: 'x@example.com',
        message: 'uri:property:global/app/mailtest/template/message',
        model: `uri:property:${key}`,
      }),
    );
    expect(mail.text?.trim()).toBe(
      'Hallo <#list 1..9 as i>${i}</#list>, Ihr Antrag #{1+1} (${name} Tage) ist eingegangen.',
    );
  });

  it('answers a broken or hostile template with PARAM_INVALID / LIMIT_EXCEEDED, and sends nothing', async () => {
    await put(ann, 'global/app/mailtest/template/unknown', '<#macro greet>hi</#macro>');
    await put(ann, 'global/app/mailtest/template/missing', 'Hi ${nobody}');
    await put(ann, 'global/app/mailtest/template/huge', '<#list 1..1000000000 as i>${i}</#list>');
    const before = (await server.services.mail.outbox()).length;
    for (const [key, code] of [
      ['unknown', 'PARAM_INVALID'],
      ['missing', 'PARAM_INVALID'],
      ['huge', 'LIMIT_EXCEEDED'],
    ] as const) {
      const response = await send('GET', {
        to: 'x@example.com',
        message: `uri:property:global/app/mailtest/template/${key}`,
        model: '{"name":"a"}',
      });
      expect(codeOf(response), key).toBe(code);
      expect(JSON.stringify(response.json)).toContain('mail.send');
    }
    expect((await server.services.mail.outbox()).length).toBe(before);
  });

  it('sends a plain message unchanged (no template, model ignored)', async () => {
    const mail = await outboxMail(
      await send('GET', { to: 'x@example.com', message: 'Costs ${price}', model: '{"price":1}' }),
    );
    expect(mail.text?.trim()).toBe('Costs ${price}');
  });
});
