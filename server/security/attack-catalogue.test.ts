/**
 * Runs every attack of the catalogue against the real server and checks the status and code it gets; no attack
 * may get a 500, and none may see a value that is not the caller's.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { basicAuth, startTestServer, type TestServer } from '../testing/test-server';
import {
  HTTP_ATTACK_GROUPS,
  HTTP_SHAPES,
  SECRET_OF_BEN,
  USER_PASSWORD,
  type AttackWorld,
  type HttpAttack,
  type RawAttack,
} from './attacks';

let server: TestServer;
let world: AttackWorld;

beforeAll(async () => {
  // a real socket: raw requests go over node:net
  server = await startTestServer({ socket: true });
  const { iam, properties } = server.services;
  const sales = await iam.groups.create({ name: 'sales' });
  const ops = await iam.groups.create({ name: 'ops' });
  await iam.tenants.create('acme');
  const globex = await iam.tenants.create('globex');
  const ann = await iam.createUser({
    username: 'ann',
    password: USER_PASSWORD,
    groups: ['sales'],
    tenants: ['acme'],
  });
  const ben = await iam.createUser({
    username: 'ben',
    password: USER_PASSWORD,
    groups: ['ops'],
    tenants: ['globex'],
  });
  const admin = (await iam.principalByUsername('admin'))!;
  world = {
    annUuid: ann.uuid,
    benUuid: ben.uuid,
    salesUuid: sales.uuid,
    opsUuid: ops.uuid,
    globexUuid: globex.uuid,
  };
  await properties.create(admin, { key: `user/${ben.uuid}/notes`, value: SECRET_OF_BEN });
  await properties.create(admin, { key: `group/${ops.uuid}/pipeline/report`, value: SECRET_OF_BEN });
  await properties.create(admin, { key: `tenant/${globex.uuid}/app/crm/config/app`, value: SECRET_OF_BEN });
  await properties.create(admin, { key: `user/${ann.uuid}/doc`, value: 'mine' });
});

afterAll(() => server.close());

function authorizationOf(attack: HttpAttack): string | undefined {
  if (attack.as === 'none') return undefined;
  if (attack.as === 'admin') return server.adminAuth;
  if (attack.as === 'ann' || attack.as === 'ben') return basicAuth(attack.as, USER_PASSWORD);
  return attack.as.authorization;
}

async function send(attack: HttpAttack) {
  const path = typeof attack.path === 'function' ? attack.path(world) : attack.path;
  const body = typeof attack.body === 'function' ? attack.body(world) : attack.body;
  return http(server.url, path, {
    method: attack.method ?? 'GET',
    auth: authorizationOf(attack),
    type: attack.type,
    body,
    headers: attack.headers,
  });
}

/** Sends bytes as they are and reads the status line of the first answer. */
function sendRaw(raw: string): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`closed without an answer: ${JSON.stringify(received.slice(0, 80))}`)),
    );
    socket.write(Buffer.from(raw, 'latin1'));
  });
}

for (const [group, attacks] of HTTP_ATTACK_GROUPS) {
  describe(`attacks: ${group}`, () => {
    for (const attack of attacks) {
      it(`${attack.id} ${attack.what} → ${attack.status}${attack.code ? ` ${attack.code}` : ''}`, async () => {
        const response = await send(attack);
        const code = response.json?.value?.code ?? response.json?.error;
        expect({ status: response.status, code: attack.code === undefined ? undefined : code }).toEqual({
          status: attack.status,
          code: attack.code,
        });
        if (response.status >= 400 && response.json?.status === 'error') {
          expect(response.json.value.code, 'an API error carries a catalogued code').toMatch(/^[A-Z_]+$/);
        }
        if (attack.mustNotContain) expect(response.text).not.toContain(attack.mustNotContain);
      });
    }
  });
}

describe('attacks: request smuggling and malformed HTTP', () => {
  for (const attack of HTTP_SHAPES satisfies RawAttack[]) {
    it(`${attack.id} ${attack.what} → ${attack.status}`, async () => {
      expect(await sendRaw(attack.raw)).toBe(attack.status);
    });
  }
  it('the server still answers normally afterwards', async () => {
    const response = await http(server.url, '/healthz');
    expect(response.status).toBe(200);
  });
});

it('the catalogue holds at least 80 attacks with unique ids', async () => {
  const ids = [...HTTP_ATTACK_GROUPS.flatMap(([, attacks]) => attacks), ...HTTP_SHAPES].map((a) => a.id);
  expect(ids.length).toBeGreaterThanOrEqual(80);
  expect(new Set(ids).size).toBe(ids.length);
});
