// A lock set by another instance while a write is on its way on PostgreSQL: the write checks the lock on the
// row it has locked, inside its transaction, so a lock that commits first always stops it (CONFLICT, nothing
// written), and a put reads the row once.
import { describe, expect, it } from 'vitest';
import { useTestPostgres } from '../../testing/postgres-cluster';
import { PipeworkError } from '../../../shared/errors';
import { EventBus } from '../../events/event-bus';
import { freshTestSchema } from '../../testing/postgres';
import { PropertyService } from '../property-service';
import { makePrincipal } from '../test-fixtures';
import { PostgresPropertyStore } from './postgres-property-store';

const cluster = useTestPostgres('PostgreSQL write guard tests');

const alice = makePrincipal('alice', { admin: true });
const bob = makePrincipal('bob', { admin: true });

describe.skipIf(cluster.missing !== undefined)('a write and a lock set meanwhile on PostgreSQL', () => {
  it('refuses a put whose property another instance locked while the put was on its way', async () => {
    const schema = await freshTestSchema(cluster.postgres.url, 'guard');
    try {
      const pool = schema.pool(4);
      const store = await PostgresPropertyStore.open(pool);
      const service = new PropertyService({ store, events: new EventBus() });
      await service.create(alice, { key: 'global/doc', value: 'first' });

      // Another instance locks the property for bob: its transaction holds the row, not yet committed.
      const other = await pool.connect();
      await other.query('BEGIN');
      const lock = JSON.stringify({ ts: Date.now(), ttl: null, type: 'user', uuid: bob.uuid, name: 'bob' });
      await other.query('UPDATE property SET tags = $1 WHERE key = $2', [
        JSON.stringify({ 'property.lock': lock }),
        'global/doc',
      ]);
      const put = service.put(alice, { key: 'global/doc', value: 'second' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 200)); // the put waits for the row
      await other.query('COMMIT');
      other.release();

      const error = await put;
      expect(error).toBeInstanceOf(PipeworkError);
      expect((error as PipeworkError).code).toBe('CONFLICT');
      expect((error as PipeworkError).message).toContain("user 'bob'");
      expect((await store.get('global/doc'))!.value).toBe('first');
      expect((await store.history.list('global/doc')).map((v) => v.kind)).toEqual(['created']);
      // The holder still writes.
      await service.put(bob, { key: 'global/doc', value: 'by bob' });
      expect((await store.get('global/doc'))!.value).toBe('by bob');
    } finally {
      await schema.drop();
    }
  });
});
