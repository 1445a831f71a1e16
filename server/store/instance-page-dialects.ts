/** The two dialects of the instance listing's SQL (`instance-page-sql.ts`): SQLite's JSON1 and PostgreSQL's jsonb. */
import type { InstanceSqlDialect } from './instance-page-sql';

/** SQLite: `json_extract` (numbers stay numbers); a value that is not JSON reads as null, never an error. */
export const SQLITE_INSTANCE_DIALECT: InstanceSqlDialect = {
  placeholder: (index) => `@p${index}`,
  sortValue: (path) => `(CASE WHEN json_valid(value) THEN json_extract(value, ${path}) END)`,
  textValue: (path) =>
    `(CASE WHEN json_valid(value) THEN (CASE json_type(value, ${path}) WHEN 'true' THEN 'true' ` +
    `WHEN 'false' THEN 'false' ELSE CAST(json_extract(value, ${path}) AS TEXT) END) END)`,
  pathParam: (segments) => `$${segments.map((s) => `."${s}"`).join('')}`,
  indexOf: (haystack, needle) => `instr(${haystack}, ${needle})`,
  live: (now) => `(expires_at IS NULL OR expires_at > ${now})`,
};

const PG_JSON = `(CASE WHEN type LIKE 'application/json%' THEN value::jsonb END)`;

/**
 * PostgreSQL: `jsonb` paths (jsonb orders numbers numerically). Only JSON-typed values are cast, and the service
 * validates every instance written as JSON (object-schema-validator), so the cast is safe on the rows it reads.
 */
export const POSTGRES_INSTANCE_DIALECT: InstanceSqlDialect = {
  placeholder: (index) => `$${index}`,
  sortValue: (path) => `(${PG_JSON} #> ${path}::text[])`,
  textValue: (path) => `(${PG_JSON} #>> ${path}::text[])`,
  pathParam: (segments) => segments,
  indexOf: (haystack, needle) => `strpos(${haystack}, ${needle})`,
  live: (now) => `(expires_at IS NULL OR expires_at > ${now})`,
};
