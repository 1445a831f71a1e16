import { describe, expect, it } from 'vitest';
import { boundByAuthor } from '../../shared/auth';
import { PropertyAccess } from './property-access';
import { makePrincipal } from './test-fixtures';

const access = new PropertyAccess();
const alice = makePrincipal('alice', { groups: ['g1'], tenants: ['t1'] });
const admin = makePrincipal('root', { admin: true });
const dev = makePrincipal('dev', { developer: true, groups: ['g1'] });

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

  it.each([
    ['global/app/x/pipeline/p', false, true, true],
    ['global/app/x/script/s', false, true, true],
    ['global/app/x/test/t', false, true, true],
    ['global/app/x/workflow/w', false, true, true],
    ['global/app/x/pipeline', false, true, true],
    ['global/app/x/form/f', true, true, true],
    ['global/pipeline/p', true, true, true],
    ['group/g1/app/x/pipeline/p', false, true, true],
    ['tenant/t1/app/x/script/s', false, false, true],
    ['user/alice/app/mine/pipeline/p', true, false, true],
  ])('stores code at %s: alice %s, a developer %s, an admin %s', (key, byAlice, byDev, byAdmin) => {
    expect(access.canWrite(alice, key)).toBe(byAlice);
    expect(access.canWrite(dev, key)).toBe(byDev);
    expect(access.canWrite(admin, key)).toBe(byAdmin);
    expect(access.canRead(alice, key)).toBe(!key.startsWith('user/') || key.startsWith('user/alice/'));
  });

  it("lets holders of an app's own role store code in that app only, and says why others may not", () => {
    const ruled = new PropertyAccess({
      appRules: { allows: () => undefined, mayStoreCode: (_p, app) => app.name === 'crm' },
    });
    expect(ruled.canWrite(alice, 'global/app/crm/pipeline/p')).toBe(true);
    expect(ruled.canWrite(alice, 'global/app/hr/pipeline/p')).toBe(false);
    expect(() => access.assertWrite(alice, 'global/app/hr/test/t')).toThrow(/developers, admins or the app/);
  });

  it("bounds a run of someone else's code by both: the caller's identity, only the rights both hold, no code stored", () => {
    const asAlice = boundByAuthor(admin, alice);
    expect(asAlice.uuid).toBe('root');
    expect(asAlice.roles.has('ROLE_ADMIN')).toBe(false);
    // Neither the admin's own folder nor another user's: the author could read neither.
    expect(access.canRead(asAlice, 'user/root/secret')).toBe(false);
    expect(access.canRead(asAlice, 'user/bob/x')).toBe(false);
    // The run is the admin's (its identity), no longer an admin's: the author's own folder is not its either.
    expect(access.canRead(asAlice, 'user/alice/x')).toBe(false);
    expect(access.canWrite(asAlice, 'global/x')).toBe(true);
    // A developer's helper run by an admin: it may not store code that would later run as the admin.
    const asDev = boundByAuthor(admin, dev);
    expect(access.canWrite(dev, 'global/app/x/pipeline/p')).toBe(true);
    expect(access.canWrite(asDev, 'global/app/x/pipeline/p')).toBe(false);
    // Listings are filtered key by key for such a run.
    expect(access.needsFilter(asDev)).toBe(true);
    expect(access.readFilter(asAlice)('user/root/secret')).toBe(false);
    // The caller's own code is the caller, unchanged.
    expect(boundByAuthor(alice, makePrincipal('alice'))).toBe(alice);
    // Rights only shrink: a user calling an admin's helper keeps the user's rights.
    const adminsHelper = boundByAuthor(alice, admin);
    expect(adminsHelper.roles).toEqual(alice.roles);
    expect(access.canRead(adminsHelper, 'user/bob/x')).toBe(false);
  });
});
