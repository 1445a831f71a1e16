/**
 * Write rules written once, run two ways. A rule is a generator that yields the store calls it needs
 * (`yield* read(key)`, `yield* update(...)`); `runAsync` awaits each on any `PropertyStore` (the commands),
 * `runSync` answers each at once from a store that reads and writes synchronously (`@property.updateValue`,
 * since expressions evaluate synchronously).
 */
import type {
  Property,
  PropertyPatch,
  PropertyStore,
  SyncPropertyReader,
  SyncPropertyWriter,
  UpdateOptions,
  UpdateResult,
} from '../../shared/property';

/** One store call a rule asks for. */
export type StoreCall =
  { read: string } | { update: { key: string; patch: PropertyPatch; options: UpdateOptions } };

/** A write rule: yields store calls, receives their answers, returns its result. */
export type WriteSteps<T> = Generator<StoreCall, T, unknown>;

/** A store that answers every call of a rule at once. */
export type SyncPropertyStore = SyncPropertyReader & SyncPropertyWriter;

/** The live property at `key`, or undefined. */
export function* read(key: string): WriteSteps<Property | undefined> {
  return (yield { read: key }) as Property | undefined;
}

/** Changes an existing property (PROPERTY_NOT_FOUND; CONFLICT on a version mismatch). */
export function* update(key: string, patch: PropertyPatch, options: UpdateOptions): WriteSteps<UpdateResult> {
  return (yield { update: { key, patch, options } }) as UpdateResult;
}

/** Runs a rule against any store, awaiting each call. */
export async function runAsync<T>(steps: WriteSteps<T>, store: PropertyStore): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const call = next.value;
    const answer =
      'read' in call
        ? await store.get(call.read)
        : await store.update(call.update.key, call.update.patch, call.update.options);
    next = steps.next(answer);
  }
  return next.value;
}

/** Runs a rule against a synchronous store, in one go. */
export function runSync<T>(steps: WriteSteps<T>, store: SyncPropertyStore): T {
  let next = steps.next();
  while (!next.done) {
    const call = next.value;
    const answer =
      'read' in call
        ? store.getSync(call.read)
        : store.updateSync(call.update.key, call.update.patch, call.update.options);
    next = steps.next(answer);
  }
  return next.value;
}

/** True when the store can run rules synchronously (the SQLite store can; a network database cannot). */
export function isSyncPropertyStore(store: unknown): store is SyncPropertyStore {
  const candidate = store as Partial<SyncPropertyStore> | null;
  return typeof candidate?.getSync === 'function' && typeof candidate.updateSync === 'function';
}
