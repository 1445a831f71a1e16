/**
 * `property.import`: stores a JSON list of properties (as `property.list` lists them) in one transaction, with
 * the real product's `strategy` for keys that exist: skip (default), update, or rollback (import nothing).
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { normalizePropertyKey, type ExistStrategy } from '../../../shared/property';
import { isBinaryContent } from '../../../shared/values';
import type { CreatePropertyInput } from '../../store/property-service';
import type { ServerServices } from '../../services';
import { propertiesOf, textParam } from './property-command-support';

/** The most properties one import takes: it is one write transaction, and others wait while it runs. */
export const MAX_IMPORT_ENTRIES = 10_000;

/** Fields a listed property carries that the store sets itself: accepted in an entry and left alone. */
const STORE_SET_FIELDS = new Set(['uuid', 'created', 'updated', 'version']);
const IMPORTED_FIELDS = new Set(['path', 'key', 'value', 'type', 'timeToLive', 'ttl', 'defaultValue']);

const STRATEGIES: Record<string, ExistStrategy> = { skip: 'skip', update: 'update', rollback: 'error' };

function badEntry(index: number, message: string): PipeworkError {
  return new PipeworkError('BAD_REQUEST', `Entry ${index} of the import: ${message}`, { index });
}

/** The list in the body: a JSON array (or its text); anything else is BAD_REQUEST. */
function listOf(input: unknown): unknown[] {
  let list = input;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      throw new PipeworkError('BAD_REQUEST', 'The body of property.import is not JSON.');
    }
  }
  if (!Array.isArray(list)) {
    const what = isBinaryContent(list)
      ? 'a file'
      : list === null || list === undefined
        ? 'empty'
        : typeof list;
    throw new PipeworkError(
      'BAD_REQUEST',
      `property.import takes a JSON list of properties as its body (application/json); the body is ${what}.`,
    );
  }
  if (list.length > MAX_IMPORT_ENTRIES) {
    throw new PipeworkError(
      'PAYLOAD_TOO_LARGE',
      `An import takes at most ${MAX_IMPORT_ENTRIES} properties; the body has ${list.length}. Split it.`,
      { limit: MAX_IMPORT_ENTRIES },
    );
  }
  return list;
}

function timeToLiveOf(index: number, entry: Record<string, unknown>): number | null | undefined {
  const ttl = entry.timeToLive ?? entry.ttl;
  if (ttl === undefined || ttl === null) return ttl;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
    throw badEntry(index, 'timeToLive must be a whole number of minutes, 0 or more.');
  }
  return ttl;
}

/** One entry as `create` takes it; BAD_REQUEST naming the entry for anything it cannot be. */
function entryOf(index: number, raw: unknown): CreatePropertyInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw badEntry(index, 'a property is a JSON object with path, value, type, timeToLive, defaultValue.');
  }
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).find((f) => !IMPORTED_FIELDS.has(f) && !STORE_SET_FIELDS.has(f));
  if (unknown !== undefined) throw badEntry(index, `unknown field '${unknown.slice(0, 60)}'.`);
  const { path, key } = entry;
  if (path !== undefined && key !== undefined && path !== key) {
    throw badEntry(index, "give 'path' or 'key' (the same thing), not both with different values.");
  }
  if (path === undefined && key === undefined) throw badEntry(index, "'path' is missing.");
  if (entry.type !== undefined && entry.type !== null && typeof entry.type !== 'string') {
    throw badEntry(index, 'type must be a mime type text.');
  }
  return {
    key: path ?? key,
    value: entry.value,
    type: entry.type ?? undefined,
    timeToLive: timeToLiveOf(index, entry),
    defaultValue: entry.defaultValue,
  };
}

export const propertyImport = defineCommand<ServerServices>(
  {
    name: 'property.import',
    summary: 'Imports a JSON list of properties (as property.list lists them), all in one transaction.',
    description:
      'Each entry takes path (or key), value, type, timeToLive (or ttl) and defaultValue; uuid, created, updated ' +
      'and version are set by the store and left alone. Every entry is checked first (key rules, write rights ' +
      `per key, size, object schema); one bad entry imports nothing. At most ${MAX_IMPORT_ENTRIES} entries. ` +
      'Returns `{created, updated, skipped, results}` with one `{path, result}` per entry.',
    parameters: {
      strategy: {
        type: 'string',
        enum: ['skip', 'update', 'rollback'],
        default: 'skip',
        description:
          'When a key exists: skip it (and log it), update it with the imported fields, or rollback: import ' +
          'nothing at all (PROPERTY_EXISTS).',
      },
    },
    defaultParameter: 'strategy',
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Import what another instance listed, overwriting what is there',
        pipeline:
          'pipeline:\n  - property.import:\n      strategy: update\nbody: [{"path": "global/app/myapp/config/app", "value": "{}", "type": "application/json"}]\n',
      },
    ],
  },
  async (ctx) => {
    const strategy = STRATEGIES[textParam(ctx, 'strategy') ?? 'skip']!;
    const entries = listOf(ctx.input).map((raw, index) => entryOf(index, raw));
    const seen = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      const key = normalizePropertyKey(entry.key);
      if (seen.has(key)) throw badEntry(index, `the path '${key.slice(0, 200)}' is in the list twice.`);
      seen.add(key);
    }
    const results = await propertiesOf(ctx)
      .createMany(ctx.principal, entries, strategy)
      .catch((error: unknown) => {
        if (!(error instanceof PipeworkError) || error.code !== 'PROPERTY_EXISTS') throw error;
        throw new PipeworkError(
          'PROPERTY_EXISTS',
          `${error.message} With strategy rollback nothing was imported.`,
          {
            ...error.details,
            strategy: 'rollback',
          },
        );
      });
    const counts = { created: 0, updated: 0, skipped: 0 };
    for (const r of results) {
      if (r.result === 'skip') {
        counts.skipped++;
        ctx.log('INFO', `property.import skipped '${r.property.key}': it exists.`);
      } else counts[r.result === 'create' ? 'created' : 'updated']++;
    }
    return { ...counts, results: results.map((r) => ({ path: r.property.key, result: r.result })) };
  },
);
