// The PostgreSQL sync bridge on a real throwaway cluster: its answers equal the async store's, `@property`
// reads and writes in real PEL over a PropertyService on PostgreSQL (events included), the same errors as
// on SQLite with nothing written, a time limit when the database stops answering, and a clean close.
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../../shared/auth';
import { PipeworkError } from '../../../../shared/errors';
import { evaluateTemplate } from '../../../../shared/pel';
import type { Property, PropertyQuery } from '../../../../shared/property';
import { EventBus, type PipeworkEvent } from '../../../events/event-bus';
import { runAtEventDepth } from '../../../events/event-context';
import { migrateEventOutbox, outboxEventsAfter, outboxWriter } from '../../../events/postgres-event-outbox';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../../../testing/postgres';
import { PropertyService } from '../../property-service';
import { propertyUtilityFactory } from '../../property-utility';
import { createTestPropertyService, makePrincipal } from '../../test-fixtures';
import { PostgresPropertyStore } from '../postgres-property-store';
import { PostgresSyncBridge } from './postgres-sync-bridge';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL sync bridge tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;
beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

/** Everything a test opened, closed after it (stores close their bridges). */
const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/**
 * A fresh schema of the throwaway cluster, dropped after the test: connection settings (to `url`), a pool
 * (straight to the cluster) and the schema's NOTIFY channel.
 */
async function freshSchema(url = postgres!.url) {
  const schema = await freshTestSchema(postgres!.url, 'bridge');
  opened.push({ close: () => schema.drop() });
  return {
    connection: { ...schema.connection, connectionString: url },
    pool: schema.pool(),
    channel: schema.channel,
  };
}

/** A PostgreSQL store on a fresh schema, offering the synchronous calls through a bridge. */
async function bridgedStore(clock: () => number = Date.now, timeoutMillis = 5_000, url?: string) {
  const { connection, pool } = await freshSchema(url);
  const syncBridge = await PostgresSyncBridge.start({ connection, timeoutMillis });
  const store = await PostgresPropertyStore.open(pool, { clock, syncBridge });
  opened.push(store);
  return { store, bridge: syncBridge, pool };
}

/** The error a call throws, as code and message (or a note when it does not throw). */
function failure(call: () => unknown): { code: string; message: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof PipeworkError) return { code: error.code, message: error.message };
    return { code: `not a PipeworkError: ${String(error)}`, message: '' };
  }
  return { code: 'none', message: 'did not throw' };
}

async function asyncFailure(call: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof PipeworkError) return { code: error.code, message: error.message };
    return { code: `not a PipeworkError: ${String(error)}`, message: '' };
  }
  return { code: 'none', message: 'did not throw' };
}

const admin = makePrincipal('admin', { admin: true });
const withRoles = (p: Principal, roles: string[]): Principal => ({
  ...p,
  roles: new Set([...p.roles, ...roles]),
});
const alice = withRoles(makePrincipal('alice'), ['CAN_PIPE_property.*']);

/** Values that must come back exactly: text, unicode, null, JSON numbers, binary, defaults and a TTL. */
const SAMPLES = [
  { key: 'global/s/plain', value: 'hello' },
  { key: 'global/s/unicode', value: 'Grüße 🚀 𝄞 e\u0301 \u2028 中文 "quoted" \\ back' },
  { key: 'global/s/null', value: null },
  { key: 'global/s/empty', value: '' },
  {
    key: 'global/s/numbers',
    value: '{"big":1.7976931348623157e308,"tiny":5e-324,"neg":-0.1,"int":9007199254740993}',
    type: 'application/json',
  },
  { key: 'global/s/binary', value: 'AAEC/w==', type: 'application/octet-stream' },
  { key: 'global/s/defaulted', value: 'v', defaultValue: { a: [1, 'ü', null, 2.5] } },
  { key: 'global/s/ttl', value: 'soon gone', timeToLive: 1 },
  { key: 'user/bob/secret', value: 'bob only' },
];

