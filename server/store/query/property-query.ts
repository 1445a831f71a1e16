/**
 * `property.query` (docs/query.md): `select`, `from` (key patterns with names), `where` (with ORDER BY, GROUP
 * BY, LIMIT) parsed by a real SQL parser, translated from an allowlist for the store's database, run read-only
 * and bounded in rows and time, over only the properties the caller may read.
 */
import type { Parser } from 'node-sql-parser';
import type { Principal } from '../../../shared/auth';
import { PipeworkError } from '../../../shared/errors';
import type { PropertyService } from '../property-service';
import { fromTable, parseFrom, type AccessLimits } from './query-from';
import { SqlBuilder } from './query-sql';
import { QueryTranslator, refused, type Sql } from './query-translate';
import { queryAccess } from './query-access';

let sqlParser: Promise<Parser> | undefined;

/**
 * The SQL parser, loaded at the first query rather than at start: node-sql-parser builds the grammars of every
 * database it knows when imported (half a second); its PostgreSQL build holds the one grammar used here.
 */
function loadSqlParser(): Promise<Parser> {
  sqlParser ??= import('node-sql-parser/build/postgresql.js').then((module: { Parser: typeof Parser }) => {
    // CommonJS: its exports are the default export of the ES module.
    const { Parser } = (module as { default?: typeof module }).default ?? module;
    return new Parser();
  });
  return sqlParser;
}

/** The placeholder table name the parsed text selects from (replaced by the patterns' derived tables). */
const FROM_MARK = '__pw_from';
export const QUERY_DEFAULT_LIMIT = 1000;
export const QUERY_MAX_LIMIT = 10_000;
export const QUERY_TIMEOUT_MILLIS = 5_000;
const MAX_TEXT = 20_000;

export interface PropertyQueryInput {
  select?: string;
  from: string;
  where?: string;
  /** Default application/json; '' or '*' all types. */
  type?: string;
  params?: Record<string, unknown>;
  limit?: number;
  offset?: number;
}

type Node = Record<string, unknown> & { type?: string };

function parseSelect(parser: Parser, select: string, where: string): Node {
  if (select.length + where.length > MAX_TEXT)
    throw refused(`The query is longer than ${MAX_TEXT} characters.`, 'select');
  const tail =
    where.trim() === '' ? '' : /^(ORDER|GROUP|LIMIT)\b/i.test(where.trim()) ? ` ${where}` : ` WHERE ${where}`;
  let ast: unknown;
  try {
    ast = parser.astify(`SELECT ${select} FROM ${FROM_MARK}${tail}`, { database: 'PostgresQL' });
  } catch (error) {
    throw refused(`The query cannot be parsed: ${String((error as Error).message).slice(0, 300)}`, 'where');
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw refused('property.query runs one SELECT: no ; and no second statement.');
  const node = statements[0] as Node;
  if (node.type !== 'select') throw refused('property.query only selects.');
  const from = node.from as
    { table?: string; db?: unknown; as?: unknown; expr?: unknown; join?: unknown }[] | null;
  if (
    node.with ||
    node._next ||
    node.set_op ||
    (node.into as { position?: unknown } | null)?.position ||
    !from ||
    from.length !== 1 ||
    from[0]!.table !== FROM_MARK ||
    from[0]!.db ||
    from[0]!.as ||
    from[0]!.join
  ) {
    throw refused(
      'property.query reads the properties named in from: no other tables, joins, WITH, UNION or INTO.',
    );
  }
  return node;
}

function decodeCell(value: unknown, json: boolean, dialect: string): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : String(value);
  }
  if (json && dialect === 'sqlite' && typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value ?? null;
}

export class PropertyQueryService {
  constructor(private readonly properties: PropertyService) {}

