/**
 * The SQL of `PropertyStore.instancePage`, written once for SQLite and PostgreSQL: the instance folder is a
 * key range (the unique key index), direct children only, filters and the sort on fields of the JSON value.
 * A field of a value cannot be indexed in general (every object has its own), so the cost is a scan of one
 * object's instances, never of the table.
 */
import { PipeworkError } from '../../shared/errors';
import {
  instanceFieldPath,
  isInstanceColumn,
  MAX_INSTANCE_FILTERS,
  MAX_INSTANCE_PAGE,
  type InstancePageQuery,
} from '../../shared/property';

export interface InstanceSqlDialect {
  /** The placeholder of the next parameter (`?` or `$n`), after `values` got it. */
  placeholder(index: number): string;
  /** The field at `path` as a sortable SQL value (numbers as numbers). */
  sortValue(path: string): string;
  /** The field at `path` as text (null when absent). */
  textValue(path: string): string;
  /** A JSON path parameter's value for the dialect. */
  pathParam(segments: string[]): unknown;
  /** The 1-based position of `needle` in `haystack`, 0 when absent. */
  indexOf(haystack: string, needle: string): string;
  /** Live rows: `now` placeholder given. */
  live(now: string): string;
}

export interface InstanceSql {
  /** The condition, whose parameters are `params`. */
  where: string;
  params: unknown[];
  /** `ORDER BY ... LIMIT ... OFFSET ...`, whose parameters follow `params`: `page.params`. */
  page: { sql: string; params: unknown[] };
}

const COLUMN_SQL: Record<string, string> = {
  $key: 'key',
  $created: 'created',
  $updated: 'COALESCE(updated, created)',
};

function checkPage(query: InstancePageQuery): void {
  const bad = (parameter: string, message: string) =>
    new PipeworkError('PARAM_INVALID', message, { parameter });
  if (!Number.isInteger(query.offset) || query.offset < 0)
    throw bad('offset', 'offset must be a whole number of 0 or more.');
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_INSTANCE_PAGE)
    throw bad('limit', `limit must be between 1 and ${MAX_INSTANCE_PAGE}.`);
  if ((query.filters?.length ?? 0) > MAX_INSTANCE_FILTERS)
    throw bad('filter', `At most ${MAX_INSTANCE_FILTERS} filters.`);
}

/** The statement parts of one page; `now` is the store's clock. */
export function instancePageSql(d: InstanceSqlDialect, query: InstancePageQuery, now: number): InstanceSql {
  checkPage(query);
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return d.placeholder(params.length);
  };
  const prefix = `${query.folder}/`;
  const conditions = [
    `key > ${p(prefix)}`,
    `key < ${p(`${query.folder}0`)}`,
    d.live(p(now)),
    // Direct children only: `.../instance/<id>`, not deeper keys.
    `${d.indexOf(`substr(key, ${p(prefix.length + 1)})`, "'/'")} = 0`,
  ];
  const field = (name: string, parameter: string, asText: boolean) => {
    if (isInstanceColumn(name)) return asText ? `CAST(${COLUMN_SQL[name]} AS TEXT)` : COLUMN_SQL[name]!;
    const path = p(d.pathParam(instanceFieldPath(name, parameter)));
    return asText ? d.textValue(path) : d.sortValue(path);
  };
  for (const filter of query.filters ?? []) {
    const text = field(filter.field, 'filter', true);
    conditions.push(
      filter.op === 'equals'
        ? `${text} = ${p(filter.value)}`
        : `${d.indexOf(`lower(${text})`, p(filter.value.toLowerCase()))} > 0`,
    );
  }
  if (query.search) conditions.push(`${d.indexOf('lower(value)', p(query.search.toLowerCase()))} > 0`);
  const whereParams = params.length;
  const direction = query.sort?.descending ? 'DESC' : 'ASC';
  const order = query.sort
    ? `${field(query.sort.field, 'sort', false)} ${direction}, key ${direction}`
    : 'key ASC';
  const page = `ORDER BY ${order} LIMIT ${p(query.limit)} OFFSET ${p(query.offset)}`;
  return {
    where: conditions.join(' AND '),
    params: params.slice(0, whereParams),
    page: { sql: page, params: params.slice(whereParams) },
  };
}
