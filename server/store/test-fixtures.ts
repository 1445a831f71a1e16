/** Readable fixtures for the property tests: principals and a service over an in-memory store. */
import { ROLE_ADMIN, ROLE_DEVELOPER, ROLE_USER, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { openDatabase } from '../db';
import { EventBus, type PipeworkEvent } from '../events/event-bus';
import { PropertyService } from './property-service';
import { SqlitePropertyStore } from './sqlite/sqlite-property-store';

export function makePrincipal(
  uuid: string,
  options: { admin?: boolean; developer?: boolean; groups?: string[]; tenants?: string[] } = {},
): Principal {
  const roles = [ROLE_USER];
  if (options.admin) roles.push(ROLE_ADMIN);
  if (options.developer) roles.push(ROLE_DEVELOPER);
  return {
    uuid,
    username: uuid,
    roles: new Set(roles),
    groups: new Set(options.groups ?? []),
    tenants: new Set(options.tenants ?? []),
  };
}

export interface TestPropertyService {
  service: PropertyService;
  store: SqlitePropertyStore;
  events: EventBus;
  /** Every event published so far (after `await events.idle()`). */
  seen: PipeworkEvent[];
  close(): void;
}

export function createTestPropertyService(clock: () => number = Date.now): TestPropertyService {
  const db = openDatabase(':memory:');
  const store = new SqlitePropertyStore(db, { clock });
  const events = new EventBus({ clock });
  const seen: PipeworkEvent[] = [];
  events.subscribe((e) => void seen.push(e));
  return { service: new PropertyService({ store, events }), store, events, seen, close: () => db.close() };
}

/** The error code a promise rejects with (undefined when it resolves). */
export async function errorCode(promise: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
    return undefined;
  } catch (error) {
    return error instanceof PipeworkError ? error.code : `not a PipeworkError: ${String(error)}`;
  }
}
