/** `@json.path`: JSONPath (RFC 9535) by json-p3, whose filters are parsed, never evaluated as code. */
import { query } from 'json-p3';
import { utilityError } from '../errors';
import { capItems, noteBuilt } from './support';

/** The values `path` selects in `data`, as a list (empty when nothing matches or the data is null). */
export function queryJsonPath(fn: string, data: unknown, path: string): unknown[] {
  if (path.length > 10_000) throw utilityError(`${fn}: the query is longer than 10000 characters`);
  if (data === null || data === undefined) return [];
  let values: unknown[];
  try {
    values = query(path, data as Parameters<typeof query>[1]).values() as unknown[];
  } catch (e) {
    throw utilityError(`${fn}: ${(e as Error).message}`);
  }
  capItems(fn, values.length);
  noteBuilt(values.length);
  return values.map((v) => (v === undefined ? null : v));
}
