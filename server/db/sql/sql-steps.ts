/**
 * SQL work written once for SQLite and PostgreSQL. A unit of work is a generator that yields the statements
 * it needs (`yield* get(...)`, `yield* run(...)`) and receives their answers, like the property write rules
 * (`server/store/property-write-steps.ts`): the SQLite port answers each at once inside one synchronous
 * transaction, so no other work can slip into it; the PostgreSQL port awaits each on one pooled connection.
 *
 * Statements use PostgreSQL's `$1, $2, ...` placeholders; the SQLite port rewrites them.
 */

export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/** One statement a unit of work asks for, and how its answer is wanted. */
export type SqlCall =
  | { kind: 'get'; statement: SqlStatement }
  | { kind: 'all'; statement: SqlStatement }
  | { kind: 'run'; statement: SqlStatement };

export interface SqlRunResult {
  /** Rows inserted, changed or deleted. */
  changes: number;
}

export type SqlSteps<T> = Generator<SqlCall, T, unknown>;

/** The first row, or undefined. */
export function* get<T>(sql: string, params: readonly unknown[] = []): SqlSteps<T | undefined> {
  return (yield { kind: 'get', statement: { sql, params } }) as T | undefined;
}

/** Every row. */
export function* all<T>(sql: string, params: readonly unknown[] = []): SqlSteps<T[]> {
  return (yield { kind: 'all', statement: { sql, params } }) as T[];
}

/** A statement without rows (INSERT, UPDATE, DELETE); how many rows it changed. */
export function* run(sql: string, params: readonly unknown[] = []): SqlSteps<SqlRunResult> {
  return (yield { kind: 'run', statement: { sql, params } }) as SqlRunResult;
}

/** Drives a unit of work with an executor that answers each call (synchronously or not). */
export async function driveAsync<T>(
  steps: SqlSteps<T>,
  answer: (call: SqlCall) => Promise<unknown>,
): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = await answer(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}

export function driveSync<T>(steps: SqlSteps<T>, answer: (call: SqlCall) => unknown): T {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = answer(next.value);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}
