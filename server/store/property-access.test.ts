import { describe, expect, it } from 'vitest';
import { PropertyAccess } from './property-access';
import { makePrincipal } from './test-fixtures';

const access = new PropertyAccess();
const alice = makePrincipal('alice', { groups: ['g1'], tenants: ['t1'] });
const admin = makePrincipal('root', { admin: true });

describe('PropertyAccess', () => {
  it.each([
    ['global/app/x', true, true],
    ['user/alice/notes', true, true],
    ['user/alice', true, true],
    ['user/bob/notes', false, false],
    ['user/alice2/notes', false, false],
    ['group/g1/doc', true, true],
    ['group/g2/doc', false, false],
    ['tenant/t1/app/a/form/f', true, true],
    ['tenant/t2/app/a/form/f', false, false],
    ['global/app/delivery/form/x', true, false],
    ['global/app/onboarding', true, false],
  ])('alice on %s: read %s, write %s', (key, read, write) => {
    expect(access.canRead(alice, key)).toBe(read);
    expect(access.canWrite(alice, key)).toBe(write);
  });

  it('lets admins read everything and change everything but reserved apps', () => {
    expect(access.canRead(admin, 'user/bob/x')).toBe(true);
    expect(access.canWrite(admin, 'tenant/t9/x')).toBe(true);
    expect(access.canRead(admin, 'global/app/sop/x')).toBe(true);
    expect(access.canWrite(admin, 'global/app/sop/x')).toBe(false);
  });

  it('gives nobody anything without a principal', () => {
    expect(access.canRead(null, 'global/x')).toBe(false);
    expect(access.canWrite(null, 'global/x')).toBe(false);
    expect(access.readScope(null)).toEqual([]);
  });

  it('scopes listings to the folders the principal may read', () => {
    expect(access.readScope(alice)).toEqual(['global', 'user/alice', 'group/g1', 'tenant/t1']);
    expect(access.readScope(admin)).toBe('all');
  });

  it('raises FORBIDDEN naming reserved apps', () => {
    expect(() => access.assertWrite(admin, 'global/app/delivery/x')).toThrow(/reserved/);
    expect(() => access.assertRead(alice, 'user/bob/x')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
  });

  it('lets per-app rules narrow but never widen', () => {
    const ruled = new PropertyAccess({
      appRules: { allows: (_p, app, mode) => (app.name === 'hr' ? mode === 'read' && false : undefined) },
    });
    expect(ruled.canRead(alice, 'global/app/hr/form/f')).toBe(false);
    expect(ruled.canWrite(alice, 'global/app/hr/form/f')).toBe(false);
    expect(ruled.canRead(alice, 'global/app/other/form/f')).toBe(true);
    expect(ruled.canRead(alice, 'user/bob/app/x/y')).toBe(false);
    expect(ruled.canRead(admin, 'global/app/hr/form/f')).toBe(true);
  });
});
