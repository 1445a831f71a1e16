// The `@user` PEL utility, function by function.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import { createUserUtility } from './user-utility';

const ann: Principal = {
  uuid: 'u-1',
  username: 'ann',
  displayName: 'Ann Smith',
  email: 'ann@example.com',
  roles: new Set(['ROLE_USER', 'CAN_PIPE_property.*']),
  groups: new Set(['g-1']),
  tenants: new Set(['t-1']),
};

describe('@user', () => {
  it.each<[string, unknown[], Principal | null, unknown]>([
    ['username', [], ann, 'ann'],
    ['uuid', [], ann, 'u-1'],
    ['displayName', [], ann, 'Ann Smith'],
    ['email', [], ann, 'ann@example.com'],
    ['emailAndDisplayName', [], ann, 'Ann Smith <ann@example.com>'],
    ['emailAndDisplayName', [], { ...ann, email: undefined }, 'Ann Smith'],
    ['hasRole', ['ROLE_USER'], ann, true],
    ['hasRole', ['ROLE_ADMIN'], ann, false],
    ['hasPermission', ['CAN_PIPE_property.list'], ann, true],
    ['isAdmin', [], ann, false],
    ['roles', [], ann, ['CAN_PIPE_property.*', 'ROLE_USER']],
    ['groups', [], ann, ['g-1']],
    ['tenants', [], ann, ['t-1']],
    ['actingUsername', [], { ...ann, actingUsername: 'admin' }, 'admin'],
    ['actingUsername', [], ann, 'ann'],
    ['username', [], null, null],
    ['hasRole', ['ROLE_USER'], null, false],
    ['roles', [], null, []],
  ])('%s(%j)', (fn, args, principal, expected) => {
    expect(createUserUtility(principal)[fn]!(...args)).toEqual(expected);
  });

  it('is frozen and exposes only functions', () => {
    const utility = createUserUtility(ann);
    expect(Object.isFrozen(utility)).toBe(true);
    expect(Object.values(utility).every((v) => typeof v === 'function')).toBe(true);
  });
});
