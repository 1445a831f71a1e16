/**
 * The SQL `property.query` builds, for one database: bound parameters (never spliced text), quoted names, and
 * the few spellings where SQLite and PostgreSQL differ. Everything user-written goes through `query-translate.ts`.
 */
import type { QueryDialect } from '../../../shared/property';

export class SqlBuilder {
  readonly params: unknown[] = [];

  constructor(readonly dialect: QueryDialect) {}

  /** A placeholder for `value`, bound at execution. */
  bind(value: unknown): string {
    this.params.push(value);
    return this.dialect === 'postgres' ? `$${this.params.length}` : '?';
  }

  /** A name we chose (an alias checked to be a plain identifier), quoted. */
  name(identifier: string): string {
    return `"${identifier.replace(/"/g, '""')}"`;
  }
}

/** A JSON path of PostgreSQL's text form (`{a,1}`) as SQLite's (`$."a"[1]`); PARAM_INVALID-worthy when malformed. */
export function sqlitePath(pgPath: string): string | undefined {
  const trimmed = pgPath.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  const inner = trimmed.slice(1, -1).trim();
  if (inner === '') return '$';
  let path = '$';
  for (const raw of inner.split(',')) {
    const part = raw.trim().replace(/^"(.*)"$/, '$1');
    path += /^\d+$/.test(part) ? `[${part}]` : `."${part.replace(/"/g, '\\"')}"`;
  }
  return path;
}