describe.skipIf(pgMissing !== undefined)('PostgresSyncBridge', () => {
  it('answers getSync and listSync exactly as the async store, at the store’s clock', async () => {
    let now = Date.now();
    const { store } = await bridgedStore(() => now);
    for (const sample of SAMPLES) await store.save(sample);
    for (let i = 0; i < 300; i++)
      await store.save({ key: `global/many/k${String(i).padStart(3, '0')}`, value: `${i}` });

    for (const { key } of [...SAMPLES, { key: 'global/s/missing' }]) {
      expect(store.getSync!(key), key).toEqual(await store.get(key));
    }
    expect(store.getSync!('global/s/unicode')?.value).toBe(SAMPLES[1]!.value);
    expect(store.getSync!('global/s/missing')).toBeUndefined();

    const everySeventh = (key: string) => Number(key.slice(-3)) % 7 === 0;
    const queries: PropertyQuery[] = [
      { pattern: '**' },
      { pattern: 'global/s/*' },
      { pattern: 'global/many/**', limit: 10 },
      { pattern: '**', scope: ['global/s'] },
      // A filter counts before the limit: 20 of every seventh key needs more than one read across.
      { pattern: 'global/many/*', filter: everySeventh, limit: 20 },
      { pattern: 'global/many/*', filter: everySeventh },
      { pattern: 'global/many/*', filter: () => false, limit: 5 },
    ];
    for (const query of queries) {
      expect(store.listSync!(query), JSON.stringify(query)).toEqual(await store.list(query));
    }
    expect(store.listSync!(queries[4]!)).toHaveLength(20);

    // The bridge reads at the store's clock: once the time to live has passed, both miss the property.
    now += 61_000;
    expect(await store.get('global/s/ttl')).toBeUndefined();
    expect(store.getSync!('global/s/ttl')).toBeUndefined();
    expect(store.listSync!({ pattern: 'global/s/*' })).toEqual(await store.list({ pattern: 'global/s/*' }));
  });

  it('refuses bad keys and patterns with the async store’s errors', async () => {
    const { store } = await bridgedStore();
    expect(failure(() => store.getSync!('global/../x'))).toEqual(
      await asyncFailure(() => store.get('global/../x')),
    );
    expect(failure(() => store.listSync!({ pattern: 'global//**' }))).toEqual(
      await asyncFailure(() => store.list({ pattern: 'global//**' })),
    );
    expect(failure(() => store.getSync!('global/../x')).code).toBe('KEY_INVALID');
  });

  it('writes with updateSync as update does, with its conflict and not-found errors', async () => {
    const { store } = await bridgedStore();
    await store.save({ key: 'global/w/a', value: 'one' });
    const written = store.updateSync!('global/w/a', { value: 'two ✓' }, { expectedVersion: 1, actor: 'ann' });
    expect(written.property).toEqual(await store.get('global/w/a'));
    expect(written.property).toMatchObject({ value: 'two ✓', version: 2 });
    expect(written.changes).toEqual([
      {
        kind: 'changed',
        origin: expect.objectContaining({ value: 'one', version: 1 }),
        target: written.property,
      },
    ]);
    expect(await store.authorOf('global/w/a')).toBe('ann');

    const conflict = failure(() => store.updateSync!('global/w/a', { value: 'x' }, { expectedVersion: 1 }));
    expect(conflict.code).toBe('CONFLICT');
    expect(conflict).toEqual(
      await asyncFailure(() => store.update('global/w/a', { value: 'x' }, { expectedVersion: 1 })),
    );
    expect(await store.get('global/w/a')).toMatchObject({ value: 'two ✓', version: 2 });

    const missing = failure(() => store.updateSync!('global/w/none', { value: 'x' }));
    expect(missing).toEqual(await asyncFailure(() => store.update('global/w/none', { value: 'x' })));
    expect(missing.code).toBe('PROPERTY_NOT_FOUND');
    expect(await store.get('global/w/none')).toBeUndefined();
  });
});

