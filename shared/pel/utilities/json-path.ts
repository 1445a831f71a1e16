/**
 * `@json.path`: JSONPath (RFC 9535) by json-p3, whose filters are parsed, never evaluated as code. Two
 * things differ from json-p3's defaults, both so that no query can hold the event loop:
 * - `match` and `search` run their pattern on the same linear-time engine as every other user pattern
 *   (Java syntax, see regex.ts), and a bad pattern is an error rather than a silent `false`;
 * - every selector, segment and filter expression of a compiled query spends the utility call's work
 *   budget (`spendUtilityWork`), so nested filters that grow with the data times itself end with a
 *   catalogued error instead of running for minutes.
 */
import {
  type FilterFunction,
  FunctionExpressionType,
  JSONPathEnvironment,
  type JSONPathQuery,
} from 'json-p3';
import { isPipeworkError } from '../../errors';
import { utilityError } from '../errors';
import { regexTest } from '../regex';
import { LruCache } from '../../values/lru-cache';
import { capItems, noteBuilt, spendUtilityWork, withUtilityWork } from './support';

const FN = 'path';

/** `match` (whole text) and `search` (anywhere) with our regex engine; a non-text value is no match. */
class RegexFunction implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType];
  readonly returnType = FunctionExpressionType.LogicalType;
  constructor(private readonly whole: boolean) {}
  call(value: unknown, pattern: unknown): boolean {
    if (typeof pattern !== 'string')
      throw utilityError(`${FN}: ${this.whole ? 'match' : 'search'}() needs a text pattern`);
    if (typeof value !== 'string') return false;
    spendUtilityWork(1 + (value.length >> 6));
    return regexTest(pattern, value, this.whole);
  }
}

const environment = new JSONPathEnvironment();
environment.functionRegister.set('match', new RegexFunction(true));
environment.functionRegister.set('search', new RegexFunction(false));

/** Compiled and metered queries by their text. */
const queries = new LruCache<JSONPathQuery>(200, 1_000_000);

/** Parts of a compiled query that are not steps of it (and must not be wrapped). */
const NOT_STEPS = new Set(['environment', 'token', 'keysPattern']);

/**
 * Wraps the `resolve`, `lazyResolve` and `evaluate` methods of every part of a compiled query (its segments,
 * selectors, filter expressions and the queries nested in filters) so that each call spends one step plus
 * the nodes it returns.
 */
function meter(root: object): void {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const part = stack.pop()!;
    if (seen.has(part)) continue;
    seen.add(part);
    const record = part as Record<string, unknown>;
    for (const method of ['resolve', 'lazyResolve', 'evaluate'] as const) {
      const original = record[method];
      if (typeof original !== 'function') continue;
      record[method] = function metered(this: unknown, ...args: unknown[]): unknown {
        spendUtilityWork(1);
        const result = Reflect.apply(original, this, args) as unknown;
        if (Array.isArray(result)) spendUtilityWork(result.length);
        return result;
      };
    }
    for (const [key, value] of Object.entries(record)) {
      if (NOT_STEPS.has(key) || value === null || typeof value !== 'object') continue;
      stack.push(value);
    }
  }
}

function compiled(path: string): JSONPathQuery {
  let query = queries.get(path);
  if (!query) {
    query = environment.compile(path);
    meter(query);
    queries.set(path, query, path.length + 100);
  }
  return query;
}

/** The values `path` selects in `data`, as a list (empty when nothing matches or the data is null). */
export function queryJsonPath(fn: string, data: unknown, path: string): unknown[] {
  if (path.length > 10_000) throw utilityError(`${fn}: the query is longer than 10000 characters`);
  if (data === null || data === undefined) return [];
  let values: unknown[];
  try {
    values = withUtilityWork(
      () =>
        compiled(path)
          .query(data as Parameters<JSONPathQuery['query']>[0])
          .values() as unknown[],
    );
  } catch (e) {
    if (isPipeworkError(e)) throw e;
    throw utilityError(`${fn}: ${(e as Error).message}`);
  }
  capItems(fn, values.length);
  noteBuilt(values.length);
  return values.map((v) => (v === undefined ? null : v));
}
