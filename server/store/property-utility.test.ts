import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { BinaryContent } from '../../shared/values';
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

  it('refuses hostile keys', async () => {
    expect(await errorCode(() => utility().get!('global/../user/bob/secret'))).toBe('KEY_INVALID');
    expect(await errorCode(() => utility().values!('global//**'))).toBe('KEY_INVALID');
  });
});
