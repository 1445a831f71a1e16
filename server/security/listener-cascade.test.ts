/**
 * Finding 6: a listener that writes properties matching its own filter multiplied one write into tens of
 * thousands (fan-out 30: 27,931). Every listener run caused by one originating write now shares one budget
 * (levels and runs in all, `server/events/cascade-budget.ts`); past it further runs are refused and logged with
 * the catalogued code and the listener's key. On PostgreSQL the cascade travels through the event outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger';
import { http } from '../testing/http-client';
import { eventually } from '../testing/eventually';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../testing/postgres';
import { startTestServer, type TestServer } from '../testing/test-server';

const FAN_OUT = 4;
const MAX_RUNS = 6;
const LISTENER = 'global/app/boom/pipeline/spread';

/** A listener that writes FAN_OUT properties matching its own filter for every property created there. */
const SPREADING_LISTENER = `vars:
  from: "#{body.target.uuid}"
pipeline:
  - event.listen:
      key: property.created
      filter: "#{body.target.key.startsWith('global/boom/')}"
${Array.from(
  { length: FAN_OUT },
  (_, i) => `  - property.schema.put:
      key: "global/boom/#{vars.from}-${i}"
      value: x
`,
).join('')}`;

function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('debug', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

async function call(server: TestServer, command: string, query: string, body?: string) {
  return http(server.url, `/api/v3/command/${command}?${query}`, {
    auth: server.adminAuth,
    ...(body === undefined ? {} : { type: 'application/yaml', body }),
  });
}

async function boomKeys(server: TestServer): Promise<string[]> {
  return (await call(server, 'property.keys', 'pattern=global/boom/**')).json as string[];
}

/** The number of keys once it has stopped changing for a while (listeners run after the write answered). */
async function settledCount(server: TestServer, below: string): Promise<number> {
  let last = -1;
  let stableSince = Date.now();
  return eventually(
    async () => {
      await server.services.events.idle();
      const count = (await boomKeys(server)).filter((k) => k.startsWith(below)).length;
      if (count !== last) {
        last = count;
        stableSince = Date.now();
        return undefined;
      }
      return Date.now() - stableSince > 700 ? count : undefined;
    },
    { within: 30_000, every: 50, what: 'the cascade to settle' },
  );
}

/** The refusals logged as errors, once there are `count` of them (a moment after the writes, on PostgreSQL). */
async function refusalsLogged(lines: Record<string, unknown>[], count: number) {
  const refusals = () => lines.filter((l) => l.limit === 'cascade-runs' && l.level === 50);
  await eventually(async () => (refusals().length >= count ? true : undefined), {
    within: 10_000,
    every: 20,
    what: `${count} refusals logged`,
  }).catch(() => undefined);
  return refusals();
}

function cascadeSuite(name: string, env: () => Record<string, string>) {
  describe(name, () => {
    let server: TestServer;
    const { logger, lines } = logCollector();
    beforeAll(async () => {
      server = await startTestServer({
        logger,
        env: { PIPEWORK_EVENT_CASCADE_RUNS: String(MAX_RUNS), ...env() },
      });
      const stored = await call(
        server,
        'property.schema.put',
        `key=${LISTENER}&type=application/yaml;type=pipeline`,
        SPREADING_LISTENER,
      );
      expect(stored.status, stored.text).toBe(200);
    }, 60_000);
    afterAll(() => server?.close());

    it('stops a self-feeding listener at the run budget of the write that started it, and logs why', async () => {
      const start = await call(server, 'property.schema.put', 'key=global/boom/one&value=go');
      expect(start.status, start.text).toBe(200);
      // Without the budget: 1 + 4 + 16 runs (the depth limit alone) wrote 84 properties; now 6 runs write 24.
      const count = await settledCount(server, 'global/boom/');
      expect(count).toBe(1 + MAX_RUNS * FAN_OUT);
      const refusals = await refusalsLogged(lines, 1);
      expect(refusals).toHaveLength(1); // once per cascade as an error; the other refusals are debug lines
      expect(refusals[0]).toMatchObject({ code: 'LIMIT_EXCEEDED', pipeline: LISTENER, maxRuns: MAX_RUNS });
      expect(String(refusals[0]!.msg)).toContain(LISTENER);
    }, 60_000);

    it('gives every originating write a budget of its own', async () => {
      const before = (await boomKeys(server)).length;
      await call(server, 'property.schema.put', 'key=global/boom/two&value=go');
      expect((await settledCount(server, 'global/boom/')) - before).toBe(1 + MAX_RUNS * FAN_OUT);
      expect(await refusalsLogged(lines, 2)).toHaveLength(2);
    }, 60_000);
  });
}

cascadeSuite('on SQLite', () => ({}));

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL cascade tests skipped: ${pgMissing}`);
let postgres: TestPostgres | undefined;
describe.skipIf(pgMissing !== undefined)('through the PostgreSQL outbox', () => {
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());
  cascadeSuite('on PostgreSQL', () => ({ PIPEWORK_DATABASE_URL: postgres!.url }));
});