describe.skipIf(pgMissing !== undefined)('@property on PostgreSQL through the bridge', () => {
  /** A PropertyService over the bridged PostgreSQL store, the events it publishes, and `@property` as a principal. */
  async function pelOnPostgres() {
    const { store } = await bridgedStore();
    const events = new EventBus();
    const seen: PipeworkEvent[] = [];
    events.subscribe((e) => void seen.push(e));
    const properties = new PropertyService({ store, events });
    const pel = (who: Principal, template: string) => {
      const { property } = propertyUtilityFactory(who, { properties });
      return evaluateTemplate(
        template,
        { body: null, vars: {}, headers: {} },
        { utilities: { property: property! } },
      );
    };
    return { store, events, seen, properties, pel };
  }

  it('reads with @property.value and writes with @property.updateValue, publishing property.changed', async () => {
    const { properties, pel, events, seen, store } = await pelOnPostgres();
    expect(properties.canWriteSync).toBe(true);
    await properties.create(admin, { key: 'global/app/a/counter', value: 1 });
    await properties.create(admin, { key: 'global/app/a/text', value: 'héllo 👋' });
    await events.idle();
    seen.length = 0;

    expect(pel(alice, "#{@property.value('global/app/a/text')}")).toBe('héllo 👋');
    expect(pel(alice, "#{@property.values('global/app/a/*')}")).toEqual([1, 'héllo 👋']);
    const counter =
      "#{@property.updateValue('global/app/a/counter', @property.value('global/app/a/counter') + 1)}";
    expect(pel(alice, counter)).toBe(2);
    expect(pel(alice, counter)).toBe(3);
    expect(await store.get('global/app/a/counter')).toMatchObject({
      value: '3',
      type: 'application/json',
      version: 3,
    });
    expect(await store.authorOf('global/app/a/counter')).toBe('alice');

    await events.idle();
    expect(seen.map((e) => [e.eventKey, e.actor, (e.payload as { target: Property }).target.value])).toEqual([
      ['property.changed', 'alice', '2'],
      ['property.changed', 'alice', '3'],
    ]);
  });

  it('refuses a write the caller may not make and a stale version as SQLite does, writing nothing', async () => {
    const { properties, pel, store, events, seen } = await pelOnPostgres();
    const sqlite = createTestPropertyService();
    opened.push(sqlite);
    for (const service of [properties, sqlite.service]) {
      await service.create(admin, { key: 'user/bob/secret', value: 'bob only' });
      await service.create(admin, { key: 'global/app/a/v', value: 'first' });
    }
    await events.idle();
    seen.length = 0;

    const refusedHere = failure(() =>
      pel(alice, "#{@property.updateValue('user/bob/secret', 'alice was here')}"),
    );
    const sqlitePel = (template: string) => {
      const { property } = propertyUtilityFactory(alice, { properties: sqlite.service });
      return evaluateTemplate(
        template,
        { body: null, vars: {}, headers: {} },
        { utilities: { property: property! } },
      );
    };
    expect(refusedHere.code).toBe('FORBIDDEN');
    expect(refusedHere).toEqual(
      failure(() => sqlitePel("#{@property.updateValue('user/bob/secret', 'alice was here')}")),
    );

    const stale = failure(() =>
      properties.putSync(alice, { key: 'global/app/a/v', value: 'second', version: 7 }),
    );
    expect(stale.code).toBe('CONFLICT');
    expect(stale).toEqual(
      failure(() => sqlite.service.putSync(alice, { key: 'global/app/a/v', value: 'second', version: 7 })),
    );

    expect(await store.get('user/bob/secret')).toMatchObject({ value: 'bob only', version: 1 });
    expect(await store.get('global/app/a/v')).toMatchObject({ value: 'first', version: 1 });
    await events.idle();
    expect(seen).toEqual([]);
  });
});

