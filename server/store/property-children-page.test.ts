// property.keys.children.page's rules on both databases: pages add up to what the reader may see of a level
// (PropertyService.children), inside their folders through the store's pages, above them through the listing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth';
import type { AppFolder } from '../../shared/property';
import { EventBus } from '../events/event-bus';
import { PropertyAccess } from './property-access';
import { childrenPage } from './property-children-page';
import { PropertyService } from './property-service';
import { allChildrenPages } from './property-store-contract-support';
import { errorCode, makePrincipal } from './test-fixtures';
import { testStoresOnBothDatabases, type TestStore } from './test-stores';

const databases = testStoresOnBothDatabases('children');

describe.each(databases)('children pages on %s', (_name, open) => {
  let opened: TestStore;
  let service: PropertyService;
  const admin = makePrincipal('admin', { admin: true });
  const ann = makePrincipal('ann');

  beforeAll(async () => {
    opened = await open();
    // The app `secret` is closed to everyone but admins.
    const appRules = {
      allows: (p: Principal, app: AppFolder) => app.name !== 'secret' || p.uuid === 'admin',
    };
    service = new PropertyService({
      store: opened.store,
      events: new EventBus(),
      access: new PropertyAccess({ appRules }),
    });
    const keys = [
      'global/t/a',
      'global/t/a/x',
      'global/t/a-1',
      'global/t/a.b/c',
      'global/t/b',
      'global/app/open/config',
      'global/app/secret/config',
      'user/ann/notes',
      'user/ann/drafts/one',
      'user/ben/notes',
    ];
    for (const key of keys) await service.create(admin, { key, value: 'v' });
  });
  afterAll(() => opened.dispose());

  /** Every page of a level, following `next`. */
  const allPages = (principal: Principal, pattern: string, limit: number) =>
    allChildrenPages((after) => childrenPage(service, principal, pattern, after, limit), limit);

  it.each([1, 2, 5])('pages of %i add up to what the reader sees of each level', async (limit) => {
    for (const [principal, pattern] of [
      [admin, 'global/t/'],
      [admin, ''],
      [ann, ''],
      [ann, 'user'],
      [ann, 'user/ann'],
      [ann, 'global/app'],
    ] as const) {
      const whole = await service.children(principal, pattern);
      expect((await allPages(principal, pattern, limit)).flat()).toEqual(whole);
    }
  });

  it('shows a reader their own folder and the apps they may read, and inside them everything', async () => {
    expect((await allPages(ann, 'global/app', 1)).flat()).toEqual(['global/app/open/']);
    expect((await allPages(admin, 'global/app', 1)).flat()).toEqual([
      'global/app/open/',
      'global/app/secret/',
    ]);
    expect((await allPages(ann, 'user', 10)).flat()).toEqual(['user/ann/']);
    expect((await allPages(ann, 'user/ann', 1)).flat()).toEqual(['user/ann/drafts/', 'user/ann/notes']);
    expect((await allPages(admin, 'user', 1)).flat()).toEqual(['user/ann/', 'user/ben/']);
    expect((await allPages(admin, 'global/t', 100)).flat()).toEqual([
      'global/t/a',
      'global/t/a-1',
      'global/t/a.b/',
      'global/t/a/',
      'global/t/b',
    ]);
  });

  it('refuses a cursor that is not an entry of the listed folder', async () => {
    for (const after of ['global/u/a', 'global/t/', 'global/t/a/x']) {
      expect(await errorCode(childrenPage(service, admin, 'global/t', after, 10))).toBe('PARAM_INVALID');
    }
  });
});
