/**
 * A unique constraint that refused a row: two requests (on two instances, or racing on one) created the same
 * name at the same moment, after both had found it free. The caller gets CONFLICT, as when the name was taken
 * before, not a 500.
 */
import { PipeworkError } from '../../../shared/errors';

/** PostgreSQL's unique_violation, and SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
const UNIQUE_CODES = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

export function asUniqueConflict(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNIQUE_CODES.has(code)) return error;
  return new PipeworkError(
    'CONFLICT',
    'It already exists: another request created the same entry at the same moment.',
    {},
    { cause: error as Error },
  );
}
