/**
 * A constraint that refused a row because of a concurrent change: two requests (on two instances, or racing
 * on one) created the same name after both had found it free, or one deleted what the other was linking to.
 * The caller gets CONFLICT, as when the name was taken before, not a 500.
 */
import { PipeworkError } from '../../../shared/errors';

/** PostgreSQL's unique_violation, and SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
const UNIQUE_CODES = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** PostgreSQL's foreign_key_violation, and SQLite's SQLITE_CONSTRAINT_FOREIGNKEY. */
const FOREIGN_KEY_CODES = new Set(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

export function asUniqueConflict(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (UNIQUE_CODES.has(code)) {
    return new PipeworkError(
      'CONFLICT',
      'It already exists: another request created the same entry at the same moment.',
      {},
      { cause: error as Error },
    );
  }
  if (FOREIGN_KEY_CODES.has(code)) {
    return new PipeworkError(
      'CONFLICT',
      'Something it refers to (a user, group, role or tenant) was deleted at the same moment.',
      {},
      { cause: error as Error },
    );
  }
  return error;
}
