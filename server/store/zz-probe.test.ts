import { afterAll, beforeAll, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;
let ann: string;
beforeAll(async () => {
  server = await startTestServer();
  const { iam } = server.services;
  iam.roles.create({ name: 'CAN_APP_SECRETAPP' });
  await iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] });
  ann = server.basicAuth('ann', 'ann-pw');
  const admin = iam.principalByUsername('admin');
  for (const k of ['global/app/secretapp/object/salary/v1/schema', 'global/app/secretapp/config', 'global/app/open/a', 'global/app/open/b'])
    await server.services.properties.create(admin, { key: k, value: '{}' , type: 'application/json'});
});
afterAll(() => server.close());
const pipe = (yaml: string, auth = server.adminAuth) => http(server.url, '/api/v3/pipeline', { auth, type: 'application/yaml', body: yaml });

it('probe big value', async () => {
  const r = await pipe(`pipeline:\n  - property.schema.put:\n      key: global/big\n      value: "#{ {'a': 'x' * 999999, 'b': 'y' * 999999, 'c': 'z' * 999999} }"\n`);
  console.log('big', r.status, r.text.slice(0, 200));
  const r2 = await pipe(`pipeline:\n  - set.body:\n      value: "#{ 'x' * 999999 }"\n  - property.schema.put:\n      key: global/big2\n      value: "#{ [body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body,body] }"\n`);
  console.log('big2', r2.status, r2.text.slice(0, 200));
});
it('probe app rules', async () => {
  const d = await http(server.url, '/api/v3/command/property.delete?filter=global/app/**', { auth: ann });
  console.log('delete', d.status, d.text.slice(0, 300));
  const c = await http(server.url, '/api/v3/command/property.keys.children?pattern=global/app/secretapp', { auth: ann });
  console.log('children', c.status, c.text.slice(0, 300));
  const c2 = await http(server.url, '/api/v3/command/property.keys.children?pattern=global/app', { auth: ann });
  console.log('children2', c2.status, c2.text.slice(0, 300));
  const l = await http(server.url, '/api/v3/command/property.list?filter=global/app/**&limit=2', { auth: ann });
  console.log('limit', l.status, l.json.map((p: {key:string}) => p.key));
  const c3 = await http(server.url, '/api/v3/command/property.keys.children?pattern=///global/app', { auth: ann });
  console.log('children3', c3.status, c3.text.slice(0, 300));
});