  async query(principal: Principal | null, input: PropertyQueryInput): Promise<unknown[]> {
    const store = this.properties.store;
    const out = new SqlBuilder(store.queryDialect);
    const froms = parseFrom(input.from);
    const select = input.select?.trim() || '*';
    const ast = parseSelect(await loadSqlParser(), select, input.where ?? '');
    const scope = { aliases: froms.map((f) => f.alias), params: input.params ?? {}, parameter: 'select' };
    const t = new QueryTranslator(out, scope);

    // Select, then from, then where... in the order of the text, so SQLite's `?` bind in order.
    const columns = ast.columns as { expr: Node; as?: unknown }[];
    const star = columns.length === 1 && (columns[0]!.expr as { column?: unknown }).column === '*';
    let selected: Sql[];
    if (star) {
      if (froms.length > 1)
        throw refused('select * takes one pattern; name the columns of a join.', 'select');
      const a = out.name(froms[0]!.alias);
      selected = ['key', 'uuid', 'value', 'type', 'created', 'updated', 'ttl'].map((c) => ({
        sql: `${a}.${c}`,
        json: false,
      }));
    } else {
      selected = columns.map((c) => t.expr(c.expr));
    }
    const distinct = (ast.distinct as { type?: string } | null)?.type ? 'DISTINCT ' : '';
    const columnSql = selected.map((c, i) => `${c.sql} AS c${i}`).join(', ');
    const access: AccessLimits = await queryAccess(this.properties, principal);
    const type = input.type === undefined || input.type === null ? 'application/json' : input.type;
    const now = Date.now();
    const tables = froms.map((f) =>
      fromTable(f, access, type === '' || type === '*' ? undefined : type, now, out),
    );
    let sql = `SELECT ${distinct}${columnSql} FROM ${tables.join(', ')}`;
    scope.parameter = 'where';
    if (ast.where) sql += ` WHERE ${t.expr(ast.where as Node).sql}`;
    const groupBy = (ast.groupby as { columns?: Node[] } | Node[] | null) ?? null;
    const groups = Array.isArray(groupBy) ? groupBy : groupBy?.columns;
    if (groups?.length) sql += ` GROUP BY ${groups.map((g) => t.expr(g).sql).join(', ')}`;
    if (ast.having) sql += ` HAVING ${t.expr(ast.having as Node).sql}`;
    const orderBy = ast.orderby as { expr: Node; type?: string }[] | null;
    if (orderBy?.length) {
      sql += ` ORDER BY ${orderBy.map((o) => `${t.expr(o.expr).sql} ${o.type === 'DESC' ? 'DESC' : 'ASC'}`).join(', ')}`;
    }
    const limit = this.limitOf(ast, input);
    const offset = Math.max(0, Math.floor(input.offset ?? 0));
    sql += ` LIMIT ${out.bind(limit)} OFFSET ${out.bind(offset)}`;

    const result = await store.runQuery(sql, out.params, {
      maxRows: limit,
      timeoutMillis: QUERY_TIMEOUT_MILLIS,
    });
    const rows = result.rows.map((row) =>
      row.map((cell, i) => decodeCell(cell, selected[i]!.json, out.dialect)),
    );
    if (star) {
      return rows.map(([key, uuid, value, type, created, updated, ttl]) => ({
        key,
        uuid,
        value,
        type,
        created,
        updated,
        timeToLive: ttl,
      }));
    }
    return rows.map((row) => (row.length === 1 ? row[0] : row));
  }

  /** The page size: the query's own LIMIT (a number) or the limit parameter, never past the maximum. */
  private limitOf(ast: Node, input: PropertyQueryInput): number {
    const values = (ast.limit as { value?: Node[] } | null)?.value ?? [];
    let limit = input.limit ?? QUERY_DEFAULT_LIMIT;
    if (values.length > 0) {
      if (values.length > 1 || values[0]!.type !== 'number')
        throw refused('LIMIT takes one number; use offset to page.');
      limit = Math.min(limit, Number(values[0]!.value));
    }
    if (!Number.isInteger(limit) || limit < 0)
      throw refused('limit must be a whole number, 0 or more.', 'limit');
    if (limit > QUERY_MAX_LIMIT) {
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `property.query returns at most ${QUERY_MAX_LIMIT} rows a page; page with offset.`,
        {
          parameter: 'limit',
        },
      );
    }
    return limit;
  }
}
