/** `sql.query`: one statement on a configured data source, values bound as parameters; rows as JSON. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { containsExpression } from '../../../shared/pel';
import type { SqlParams } from '../../datasources/data-source';
import { toJsonValue } from '../../datasources/sql-values';
import type { ServerServices } from '../../services';
import { runMaskOf } from '../../runs/run-scope';

/** `params` as written: a list or map, or their JSON text (as a query string carries it). */
function paramsOf(raw: unknown): SqlParams {
  if (raw === undefined || raw === null || raw === '') return [];
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
  }
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return value as Record<string, unknown>;
  throw new PipeworkError(
    'PARAM_INVALID',
    "Parameter 'params' must be a list (for $1, ?) or a map (for :name).",
    {
      parameter: 'params',
    },
  );
}

export const sqlQuery = defineCommand<ServerServices>(
  {
    name: 'sql.query',
    summary: 'Runs one SQL statement on a configured data source and returns its rows as a list of objects.',
    description:
      'Data sources are configured with PIPEWORK_DATASOURCE_<NAME>_URL (postgres://... or a SQLite file as sqlite:<path>) and are read-only unless PIPEWORK_DATASOURCE_<NAME>_WRITE=true; PIPEWORK_DATASOURCE_<NAME>_SECRET names a username-password secret of the installation a PostgreSQL source logs in with. Values go in `params` and are bound, never put into the SQL text: a list for $1, $2 (PostgreSQL) or ? (SQLite), a map for :name. PIPEWORK_SQL_MAX_ROWS and PIPEWORK_SQL_TIMEOUT_MILLIS bound every query. A statement that writes answers `[{"changes": n}]` on SQLite.',
    parameters: {
      query: {
        type: 'string',
        minLength: 1,
        description: 'The SQL statement (one), taken as written: #{...} is refused, values go in params.',
      },
      datasource: {
        type: 'string',
        default: 'hub',
        description: 'The name of the data source (PIPEWORK_DATASOURCE_<NAME>_URL).',
      },
      params: {
        type: ['array', 'object', 'string'],
        description: 'The values of the placeholders: a list ($1 / ?) or a map (:name).',
      },
      columnName: {
        type: 'string',
        default: 'inline',
        description:
          'inline: each row is an object of column → value; none: each row is a list of values; any other name: a map with the rows as lists under `dataField` and the column names under this name.',
      },
      dataField: {
        type: 'string',
        default: 'data',
        description: 'Where the rows go when columnName names a separate field.',
      },
    },
    required: ['query'],
    defaultParameter: 'query',
    // Taken as written: a #{...} in the query text would splice a value into SQL.
    rawParameters: ['query'],
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Orders of a customer',
        pipeline:
          'vars:\n  customer: 42\npipeline:\n  - sql.query:\n      datasource: shop\n      query: "SELECT id, total FROM orders WHERE customer_id = $1"\n      params: ["#{vars.customer}"]\n',
      },
    ],
  },
  async (ctx) => {
    const query = String(ctx.params.query);
    if (containsExpression(query)) {
      throw new PipeworkError(
        'PARAM_INVALID',
        'The query may not contain #{...}: values go in params and are bound ($1 or ? or :name), never written into the SQL.',
        { parameter: 'query' },
      );
    }
    const datasource = typeof ctx.params.datasource === 'string' ? ctx.params.datasource : 'hub';
    const result = await ctx.services.dataSources.query(
      runMaskOf(ctx.services),
      datasource,
      query,
      paramsOf(ctx.params.params),
      ctx.abortSignal(),
    );
    const rows = result.rows.map((row) => row.map(toJsonValue));
    const columnName = typeof ctx.params.columnName === 'string' ? ctx.params.columnName : 'inline';
    if (columnName === 'none') return rows;
    if (columnName === 'inline' || columnName === '') {
      return rows.map((row) => {
        const object: Record<string, unknown> = {};
        // defineProperty: a column named __proto__ is data, not the object's prototype.
        result.columns.forEach((column, i) =>
          Object.defineProperty(object, column, {
            value: row[i],
            enumerable: true,
            writable: true,
            configurable: true,
          }),
        );
        return object;
      });
    }
    const dataField =
      typeof ctx.params.dataField === 'string' && ctx.params.dataField ? ctx.params.dataField : 'data';
    return { [dataField]: rows, [columnName]: result.columns };
  },
);
