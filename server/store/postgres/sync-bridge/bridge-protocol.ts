/**
 * What the main thread and the sync-bridge worker say to each other: the store calls (structured-clone data
 * only: a pattern travels as its text, never as a compiled matcher or a filter function), their answers, and
 * errors in a form that rebuilds the same PipeworkError (code, message, details) on the other side.
 */
import type { PoolConfig } from 'pg';
import { PipeworkError, type ErrorCode, type ErrorDetails } from '../../../../shared/errors';
import type { HistoryBounds, KeyScope, PropertyPatch, UpdateOptions } from '../../../../shared/property';

/** The connection settings of the worker's own pool: plain data that can be copied to another thread. */
export type BridgeConnection = Pick<
  PoolConfig,
  | 'connectionString'
  | 'host'
  | 'port'
  | 'user'
  | 'password'
  | 'database'
  | 'options'
  | 'application_name'
  | 'ssl'
>;

/** What the worker is started with (its `workerData`, next to the channel's port and flag). */
export interface BridgeWorkerSettings {
  connection: BridgeConnection;
  /** Connections in the worker's pool. */
  poolSize: number;
  /** The calls' time limit: the worker's pool gives up connecting after it too. */
  timeoutMillis: number;
  /**
   * Writes record their events in the outbox, in their transaction, as the server's store does
   * (`server/events/postgres-event-outbox.ts`); absent when the calling side publishes them itself.
   */
  outbox?: { channel?: string };
  /** The history bounds of the server's store. */
  history?: HistoryBounds;
}

/** A listing as it crosses: the pattern's text, the scope, the limit (filters stay on the calling side). */
export interface BridgeListQuery {
  pattern: string;
  scope: KeyScope;
  limit?: number;
}

/** One store call; `now` is the calling store's clock, so both sides agree on what has expired. */
export type BridgeRequest =
  | { op: 'get'; now: number; key: string }
  | { op: 'list'; now: number; query: BridgeListQuery }
  | {
      op: 'update';
      now: number;
      key: string;
      patch: PropertyPatch;
      options: UpdateOptions;
      /** The caller's event depth (`server/events/event-context.ts`), which the outbox records. */
      depth: number;
      /** The caller's listener cascade, which the outbox records too. */
      cascade?: string | null;
    }
  /** One row of a read-only statement (PEL's user lookups: `server/iam/sync-user-reader.ts`). */
  | { op: 'row'; sql: string; params: unknown[] }
  | { op: 'close' };

/** An error as it crosses: a PipeworkError keeps its code and details; anything else its name and code. */
export type WireError =
  | { pipework: true; code: ErrorCode; message: string; details: ErrorDetails }
  | { pipework: false; name: string; message: string; code?: string };

/** `unusable`: the worker could not open its store; the caller replaces it before the next call. */
export type BridgeAnswer = { ok: true; value: unknown } | { ok: false; error: WireError; unusable?: boolean };

/** The first message of the worker on its parent port: ready, or why it could not start. */
export type BridgeReadiness = { ready: true } | { ready: false; error: WireError };

export function toWireError(error: unknown): WireError {
  if (error instanceof PipeworkError) {
    return { pipework: true, code: error.code, message: error.message, details: error.details };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  return { pipework: false, name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
}

/**
 * The error to throw on the calling side. A PipeworkError comes back as it was thrown; a database or
 * network failure (a SQLSTATE or a system error code such as ECONNREFUSED) as UPSTREAM_FAILED, since the
 * database is the service the call depends on; anything else stays a plain error (a bug: INTERNAL).
 */
export function fromWireError(wire: WireError, what: string): Error {
  if (wire.pipework) return new PipeworkError(wire.code, wire.message, wire.details);
  if (wire.code !== undefined) {
    return new PipeworkError('UPSTREAM_FAILED', `PostgreSQL failed during ${what}: ${wire.message}`, {
      databaseCode: wire.code,
    });
  }
  const error = new Error(`${what} failed in the PostgreSQL sync-bridge worker: ${wire.message}`);
  error.name = wire.name;
  return error;
}
