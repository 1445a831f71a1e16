import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Property } from '../../shared/property';
import { PropertyService } from './property-service';
import {
  makePrincipal,
  createTestPropertyService,
  errorCode,
  type TestPropertyService,
} from './test-fixtures';

const INVOICE_SCHEMA = readFileSync(
  new URL(
    '../../../shared/corpus/app-examples/global/app/invoiceform/object/invoiceform/v1/schema.json',
    import.meta.url,
  ),
  'utf8',
);

type Payload = { origin: Property | null; target: Property | null };

const admin = makePrincipal('admin', { admin: true });
const alice = makePrincipal('alice', { groups: ['g1'] });
const bob = makePrincipal('bob');

describe('PropertyService', () => {
  let now = 1_700_000_000_000;
  let t: TestPropertyService;
  beforeEach(() => {
    now = 1_700_000_000_000;
    t = createTestPropertyService(() => now);
  });
  afterEach(() => t.close());

  describe('values and types', () => {
    it.each<[unknown, unknown, { value: string | null; type: string }]>([
      ['text', undefined, { value: 'text', type: 'text/plain' }],
      [{ a: 1 }, undefined, { value: '{"a":1}', type: 'application/json' }],
      [7, undefined, { value: '7', type: 'application/json' }],
      [{ a: 1 }, 'application/vnd.x+json', { value: '{"a":1}', type: 'application/vnd.x+json' }],
      ['a: 1', 'application/yaml;type=pipeline', { value: 'a: 1', type: 'application/yaml;type=pipeline' }],
      [
        new Uint8Array([1, 2, 3]),
        'application/pdf',
        { value: 'AQID', type: 'application/pdf;encoding=base64' },
      ],
      [undefined, undefined, { value: null, type: 'text/plain' }],
    ])('stores %j with type %s', async (value, type, expected) => {
      const { property } = await t.service.create(alice, { key: 'global/v', value, type });
      expect(property).toMatchObject(expected);
    });

    it('keeps the type when a string value replaces a JSON one', async () => {
      await t.service.create(alice, { key: 'global/j', value: { a: 1 } });
      const put = await t.service.put(alice, { key: 'global/j', value: '{"a":2}' });
      expect(put).toMatchObject({ value: '{"a":2}', type: 'application/json', version: 2 });
    });

    it('refuses values and default values over the size limit (PAYLOAD_TOO_LARGE) before writing', async () => {
      const small = new PropertyService({ store: t.store, events: t.events, maxValueLength: 10 });
      expect(await errorCode(small.create(alice, { key: 'global/v', value: 'x'.repeat(11) }))).toBe(
        'PAYLOAD_TOO_LARGE',
      );
      expect(await errorCode(small.create(alice, { key: 'global/v', value: { a: '1234567' } }))).toBe(
        'PAYLOAD_TOO_LARGE',
      );
      expect(
        await errorCode(small.create(alice, { key: 'global/v', value: 'ok', defaultValue: 'x'.repeat(9) })),
      ).toBe('PAYLOAD_TOO_LARGE');
      await small.create(alice, { key: 'global/v', value: 'x'.repeat(10) });
      expect(await errorCode(small.put(alice, { key: 'global/v', value: 'y'.repeat(11) }))).toBe(
        'PAYLOAD_TOO_LARGE',
      );
      expect((await small.get(alice, 'global/v')).value).toBe('x'.repeat(10));
      await t.events.idle();
      expect(t.seen.map((e) => e.eventKey)).toEqual(['property.created']);
    });

    it('rejects a type that is no mime type', async () => {
      expect(await errorCode(t.service.create(alice, { key: 'global/v', value: 'x', type: 'no type' }))).toBe(
        'PARAM_INVALID',
      );
    });
  });

  describe('create, put and delete', () => {
    it('applies the exist strategies', async () => {
      expect((await t.service.create(alice, { key: 'global/a', value: '1' })).result).toBe('create');
      expect((await t.service.create(alice, { key: 'global/a', value: '2' })).result).toBe('update');
      expect((await t.service.create(alice, { key: 'global/a', value: '3' }, 'skip')).result).toBe('skip');
      expect(await errorCode(t.service.create(alice, { key: 'global/a', value: '4' }, 'error'))).toBe(
        'PROPERTY_EXISTS',
      );
      expect((await t.service.get(alice, 'global/a')).value).toBe('2');
    });

    it('puts only existing properties, with compare-and-swap', async () => {
      expect(await errorCode(t.service.put(alice, { key: 'global/a', value: 'x' }))).toBe(
        'PROPERTY_NOT_FOUND',
      );
      await t.service.create(alice, { key: 'global/a', value: '1' });
      await t.service.put(alice, { key: 'global/a', value: '2', version: 1 });
      expect(await errorCode(t.service.put(alice, { key: 'global/a', value: '3', version: 1 }))).toBe(
        'CONFLICT',
      );
    });

    it('deletes one (or fails with PROPERTY_NOT_FOUND) and removes idempotently', async () => {
      await t.service.create(alice, { key: 'global/a', value: '1' });
      expect((await t.service.delete(alice, 'global/a')).key).toBe('global/a');
      expect(await errorCode(t.service.delete(alice, 'global/a'))).toBe('PROPERTY_NOT_FOUND');
      expect(await t.service.remove(alice, 'global/a')).toBeNull();
    });

    it('copies and moves within the rules', async () => {
      await t.service.create(bob, { key: 'user/bob/secret', value: 's' });
      await t.service.create(alice, { key: 'user/alice/mine', value: 'm' });
      expect(await errorCode(t.service.copy(alice, 'user/bob/secret', 'user/alice/stolen'))).toBe(
        'FORBIDDEN',
      );
      expect(await errorCode(t.service.copy(alice, 'user/alice/mine', 'user/bob/gift'))).toBe('FORBIDDEN');
      expect(await errorCode(t.service.move(alice, 'user/bob/secret', 'user/alice/stolen'))).toBe(
        'FORBIDDEN',
      );
      expect((await t.service.copy(alice, 'user/alice/mine', 'global/shared')).value).toBe('m');
      expect((await t.service.move(alice, 'user/alice/mine', 'user/alice/moved')).key).toBe(
        'user/alice/moved',
      );
    });
  });

  describe('visibility', () => {
    beforeEach(async () => {
      await t.service.create(admin, { key: 'global/app/x/config', value: 'g' });
      await t.service.create(alice, { key: 'user/alice/a', value: 'a' });
      await t.service.create(bob, { key: 'user/bob/b', value: 'b' });
      await t.service.create(alice, { key: 'group/g1/doc', value: 'g1' });
      await t.service.create(admin, { key: 'group/g2/doc', value: 'g2' });
      await t.service.create(admin, { key: 'tenant/t1/app/a/x', value: 't' });
    });

    it.each([
      ['**'],
      ['*/**'],
      ['user/**'],
      ['*/*/*'],
      ['user/*/*'],
      ['group/**'],
      ['*/bob/**'],
      ['**/b'],
      ['tenant/**'],
    ])('lists only what alice may read through %s', async (pattern) => {
      const keys = (await t.service.list(alice, pattern)).map((p) => p.key);
      for (const key of keys) expect(key).toMatch(/^(global\/|user\/alice\/|group\/g1\/)/);
      expect(await t.service.keys(alice, pattern)).toEqual(keys);
    });

    it('lets admins list everything', async () => {
      expect(await t.service.keys(admin, '**')).toHaveLength(6);
    });

    it('refuses direct reads and writes in other users’ folders', async () => {
      expect(await errorCode(t.service.get(alice, 'user/bob/b'))).toBe('FORBIDDEN');
      expect(await errorCode(t.service.exists(alice, 'user/bob/b'))).toBe('FORBIDDEN');
      expect(await errorCode(t.service.create(alice, { key: 'user/bob/x', value: 'x' }))).toBe('FORBIDDEN');
      expect(await errorCode(t.service.put(alice, { key: 'group/g2/doc', value: 'x' }))).toBe('FORBIDDEN');
      expect(await errorCode(t.service.delete(alice, 'tenant/t1/app/a/x'))).toBe('FORBIDDEN');
    });

    it('deletes by pattern only what alice sees', async () => {
      const deleted = await t.service.deleteMatching(alice, '**');
      expect(deleted.map((p) => p.key).sort()).toEqual([
        'global/app/x/config',
        'group/g1/doc',
        'user/alice/a',
      ]);
      expect(await t.service.keys(admin, '**')).toEqual(['group/g2/doc', 'tenant/t1/app/a/x', 'user/bob/b']);
    });

    it('browses the tree without showing other users’ folders', async () => {
      expect(await t.service.children(alice)).toEqual(['global/', 'group/', 'user/']);
      expect(await t.service.children(alice, 'user/')).toEqual(['user/alice/']);
      expect(await t.service.children(alice, 'group/*')).toEqual(['group/g1/']);
      expect(await t.service.children(admin, 'user')).toEqual(['user/alice/', 'user/bob/']);
      expect(await errorCode(t.service.children(alice, 'user/*/x'))).toBe('KEY_INVALID');
      expect(await t.service.children(alice, '/user/')).toEqual(['user/alice/']);
      for (const hostile of ['//user', 'user//', 'user/../x', 'user\\x'])
        expect([hostile, await errorCode(t.service.children(alice, hostile))]).toEqual([
          hostile,
          'KEY_INVALID',
        ]);
    });
  });

  describe('reserved apps', () => {
    beforeEach(async () => {
      await t.store.save({ key: 'global/app/delivery/config', value: 'built-in' });
    });

    it.each<[string, (s: TestPropertyService['service']) => Promise<unknown>]>([
      ['create inside', (s) => s.create(admin, { key: 'global/app/delivery/new', value: 'x' })],
      ['update', (s) => s.create(admin, { key: 'global/app/delivery/config', value: 'x' })],
      ['put', (s) => s.put(admin, { key: 'global/app/delivery/config', value: 'x' })],
      ['delete', (s) => s.delete(admin, 'global/app/delivery/config')],
      ['remove', (s) => s.remove(admin, 'global/app/delivery/config')],
      ['delete by pattern', (s) => s.deleteMatching(admin, 'global/app/**')],
      ['move away', (s) => s.move(admin, 'global/app/delivery/config', 'global/app/mine/config')],
      ['copy over', (s) => s.copy(admin, 'global/app/delivery/config', 'global/app/delivery/copy')],
      ['attach', (s) => s.attachments.put(admin, 'global/app/delivery/config', 'a.txt')],
    ])('nobody, not even an admin, may %s', async (_name, act) => {
      expect(await errorCode(act(t.service))).toBe('FORBIDDEN');
      expect((await t.service.get(alice, 'global/app/delivery/config')).value).toBe('built-in');
      expect(await t.service.keys(admin, 'global/app/**')).toEqual(['global/app/delivery/config']);
    });

    it('may be read and copied out', async () => {
      expect(
        (await t.service.copy(alice, 'global/app/delivery/config', 'global/app/mine/config')).value,
      ).toBe('built-in');
    });
  });

  describe('object schemas', () => {
    const schemaKey = 'global/app/invoiceform/object/invoiceform/v1/schema';
    const instanceKey =
      'global/app/invoiceform/object/invoiceform/v1/instance/0b7c2f4e-1f7a-4d1e-9c41-3b1b1e0e6b11';
    beforeEach(async () => {
      await t.service.create(admin, { key: schemaKey, value: INVOICE_SCHEMA, type: 'application/json' });
    });

    it('accepts an instance matching the real app’s schema', async () => {
      const { property } = await t.service.create(alice, {
        key: instanceKey,
        value: { senderName: 'ACME', senderEmail: 'a@example.com', nachricht: 'hi' },
      });
      expect(property.type).toBe('application/json');
    });

    it.each<[string, unknown]>([
      ['a wrong field type', { senderName: 42 }],
      ['a bad email', { senderEmail: 'not-an-email' }],
      ['too long a message', { nachricht: 'x'.repeat(2001) }],
      ['text that is not JSON', 'not json'],
    ])('rejects an instance with %s (PARAM_INVALID)', async (_name, value) => {
      expect(await errorCode(t.service.create(alice, { key: instanceKey, value }))).toBe('PARAM_INVALID');
      expect(await t.service.keys(admin, `${instanceKey}`)).toEqual([]);
    });

    it('validates put, copy and move into instances too', async () => {
      await t.service.create(alice, { key: instanceKey, value: { senderName: 'ok' } });
      expect(await errorCode(t.service.put(alice, { key: instanceKey, value: { senderName: 1 } }))).toBe(
        'PARAM_INVALID',
      );
      await t.service.create(alice, { key: 'global/bad', value: { senderName: 1 } });
      const other = instanceKey.replace(/[^/]+$/, 'other');
      expect(await errorCode(t.service.copy(alice, 'global/bad', other))).toBe('PARAM_INVALID');
      expect(await errorCode(t.service.move(alice, 'global/bad', other))).toBe('PARAM_INVALID');
    });

    it('refuses a schema that does not compile', async () => {
      const bad = schemaKey.replace('v1', 'v2');
      expect(await errorCode(t.service.create(admin, { key: bad, value: '{"type": 12}' }))).toBe(
        'PARAM_INVALID',
      );
      expect(await errorCode(t.service.create(admin, { key: bad, value: 'nope' }))).toBe('PARAM_INVALID');
    });

    it('uses a changed schema at once', async () => {
      await t.service.create(admin, { key: schemaKey, value: { type: 'object', required: ['must'] } });
      expect(await errorCode(t.service.create(alice, { key: instanceKey, value: { senderName: 'x' } }))).toBe(
        'PARAM_INVALID',
      );
    });
  });

  describe('events', () => {
    it('publishes created, changed and deleted with origin and target after commit', async () => {
      await t.service.create(alice, { key: 'global/e', value: '1' });
      await t.service.put(alice, { key: 'global/e', value: '2' });
      await t.service.delete(alice, 'global/e');
      expect(await errorCode(t.service.create(alice, { key: 'user/bob/x', value: '1' }))).toBe('FORBIDDEN');
      await t.events.idle();
      expect(
        t.seen.map((e) => [
          e.eventKey,
          (e.payload as Payload).origin?.value ?? null,
          (e.payload as Payload).target?.value ?? null,
        ]),
      ).toEqual([
        ['property.created', null, '1'],
        ['property.changed', '1', '2'],
        ['property.deleted', '2', null],
      ]);
      expect(t.seen.every((e) => e.actor === 'alice')).toBe(true);
    });

    it('publishes a move as deleted then created', async () => {
      await t.service.create(alice, { key: 'global/m1', value: '1' });
      await t.service.move(alice, 'global/m1', 'global/m2');
      await t.events.idle();
      expect(t.seen.slice(1).map((e) => e.eventKey)).toEqual(['property.deleted', 'property.created']);
    });

    it('deletes expired properties with property.deleted events', async () => {
      await t.service.create(alice, { key: 'global/t1', value: '1', timeToLive: 1 });
      await t.service.create(alice, { key: 'global/t2', value: '1', timeToLive: 2 });
      now += 61_000;
      expect(await t.service.exists(alice, 'global/t1')).toBe(false);
      expect(await t.service.deleteExpired(1)).toBe(1);
      await t.events.idle();
      expect(t.seen.map((e) => e.eventKey)).toEqual([
        'property.created',
        'property.created',
        'property.deleted',
      ]);
      expect(t.seen[2]!.actor).toBeNull();
    });
  });
});
