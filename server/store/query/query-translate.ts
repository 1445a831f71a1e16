/**
 * Turns the parsed `select`, `where` and `ORDER BY` of a `property.query` into SQL for one database, from an
 * allowlist: node types, operators, casts and functions not named here are refused with PARAM_INVALID. Column
 * references reach only the property attributes of the `from` aliases; literals and `:params` are bound.
 */
import { PipeworkError } from '../../../shared/errors';
import { sqlitePath, type SqlBuilder } from './query-sql';

/** The property attributes a query may name, and their columns. */
export const ATTRIBUTES: Record<string, string> = {
  key: 'key',
  uuid: 'uuid',
  value: 'value',
  type: 'type',
  created: 'created',
  updated: 'updated',
  timeToLive: 'ttl',
  timetolive: 'ttl',
};

/** A translated expression, and whether it yields JSON (decoded into the result). */
export interface Sql {
  sql: string;
  json: boolean;
}

type Node = Record<string, unknown> & { type?: string };

const COMPARISON = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const LOGICAL = new Set(['AND', 'OR']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '||']);
const MATCHING = new Set(['LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE']);
const JSON_CASTS = new Set(['JSON', 'JSONB']);
const CASTS: Record<string, { pg: string; sqlite: string }> = {
  TEXT: { pg: 'text', sqlite: 'TEXT' },
  VARCHAR: { pg: 'text', sqlite: 'TEXT' },
  INT: { pg: 'bigint', sqlite: 'INTEGER' },
  INTEGER: { pg: 'bigint', sqlite: 'INTEGER' },
  BIGINT: { pg: 'bigint', sqlite: 'INTEGER' },
  NUMERIC: { pg: 'float8', sqlite: 'REAL' },
  DECIMAL: { pg: 'float8', sqlite: 'REAL' },
  FLOAT: { pg: 'float8', sqlite: 'REAL' },
  REAL: { pg: 'float8', sqlite: 'REAL' },
  BOOLEAN: { pg: 'boolean', sqlite: 'INTEGER' },
};
/** Plain functions spelt alike on both databases. */
const SAME_FUNCTIONS = new Set(['lower', 'upper', 'length', 'coalesce', 'abs', 'round', 'trim', 'nullif']);
const AGGREGATES = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);

export function refused(message: string, parameter = 'where'): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter });
}

/** The context of one translation: the `from` aliases and the parameters given. */
export interface TranslateScope {
  aliases: readonly string[];
  params: Record<string, unknown>;
  parameter: string;
}

export class QueryTranslator {
  constructor(
    private readonly out: SqlBuilder,
    private readonly scope: TranslateScope,
  ) {}

  private get pg(): boolean {
    return this.out.dialect === 'postgres';
  }

  private fail(message: string): never {
    throw refused(message, this.scope.parameter);
  }

  expr(node: Node | null | undefined): Sql {
    if (!node || typeof node !== 'object') this.fail('The query holds an empty expression.');
    switch (node.type) {
      case 'column_ref':
        return this.column(node);
      case 'number':
        return { sql: this.out.bind(Number(node.value)), json: false };
      case 'single_quote_string':
      case 'string':
        return { sql: this.out.bind(String(node.value)), json: false };
      case 'bool':
        return { sql: this.out.bind(this.pg ? Boolean(node.value) : node.value ? 1 : 0), json: false };
      case 'null':
        return { sql: 'NULL', json: false };
      case 'param':
        return this.param(String(node.value));
      case 'cast':
        return this.cast(node);
      case 'binary_expr':
        return this.binary(node);
      case 'unary_expr':
        return this.unary(node);
      case 'function':
        return this.func(node);
      case 'aggr_func':
        return this.aggregate(node);
      default:
        if ('ast' in node)
          this.fail('Subqueries are not allowed in property.query: it reads properties only.');
        return this.fail(`'${String(node.type)}' is not allowed in property.query.`);
    }
  }

  private param(name: string): Sql {
    if (!Object.prototype.hasOwnProperty.call(this.scope.params, name)) {
      this.fail(`The query uses :${name}, which params does not give.`);
    }
    const value = this.scope.params[name];
    const bound = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
    return {
      sql: this.out.bind(typeof bound === 'boolean' && !this.pg ? Number(bound) : bound),
      json: false,
    };
  }

