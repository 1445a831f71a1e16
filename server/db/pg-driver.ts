/**
 * The PostgreSQL driver (`pg`), loaded at its first use rather than at start: a server on SQLite never loads
 * it. Its import alone costs about 100 ms (it builds a fetch `Response` to tell whether it runs on Cloudflare,
 * which loads Node's fetch implementation). Loaded with Node's own `require`, so the server bundle leaves it in
 * node_modules too.
 */
import { createRequire } from 'node:module';
import type PgModule from 'pg';

let driver: typeof PgModule | undefined;

export function pgDriver(): typeof PgModule {
  driver ??= createRequire(import.meta.url)('pg') as typeof PgModule;
  return driver;
}