describe.skipIf(pgMissing !== undefined)('@property.updateValue with the event outbox', () => {
  it('records the write’s events in the outbox, in its transaction, at the caller’s depth, once', async () => {
    const { connection, pool, channel } = await freshSchema();
    await migrateEventOutbox(pool);
    const syncBridge = await PostgresSyncBridge.start({ connection, outbox: { channel } });
    const beforeCommit = outboxWriter({ channel });
    const store = await PostgresPropertyStore.open(pool, { syncBridge, beforeCommit });
    opened.push(store);
    const events = new EventBus();
    const published: PipeworkEvent[] = [];
    events.subscribe((e) => void published.push(e));
    const properties = new PropertyService({ store, events, eventsFromStore: true });
    await properties.create(admin, { key: 'global/app/a/n', value: 1 });
    await properties.create(admin, { key: 'user/bob/secret', value: 'bob only' });
    const head = (await outboxEventsAfter(pool, 0, 100)).at(-1)!.id;

    const { property } = propertyUtilityFactory(alice, { properties });
    const scope = { body: null, vars: {}, headers: {} };
    const written = runAtEventDepth(2, () =>
      evaluateTemplate("#{@property.updateValue('global/app/a/n', 41 + 1)}", scope, {
        utilities: { property: property! },
      }),
    );
    expect(written).toBe(42);
    const refused = failure(() =>
      evaluateTemplate("#{@property.updateValue('user/bob/secret', 'x')}", scope, {
        utilities: { property: property! },
      }),
    );
    expect(refused.code).toBe('FORBIDDEN');
    await properties.put(alice, { key: 'global/app/a/n', value: 43 });

    const recorded = await outboxEventsAfter(pool, head, 100);
    expect(recorded.map((e) => [e.eventKey, e.actor, e.depth])).toEqual([
      ['property.changed', 'alice', 2],
      ['property.changed', 'alice', 0],
    ]);
    const [bridged, direct] = recorded.map((e) => e.payload as { origin: Property; target: Property });
    expect(bridged!.target).toEqual(direct!.origin);
    expect(bridged!.origin).toMatchObject({ value: '1', version: 1 });
    expect(bridged!.target).toMatchObject({ value: '42', version: 2 });
    await events.idle();
    expect(published).toEqual([]);
  });
});

/**
 * A TCP relay to the cluster that can stop answering (bytes held, connections kept open: a hung network)
 * or close (its port refuses, as a stopped database does). It runs in a thread of its own: the test's
 * thread is blocked while a bridged call waits.
 */
const RELAY = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const sockets = new Set();
let hung = false;
const server = net.createServer((client) => {
  const upstream = net.connect(workerData.port, '127.0.0.1');
  for (const [from, to] of [[client, upstream], [upstream, client]]) {
    sockets.add(from);
    from.on('data', (chunk) => { if (!hung) to.write(chunk); });
    from.on('error', () => undefined);
    from.on('close', () => to.destroy());
  }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', (command) => {
  if (command === 'hang') hung = true;
  if (command === 'resume') hung = false;
  if (command === 'close') {
    for (const socket of sockets) socket.destroy();
    server.close(() => process.exit(0));
  }
  parentPort.postMessage(command);
});`;

async function startRelay(
  port: number,
): Promise<{ url: string; hang(): Promise<void>; resume(): Promise<void>; close(): Promise<void> }> {
  const relay = new Worker(RELAY, { eval: true, workerData: { port } });
  const next = () => new Promise<unknown>((resolve) => relay.once('message', resolve));
  const relayPort = await next();
  let closed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${relayPort}/postgres`,
    hang: async () => {
      relay.postMessage('hang');
      await next();
    },
    /** New connections work again (those that hung have lost bytes for good). */
    resume: async () => {
      relay.postMessage('resume');
      await next();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      const exited = new Promise((resolve) => relay.once('exit', resolve));
      relay.postMessage('close');
      await exited;
    },
  };
}

