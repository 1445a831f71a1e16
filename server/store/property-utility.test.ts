import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { BinaryContent } from '../../shared/values';
import { PropertyService } from './property-service';
import { createPropertyUtility } from './property-utility';
import {
  createTestPropertyService,
  errorCode,
  makePrincipal,
  type TestPropertyService,
} from './test-fixtures';

const admin = makePrincipal('admin', { admin: true });
/** Alice holds the property commands' permissions, as ROLE_USER grants them; the folder rules still apply. */
const alice = withRoles(makePrincipal('alice'), ['CAN_PIPE_property.*']);
/** Carol may read folders as Alice may, but lacks the commands' permissions: she reads nothing either. */
const carol = makePrincipal('carol');

function withRoles(principal: Principal, roles: string[]): Principal {
  return { ...principal, roles: new Set([...principal.roles, ...roles]) };
}

describe('@property', () => {
  let t: TestPropertyService;
  beforeEach(async () => {
    t = createTestPropertyService();
    await t.service.create(admin, {
      key: 'global/app/a/config/app',
      value: { recipient: 'x@example.com', deep: { n: 1 } },
    });
    await t.service.create(admin, { key: 'global/app/a/text', value: 'hello' });
    await t.service.create(admin, {
      key: 'global/app/a/file',
      value: new Uint8Array([1, 2]),
      type: 'application/pdf',
    });
    await t.service.create(admin, { key: 'user/bob/secret', value: 'bob only' });
  });
  afterEach(() => t.close());
  const utility = (who = alice) => createPropertyUtility(t.store, t.service.access, who);

  it('reads values, fields, whole properties and lists', () => {
    const p = utility();
    expect(p.value!('global/app/a/config/app')).toEqual({ recipient: 'x@example.com', deep: { n: 1 } });
    expect(p.value!('global/app/a/config/app#deep.n')).toBe(1);
    expect(p.lazy!('global/app/a/config/app#recipient')).toBe('x@example.com');
    expect(p.value!('global/app/a/text')).toBe('hello');
    expect(p.value!('global/app/a/file')).toBeInstanceOf(BinaryContent);
    expect(p.get!('global/app/a/text')).toMatchObject({ key: 'global/app/a/text', version: 1 });
    expect(p.values!('global/app/a/*')).toEqual([
      new BinaryContent(new Uint8Array([1, 2]), 'application/pdf'),
      'hello',
    ]);
    expect(p.exists!('global/app/a/text')).toBe(true);
  });

  it('answers like a missing key for what the principal may not read', () => {
    const p = utility();
    expect(p.lazy!('user/bob/secret')).toBeNull();
    expect(p.get!('user/bob/secret')).toBeNull();
    expect(p.exists!('user/bob/secret')).toBe(false);
    expect(p.values!('user/**')).toEqual([]);
    expect(utility(admin).values!('user/**')).toEqual(['bob only']);
  });

  it('reads nothing for a principal without the property commands’ permissions', () => {
    const p = utility(carol);
    expect(p.lazy!('global/app/a/text')).toBeNull();
    expect(p.exists!('global/app/a/text')).toBe(false);
    expect(p.get!('global/app/a/text')).toBeNull();
    expect(p.values!('global/app/a/*')).toEqual([]);
    expect(() => p.value!('global/app/a/text')).toThrow(/no property/);
  });

  it('writes through the service as property.put, and refuses what put refuses', async () => {
    const write = createPropertyUtility(t.store, t.service.access, alice, t.service);
    expect(write.updateValue!('global/app/a/text', 'hi')).toBe('hi');
    expect(t.store.getSync('global/app/a/text')).toMatchObject({ value: 'hi', version: 2 });
    expect(await errorCode(() => write.updateValue!('user/bob/secret', 'x'))).toBe('FORBIDDEN');
    expect(await errorCode(() => write.updateValue!('global/app/a/none', 'x'))).toBe('PROPERTY_NOT_FOUND');
    const carolWrites = createPropertyUtility(t.store, t.service.access, carol, t.service);
    expect(await errorCode(() => carolWrites.updateValue!('global/app/a/text', 'x'))).toBe('FORBIDDEN');
    expect(t.store.getSync('global/app/a/text')).toMatchObject({ value: 'hi', version: 2 });
    expect(t.store.getSync('user/bob/secret')).toMatchObject({ value: 'bob only', version: 1 });
  });

  it('keeps put’s size limit, and cannot write without a writer', async () => {
    const small = new PropertyService({ store: t.store, events: t.events, maxValueLength: 8 });
    const write = createPropertyUtility(t.store, small.access, alice, small);
    expect(await errorCode(() => write.updateValue!('global/app/a/text', 'nine char'))).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    expect(write.updateValue!('global/app/a/text', 'eight ch')).toBe('eight ch');
    expect(() => utility().updateValue!('global/app/a/text', 'x')).toThrow(/cannot write/);
    expect(t.store.getSync('global/app/a/text')?.value).toBe('eight ch');
  });

  it('refuses hostile keys', async () => {
    expect(await errorCode(() => utility().get!('global/../user/bob/secret'))).toBe('KEY_INVALID');
    expect(await errorCode(() => utility().values!('global//**'))).toBe('KEY_INVALID');
  });
});
