/**
 * Rewrites `:name` placeholders to PostgreSQL's `$1, $2, ...`, skipping string literals, quoted names,
 * dollar-quoted bodies, comments and `::` casts. Values are never put into the text: only positions are.
 */
import { PipeworkError } from '../../shared/errors';

export interface PositionalQuery {
  text: string;
  names: string[];
}

function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

export function toPositional(sql: string): PositionalQuery {
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    let end = i + 1;
    if (c === "'" || c === '"') end = skipQuoted(sql, i, c);
    else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      end = nl < 0 ? sql.length : nl;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      end = close < 0 ? sql.length : close + 2;
    } else if (c === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        end = close < 0 ? sql.length : close + tag[0].length;
      }
    } else if (c === ':' && sql[i + 1] === ':') end = i + 2;
    else if (c === ':' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      out += `$${index + 1}`;
      i += 1 + name.length;
      continue;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return { text: out, names };
}

/** The values of a named query in placeholder order; a name without a value is an error. */
export function namedValues(names: string[], params: Record<string, unknown>): unknown[] {
  return names.map((name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      throw new PipeworkError('PARAM_INVALID', `The query uses :${name}, which params does not give.`, {
        parameter: 'params',
      });
    }
    return params[name];
  });
}
