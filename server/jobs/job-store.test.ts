// The job tables on a real PostgreSQL, shared by two instances (two pools): each tick is claimed by exactly
// one of many concurrent claimers, a run's end is visible to both, and a stop holds for that version only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSqlPort } from '../db/sql';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../testing/postgres';
import { openJobStore } from './index';

const pgMissing = postgresMissingReason();
let postgres: TestPostgres | undefined;
beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

describe.skipIf(pgMissing !== undefined)('JobStore on PostgreSQL', () => {
  it('gives each tick to one claimer of two instances, and both see how it ended', async () => {
    const schema = await freshTestSchema(postgres!.url, 'jobs');
    try {
      const a = await openJobStore(new PostgresSqlPort(schema.pool(4)));
      const b = await openJobStore(new PostgresSqlPort(schema.pool(4)));
      const key = 'global/app/a/pipeline/tick';
      for (let tick = 0; tick < 20; tick++) {
        const scheduled = 1_000_000 + tick * 60_000;
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claim(key, scheduled, `i${i}`, scheduled)),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      }
      await a.finish(key, 1_000_000 + 19 * 60_000, 1_000_000 + 19 * 60_000 + 1_234, 'failed', 'boom');
      expect(await b.lastTick(key)).toMatchObject({ status: 'failed', error: 'boom', finished: 2_141_234 });

      const version = { pipelineKey: key, uuid: 'u1', version: 3 };
      await a.stop(version, 5, 'ann');
      expect(await b.isStopped(version)).toBe(true);
      expect(await b.isStopped({ ...version, version: 4 })).toBe(false);
      expect(await b.isStopped({ ...version, uuid: 'u2' })).toBe(false);
    } finally {
      await schema.drop();
    }
  });
});