describe.skipIf(pgMissing !== undefined)('PostgresSyncBridge when the database stops answering', () => {
  it('fails a call with UPSTREAM_FAILED at its time limit when the database hangs, then recovers', async () => {
    const relay = await startRelay(postgres!.port);
    opened.push(relay);
    const { store } = await bridgedStore(Date.now, 1_500, relay.url);
    await store.save({ key: 'global/t/a', value: 'a' });
    expect(store.getSync!('global/t/a')?.value).toBe('a');

    await relay.hang();
    const started = performance.now();
    const timedOut = failure(() => store.getSync!('global/t/a'));
    const waited = performance.now() - started;
    expect(timedOut.code).toBe('UPSTREAM_FAILED');
    expect(timedOut.message).toMatch(/did not answer getSync\('global\/t\/a'\) within 1500 ms/);
    expect(waited).toBeGreaterThanOrEqual(1_490);
    expect(waited).toBeLessThan(2_500);

    // The hung worker was replaced: once the network answers again, so does the bridge.
    await relay.resume();
    expect(store.getSync!('global/t/a')?.value).toBe('a');
    expect(store.updateSync!('global/t/a', { value: 'b' }).property).toMatchObject({
      value: 'b',
      version: 2,
    });
  });

  it('fails a call with UPSTREAM_FAILED when the database is gone, within the limit', async () => {
    const relay = await startRelay(postgres!.port);
    opened.push(relay);
    // A limit far above the time the lost connection takes to show, even on a loaded machine: the failure
    // must be the connection's ("failed during"), never the limit's ("did not answer").
    const limit = 8_000;
    const { store } = await bridgedStore(Date.now, limit, relay.url);
    await store.save({ key: 'global/t/b', value: 'b' });
    expect(store.getSync!('global/t/b')?.value).toBe('b');

    await relay.close();
    const started = performance.now();
    const gone = failure(() => store.updateSync!('global/t/b', { value: 'c' }));
    expect(gone.code).toBe('UPSTREAM_FAILED');
    expect(gone.message).toMatch(/PostgreSQL failed during updateSync\('global\/t\/b'\)/);
    expect(performance.now() - started).toBeLessThan(limit);
    // Again, on a fresh worker that cannot open its store either: the same kind of error, not a hang.
    const again = performance.now();
    expect(failure(() => store.getSync!('global/t/b')).code).toBe('UPSTREAM_FAILED');
    expect(performance.now() - again).toBeLessThan(limit);
  });

  it('does not start against a closed port, with UPSTREAM_FAILED', async () => {
    const relay = await startRelay(postgres!.port);
    await relay.close();
    const started = performance.now();
    const refused = await asyncFailure(() =>
      PostgresSyncBridge.start({ connection: { connectionString: relay.url }, timeoutMillis: 1_000 }),
    );
    expect(refused.code).toBe('UPSTREAM_FAILED');
    expect(refused.message).toMatch(/ECONNREFUSED/);
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe.skipIf(pgMissing !== undefined)('PostgresSyncBridge.close', () => {
  it('ends the worker’s pool and the worker; later calls fail at once', async () => {
    const { connection } = await freshSchema();
    const bridge = await PostgresSyncBridge.start({ connection });
    expect(bridge.getSync('global/c/none')).toBeUndefined();
    const bridgeConnections = async () => {
      const probe = new pg.Client(postgres!.url);
      await probe.connect();
      const { rows } = await probe.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'pipework-sync-bridge'",
      );
      await probe.end();
      return rows[0]!.n;
    };
    expect(await bridgeConnections()).toBeGreaterThan(0);
    await bridge.close();
    // The server drops a backend from pg_stat_activity a moment after its client hangs up.
    for (let i = 0; i < 50 && (await bridgeConnections()) > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await bridgeConnections()).toBe(0);
    expect(() => bridge.getSync('global/c/none')).toThrow(/closed/);
    await bridge.close();
  });
});
