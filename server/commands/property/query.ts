/** `property.query`: SQL-style queries over the properties the caller may read (docs/query.md). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { PropertyQueryService, QUERY_DEFAULT_LIMIT, QUERY_MAX_LIMIT } from '../../store/query/property-query';
import { integerParam, propertiesOf, textParam, type PropertyContext } from './property-command-support';

function paramsOf(ctx: PropertyContext): Record<string, unknown> {
  const raw = ctx.params.params;
  if (raw === undefined || raw === null || raw === '') return {};
  const value = typeof raw === 'string' ? safeParse(raw) : raw;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PipeworkError('PARAM_INVALID', 'params is a map of names to values.', { parameter: 'params' });
  }
  return value as Record<string, unknown>;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PipeworkError('PARAM_INVALID', 'params is a map (JSON object) of names to values.', {
      parameter: 'params',
    });
  }
}

export const propertyQuery = defineCommand<ServerServices>(
  {
    name: 'property.query',
    summary:
      'Queries the properties the caller may read with SQL-style select, from (key patterns) and where.',
    description:
      'Parsed by a SQL parser and translated for the database (SQLite or PostgreSQL) from an allowlist: ' +
      'property attributes (key, uuid, value, type, created, updated, timeToLive), ::json/::jsonb and plain casts, ' +
      'the operators -> ->> #> #>> ? comparisons LIKE IN BETWEEN IS, a few functions (jsonb_set, to_jsonb, ' +
      'json_array_length, lower, upper, length, coalesce, ...) and count/sum/avg/min/max. Values come only ' +
      'through :name params, bound. One result column gives a list of values, several a list of lists, ' +
      'select * the properties. Pages of at most 10,000 rows (limit, offset); 5 seconds at most.',
    parameters: {
      dialect: {
        type: 'string',
        enum: ['postgres'],
        default: 'postgres',
        description: 'The query language: postgres.',
      },
      select: { type: 'string', description: 'What to return; empty or * for the properties themselves.' },
      from: {
        type: 'string',
        description:
          'Key patterns, comma separated, each named with as when there are several: global/app/a/* as a.',
      },
      where: {
        type: 'string',
        description: 'The condition, optionally followed by GROUP BY, ORDER BY and LIMIT.',
      },
      type: {
        type: 'string',
        default: 'application/json',
        description: "The property type to query; '' or * for every type.",
      },
      params: {
        type: ['object', 'string'],
        description: 'Values of the :name parameters of the query (bound, never spliced into it).',
      },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: QUERY_MAX_LIMIT,
        default: QUERY_DEFAULT_LIMIT,
        description: 'Rows of the page (a Pipework addition).',
      },
      offset: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Rows skipped before the page (a Pipework addition).',
      },
    },
    required: ['from'],
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Customers whose last name starts with M',
        pipeline:
          "pipeline:\n  - property.query:\n      select: value::json\n      from: global/app/myapp/data/customer/*\n      where: value::json ->> 'lastName' LIKE :prefix\n      params:\n        prefix: M%\n",
      },
    ],
  },
  (ctx) =>
    new PropertyQueryService(propertiesOf(ctx)).query(ctx.principal, {
      select: textParam(ctx, 'select'),
      from: textParam(ctx, 'from') ?? '',
      where: textParam(ctx, 'where'),
      type: ctx.params.type === undefined ? undefined : String(ctx.params.type ?? ''),
      params: paramsOf(ctx),
      limit: integerParam(ctx, 'limit'),
      offset: integerParam(ctx, 'offset'),
    }),
);