  private column(node: Node): Sql {
    const column = node.column as { expr?: { value?: unknown } } | string;
    const name = typeof column === 'string' ? column : String(column?.expr?.value ?? '');
    if (name === '*') this.fail("'*' is allowed only alone in select.");
    const attribute = ATTRIBUTES[name];
    if (!attribute) {
      this.fail(
        `'${name}' is not a property attribute (key, uuid, value, type, created, updated, timeToLive).`,
      );
    }
    const table = node.table as string | null;
    let alias: string;
    if (table === null || table === undefined) {
      if (this.scope.aliases.length > 1) this.fail(`'${name}' needs its alias: several patterns are joined.`);
      alias = this.scope.aliases[0]!;
    } else {
      if (!this.scope.aliases.includes(table)) this.fail(`'${table}' is not an alias given in from.`);
      alias = table;
    }
    return { sql: `${this.out.name(alias)}.${attribute}`, json: false };
  }

  private cast(node: Node): Sql {
    const target = (node.target as { dataType?: string }[] | undefined)?.[0]?.dataType?.toUpperCase() ?? '';
    const inner = this.expr(node.expr as Node);
    if (JSON_CASTS.has(target)) {
      return {
        sql: this.pg ? `CAST(${inner.sql} AS ${target.toLowerCase()})` : `json(${inner.sql})`,
        json: true,
      };
    }
    const cast = CASTS[target];
    if (!cast) this.fail(`Casting to ${target || 'this type'} is not allowed in property.query.`);
    return { sql: `CAST(${inner.sql} AS ${this.pg ? cast.pg : cast.sqlite})`, json: false };
  }

  private literalText(node: Node, what: string): string {
    if (node.type !== 'single_quote_string' && node.type !== 'string')
      this.fail(`${what} must be a quoted text.`);
    return String(node.value);
  }

