/**
 * A test file's throwaway PostgreSQL cluster: started before its tests and stopped after them, or the reason
 * there is none, in which case the file's PostgreSQL tests skip (`describe.skipIf(cluster.missing !== undefined)`).
 */
import { afterAll, beforeAll } from 'vitest';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from './postgres';

export interface TestCluster {
  /** Why there is no PostgreSQL here, or undefined. */
  readonly missing: string | undefined;
  /** The running cluster (inside a test). */
  readonly postgres: TestPostgres;
}

/** Call at a test file's top level; `what` names the tests in the warning when they skip. */
export function useTestPostgres(what: string, options: { durable?: boolean } = {}): TestCluster {
  const missing = postgresMissingReason();
  if (missing) console.warn(`${what} skipped: ${missing}`);
  let started: TestPostgres | undefined;
  beforeAll(async () => {
    if (!missing) started = await startTestPostgres(options);
  }, 60_000);
  afterAll(() => started?.stop());
  return {
    missing,
    get postgres() {
      if (!started) throw new Error('The test cluster is not running (used outside a test?)');
      return started;
    },
  };
}
