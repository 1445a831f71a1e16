// property.query on SQLite (a file, so through the read-only worker) and on PostgreSQL: the guide's
// examples, the caller's folders and app rules applied in SQL, and hostile queries refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../events/event-bus';
import { PropertyAccess } from '../property-access';
import { PropertyService } from '../property-service';
import { errorCode, makePrincipal } from '../test-fixtures';
import { testStoresOnBothDatabases, type TestStore } from '../test-stores';
import { PropertyQueryService } from './property-query';

const databases = testStoresOnBothDatabases('query');

const admin = makePrincipal('admin-1', { admin: true });
const ann = makePrincipal('ann');

describe.each(databases)('property.query on %s', (_name, factory) => {
  let subject: TestStore;
  let q: PropertyQueryService;
  const query = (input: Parameters<PropertyQueryService['query']>[1], who = admin) => q.query(who, input);

  beforeAll(async () => {
    subject = await factory();
    const service = new PropertyService({
      store: subject.store,
      events: new EventBus(),
      access: new PropertyAccess({
        appRules: { allows: (_p, app, _mode) => (app.name === 'closed' ? false : undefined) },
      }),
    });
    q = new PropertyQueryService(service);
    const json = (key: string, value: unknown) =>
      subject.store.save({ key, value: JSON.stringify(value), type: 'application/json' });
    await json('global/app/myapp/data/customer/2', {
      uuid: 2,
      firstName: 'Max',
      lastName: 'Meyers',
      addressUuid: 12,
    });
    await json('global/app/myapp/data/customer/5', {
      uuid: 5,
      firstName: 'Angelika',
      lastName: 'Mertens',
      addressUuid: 19,
    });
    await json('global/app/myapp/data/address/12', { uuid: 12, street: 'Lincoln Blvd', city: 'Los Angeles' });
    await json('global/app/myapp/data/address/19', { uuid: 19, street: '3 Time Square', city: 'New York' });
    await json('global/app/myapp/data/customer/5/note', { title: 'nested, not a customer' });
    await json('global/app/closed/data/secret', { title: 'Admin only by app rule' });
    await json('user/bob/private', { title: 'Admin secret of bob' });
    await json('user/ann/mine', { title: 'Admin notes of ann', hobbies: ['books', 'bikes'] });
    await subject.store.save({ key: 'global/app/myapp/readme', value: 'plain text' });
  }, 60_000);
  afterAll(async () => subject.dispose());

  it("runs the guide's examples: values, attributes, count, ->, ->>, #>, ?, LIKE, ORDER BY", async () => {
    expect(await query({ select: 'count(*)', from: 'global/app/myapp/data/customer/*' })).toEqual([2]);
    expect(
      await query({ select: "value::json -> 'firstName'", from: 'global/app/myapp/data/customer/*' }),
    ).toEqual(['Max', 'Angelika']);
    expect(
      await query({
        select: 'value::json',
        from: 'global/app/myapp/data/customer/*',
        where: "value::json ->> 'lastName' = 'Meyers'",
      }),
    ).toEqual([{ uuid: 2, firstName: 'Max', lastName: 'Meyers', addressUuid: 12 }]);
    expect(
      await query({
        select: "value::json ->> 'firstName'",
        from: 'global/app/myapp/data/customer/*',
        where: "value::json ->> 'firstName' IS NOT NULL ORDER BY value::json ->> 'firstName' ASC",
      }),
    ).toEqual(['Angelika', 'Max']);
    expect(
      await query({
        select: "key, value::json ->> 'city'",
        from: 'global/app/myapp/data/address/*',
        where: "value::json ->> 'city' LIKE 'New%'",
      }),
    ).toEqual([['global/app/myapp/data/address/19', 'New York']]);
    expect(
      await query({
        select: "value::jsonb #> '{hobbies, 1}'",
        from: 'user/ann/*',
        where: "value::jsonb ? 'hobbies'",
      }),
    ).toEqual(['bikes']);
    const all = (await query({ from: 'global/app/myapp/**', type: '*' })) as { key: string }[];
    expect(all.map((p) => p.key)).toContain('global/app/myapp/readme');
    expect(all.map((p) => p.key)).toContain('global/app/myapp/data/customer/5/note');
  });

  it('joins patterns, merges with jsonb_set and binds :params', async () => {
    const joined = await query({
      select: "jsonb_set(customer.value::jsonb, '{currentAddress}', address.value::jsonb)",
      from: 'global/app/myapp/data/customer/* as customer, global/app/myapp/data/address/* as address',
      where:
        "customer.value::json ->> 'addressUuid' = address.value::json ->> 'uuid' AND address.value::json ->> 'city' = :city",
      params: { city: 'New York' },
    });
    expect(joined).toEqual([
      {
        uuid: 5,
        firstName: 'Angelika',
        lastName: 'Mertens',
        addressUuid: 19,
        currentAddress: { uuid: 19, street: '3 Time Square', city: 'New York' },
      },
    ]);
    const injected = await query({
      select: 'key',
      from: 'global/app/myapp/data/customer/*',
      where: "value::json ->> 'lastName' = :name",
      params: { name: "x' OR '1'='1" },
    });
    expect(injected).toEqual([]);
  });

  it("returns nothing of another user's folder or of an app whose rules deny the caller", async () => {
    expect(await query({ select: 'key', from: 'user/bob/**' }, ann)).toEqual([]);
    expect(await query({ select: 'key', from: '**', where: 'ORDER BY key' }, ann)).toEqual([
      'global/app/myapp/data/address/12',
      'global/app/myapp/data/address/19',
      'global/app/myapp/data/customer/2',
      'global/app/myapp/data/customer/5',
      'global/app/myapp/data/customer/5/note',
      'user/ann/mine',
    ]);
    expect(
      await query(
        { select: 'count(*)', from: 'global/**', where: "value::json ->> 'title' LIKE 'Admin%'" },
        ann,
      ),
    ).toEqual([0]);
    expect(
      await query({ select: 'count(*)', from: '**', where: "value::json ->> 'title' LIKE 'Admin%'" }),
    ).toEqual([3]);
  });

  it('refuses a second statement, another table, a subselect, a function outside the allowlist and other attributes', async () => {
    const refusedWith = async (input: Parameters<PropertyQueryService['query']>[1]) => {
      try {
        await query(input);
        return 'resolved';
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
    };
    const from = 'global/**';
    expect(await refusedWith({ select: 'key', from, where: '1 = 1; DROP TABLE property' })).toMatch(
      /^PARAM_INVALID: property.query runs one SELECT/,
    );
    expect(
      await refusedWith({ select: 'key', from, where: 'key IN (SELECT username FROM iam_user)' }),
    ).toMatch(/^PARAM_INVALID: Subqueries are not allowed/);
    expect(await refusedWith({ select: '(SELECT count(*) FROM iam_user)', from })).toMatch(/^PARAM_INVALID/);
    expect(await refusedWith({ select: 'key FROM iam_user --', from })).toMatch(/^PARAM_INVALID/);
    expect(await refusedWith({ select: 'pg_sleep(10)', from })).toMatch(
      /^PARAM_INVALID: The function pg_sleep\(\) is not allowed/,
    );
    expect(await refusedWith({ select: 'author', from })).toMatch(
      /^PARAM_INVALID: 'author' is not a property attribute/,
    );
    expect(await refusedWith({ select: 'key', from, where: 'key = :missing' })).toMatch(/:missing/);
    expect(await refusedWith({ select: 'key', from: 'global/** as a; DROP' })).toMatch(
      /^PARAM_INVALID|^KEY_INVALID/,
    );
    expect(await errorCode(query({ select: 'key', from, limit: 1_000_000 }))).toBe('LIMIT_EXCEEDED');
    // The data is still there.
    expect(await query({ select: 'count(*)', from: 'global/app/myapp/data/customer/*' })).toEqual([2]);
  });

  it('pages with limit and offset', async () => {
    const page = (offset: number) =>
      query({ select: 'key', from: 'global/app/myapp/data/*/*', limit: 2, offset, where: 'ORDER BY key' });
    expect([...(await page(0)), ...(await page(2))]).toEqual([
      'global/app/myapp/data/address/12',
      'global/app/myapp/data/address/19',
      'global/app/myapp/data/customer/2',
      'global/app/myapp/data/customer/5',
    ]);
  });
});