  private binary(node: Node): Sql {
    const op = String(node.operator).toUpperCase();
    const left = node.left as Node;
    const right = node.right as Node;
    if (op === '->' || op === '->>') {
      const l = this.expr(left);
      const r = this.expr(right);
      return { sql: `(${l.sql} ${op} ${r.sql})`, json: op === '->' };
    }
    if (op === '#>' || op === '#>>') {
      const l = this.expr(left);
      const path = this.literalText(right, `The path of ${op}`);
      if (this.pg) return { sql: `(${l.sql} ${op} ${this.out.bind(path)}::text[])`, json: op === '#>' };
      const converted = sqlitePath(path);
      if (converted === undefined) this.fail(`The path of ${op} is written like '{addresses, 1}'.`);
      return {
        sql: `(${l.sql} ${op === '#>' ? '->' : '->>'} ${this.out.bind(converted)})`,
        json: op === '#>',
      };
    }
    if (op === '?') {
      const l = this.expr(left);
      const key = this.literalText(right, 'The key tested by ?');
      if (this.pg)
        return { sql: `jsonb_exists(CAST(${l.sql} AS jsonb), ${this.out.bind(key)})`, json: false };
      return {
        sql: `(json_type(${l.sql}, ${this.out.bind(`$."${key.replace(/"/g, '\\"')}"`)}) IS NOT NULL)`,
        json: false,
      };
    }
    if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
      const l = this.expr(left);
      const [low, high] = ((right as { value?: Node[] }).value ?? []).map((n) => this.expr(n));
      if (!low || !high) this.fail('BETWEEN needs two bounds.');
      return { sql: `(${l.sql} ${op} ${low.sql} AND ${high.sql})`, json: false };
    }
    if (op === 'IN' || op === 'NOT IN') {
      const l = this.expr(left);
      const items = (right as { type?: string; value?: Node[] }).value;
      if (right.type !== 'expr_list' || !Array.isArray(items) || items.length === 0) {
        this.fail('IN takes a list of values.');
      }
      return { sql: `(${l.sql} ${op} (${items.map((n) => this.expr(n).sql).join(', ')}))`, json: false };
    }
    if (op === 'IS' || op === 'IS NOT') {
      const l = this.expr(left);
      if (right.type === 'null') return { sql: `(${l.sql} ${op} NULL)`, json: false };
      if (right.type === 'bool')
        return { sql: `(${l.sql} ${op} ${right.value ? 'TRUE' : 'FALSE'})`, json: false };
      this.fail(`${op} takes NULL, TRUE or FALSE.`);
    }
    if (MATCHING.has(op)) {
      const l = this.expr(left);
      const r = this.expr(right);
      if (op.endsWith('ILIKE') && !this.pg) {
        return { sql: `(lower(${l.sql}) ${op.replace('ILIKE', 'LIKE')} lower(${r.sql}))`, json: false };
      }
      // On SQLite LIKE ignores the case of ASCII letters (docs/query.md); ILIKE means that on both.
      return { sql: `(${l.sql} ${op} ${r.sql})`, json: false };
    }
    if (COMPARISON.has(op) || LOGICAL.has(op) || ARITHMETIC.has(op)) {
      const l = this.expr(left);
      const r = this.expr(right);
      return { sql: `(${l.sql} ${op === '!=' ? '<>' : op} ${r.sql})`, json: false };
    }
    return this.fail(`The operator ${op} is not allowed in property.query.`);
  }

  private unary(node: Node): Sql {
    const op = String(node.operator).toUpperCase();
    if (op !== 'NOT' && op !== '-') this.fail(`The operator ${op} is not allowed in property.query.`);
    return { sql: `(${op} ${this.expr(node.expr as Node).sql})`, json: false };
  }

  private args(node: Node): Node[] {
    const args = node.args as { value?: Node[] } | undefined;
    return args?.value ?? [];
  }

  private func(node: Node): Sql {
    const nameParts = (node.name as { name?: { value?: string }[] } | undefined)?.name ?? [];
    if (nameParts.length !== 1) this.fail('Functions are named without a schema in property.query.');
    const name = String(nameParts[0]!.value).toLowerCase();
    const args = this.args(node);
    if (args.some((a) => a && typeof a === 'object' && 'ast' in a)) {
      this.fail('Subqueries are not allowed in property.query: it reads properties only.');
    }
    if (SAME_FUNCTIONS.has(name)) {
      return { sql: `${name}(${args.map((a) => this.expr(a).sql).join(', ')})`, json: false };
    }
    switch (name) {
      case 'to_json':
      case 'to_jsonb': {
        const [a] = this.arity(name, args, 1, 1);
        return { sql: this.pg ? `${name}(${a.sql})` : a.json ? a.sql : `json_quote(${a.sql})`, json: true };
      }
      case 'json_array_length':
      case 'jsonb_array_length': {
        const [a] = this.arity(name, args, 1, 1);
        return { sql: this.pg ? `${name}(${a.sql})` : `json_array_length(${a.sql})`, json: false };
      }
      case 'json_strip_nulls':
      case 'jsonb_strip_nulls': {
        this.pgOnly(name);
        const [a] = this.arity(name, args, 1, 1);
        return { sql: `${name}(${a.sql})`, json: true };
      }
      case 'jsonb_set':
      case 'json_set':
        return this.jsonSet(name, args);
      default:
        return this.fail(`The function ${name}() is not allowed in property.query.`);
    }
  }

  private pgOnly(name: string): void {
    if (!this.pg) this.fail(`The function ${name}() is available on PostgreSQL only.`);
  }

  private arity(name: string, args: Node[], min: number, max: number): Sql[] {
    if (args.length < min || args.length > max)
      this.fail(`${name}() takes ${min === max ? min : `${min} to ${max}`} arguments.`);
    return args.map((a) => this.expr(a));
  }

  private jsonSet(name: string, args: Node[]): Sql {
    if (args.length < 3 || args.length > 4) this.fail(`${name}() takes 3 or 4 arguments.`);
    const path = this.literalText(args[1]!, `The path of ${name}()`);
    const target = this.expr(args[0]!);
    if (this.pg) {
      const value = this.expr(args[2]!);
      const create = args[3] ? `, ${this.expr(args[3]).sql}` : '';
      return {
        sql: `jsonb_set(CAST(${target.sql} AS jsonb), ${this.out.bind(path)}::text[], CAST(${value.sql} AS jsonb)${create})`,
        json: true,
      };
    }
    const converted = sqlitePath(path);
    if (converted === undefined) this.fail(`The path of ${name}() is written like '{currentAddress}'.`);
    const bound = this.out.bind(converted);
    const value = this.expr(args[2]!);
    if (args[3]) this.expr(args[3]);
    return { sql: `json_set(${target.sql}, ${bound}, json(${value.sql}))`, json: true };
  }

  private aggregate(node: Node): Sql {
    const name = String(node.name).toUpperCase();
    if (!AGGREGATES.has(name)) this.fail(`The aggregate ${name}() is not allowed in property.query.`);
    if (node.over) this.fail('Window functions are not allowed in property.query.');
    const arg = (node.args as { expr?: Node; distinct?: string } | undefined)?.expr;
    const distinct = (node.args as { distinct?: string } | undefined)?.distinct ? 'DISTINCT ' : '';
    const inner = arg?.type === 'star' ? '*' : this.expr(arg).sql;
    const sql = `${name}(${distinct}${inner})`;
    // PostgreSQL answers count and sum as bigint or numeric, which arrive as text: numbers are wanted.
    return { sql: this.pg && name !== 'MIN' && name !== 'MAX' ? `CAST(${sql} AS float8)` : sql, json: false };
  }
}
