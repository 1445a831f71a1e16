// property.object.instances over HTTP in both forms: pages, sorting and filters on the server, the app's
// access role honoured, and the field-level errors a form shows when the server refuses an instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
let ann: string;
const OBJECT = 'global/app/shop/object/order/v1';
const SCHEMA = {
  type: 'object',
  properties: {
    customer: { type: 'string', title: 'Customer', minLength: 2 },
    amount: { type: 'number', minimum: 0 },
    email: { type: 'string', format: 'email' },
  },
  required: ['customer'],
};

beforeAll(async () => {
  server = await startTestServer();
  const { iam, properties } = server.services;
  await iam.roles.create({ name: 'CAN_APP_SECRETSHOP' });
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_USER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  const admin = await iam.principalByUsername('admin');
  const put = (key: string, value: unknown) =>
    properties.create(admin, { key, value: JSON.stringify(value), type: 'application/json' });
  await put(`${OBJECT}/schema`, SCHEMA);
  for (let i = 0; i < 30; i++)
    await put(`${OBJECT}/instance/o${String(i).padStart(2, '0')}`, {
      customer: i % 3 === 0 ? `ACME ${i}` : `Other ${i}`,
      amount: (i * 7) % 30,
    });
  await put('global/app/secretshop/object/order/v1/instance/s1', { customer: 'hidden' });
});
afterAll(() => server?.close());

describe.each<CommandForm>(['GET', 'pipeline'])('property.object.instances (%s)', (form) => {
  const list = (params: Record<string, unknown>, auth = ann) =>
    callCommand(form, server.url, 'property.object.instances', params, auth);

  it('answers a page sorted by a numeric field with the total', async () => {
    const r = await list({ object: OBJECT, sort: 'amount', descending: true, offset: 2, limit: 5 });
    expect(r.status, r.text).toBe(200);
    expect(r.json.total).toBe(30);
    expect(r.json.folder).toBe(`${OBJECT}/instance`);
    const amounts = (r.json.instances as { value: { amount: number } }[]).map((i) => i.value.amount);
    expect(amounts).toEqual([27, 26, 25, 24, 23]);
  });

  it('filters on the server and counts the matches', async () => {
    const filter = [{ field: 'customer', op: 'contains', value: 'acme' }];
    const r = await list({ object: `${OBJECT}/schema`, filter, limit: 3 });
    expect(r.status, r.text).toBe(200);
    expect(r.json.total).toBe(10);
    expect(r.json.instances).toHaveLength(3);
  });

  it('refuses a hostile field name and a bad filter with PARAM_INVALID', async () => {
    expect(codeOf(await list({ object: OBJECT, sort: "x') --" }))).toBe('PARAM_INVALID');
    expect(codeOf(await list({ object: OBJECT, filter: [{ nope: 1 }] }))).toBe('PARAM_INVALID');
    expect(codeOf(await list({ object: 'global/app/shop/config' }))).toBe('PARAM_INVALID');
  });

  it('refuses the instances of an app guarded by a role the caller lacks; the admin sees them', async () => {
    const object = 'global/app/secretshop/object/order/v1';
    expect(codeOf(await list({ object }))).toBe('FORBIDDEN');
    const r = await list({ object }, server.adminAuth);
    expect(r.json.total).toBe(1);
  });
});

describe('server validation of an instance, field by field', () => {
  it('names every field that violates the schema in the errors list and stores nothing', async () => {
    const key = `${OBJECT}/instance/bad-one`;
    const r = await callCommand(
      'pipeline',
      server.url,
      'property.schema.put',
      {
        key,
        value: JSON.stringify({ customer: 'x', amount: -1, email: 'no' }),
        type: 'application/json',
        evalValue: false,
      },
      ann,
    );
    expect(codeOf(r), r.text).toBe('PARAM_INVALID');
    const errors = r.json.value.errors as { instancePath: string; keyword: string }[];
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([
      '/amount minimum',
      '/customer minLength',
      '/email format',
    ]);
    const exists = await callCommand('GET', server.url, 'property.exists', { key }, ann);
    expect(exists.json).toBe(false);
  });
});
