/** `transform.csv.json` and `transform.json.csv`: CSV text to the real product's JSON form and back (papaparse). */
import Papa from 'papaparse';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { inputJson, inputText } from './input-text';

const DELIMITER = {
  type: 'string',
  maxLength: 1,
  description: 'The field separator; empty: guessed from the text (reading) or a comma (writing).',
} as const;

const FLAG = (description: string) => ({ type: 'boolean', default: true, description }) as const;

/** The real product's result of `transform.csv.json`: the rows and, unless hidden, the counts and the header names. */
interface CsvJson {
  columnsCount?: number;
  rowsCount?: number;
  headers?: string[];
  rows: string[][] | Record<string, string>[];
}

export const csvToJson = defineCommand(
  {
    name: 'transform.csv.json',
    summary:
      'Reads CSV text (RFC 4180) into {columnsCount, rowsCount, headers, rows}: rows as lists of values, or as objects by the header line.',
    description:
      'Values stay text. With a header line (the default) its names go to `headers` and `rows` holds the other lines; `showHeadersField: false` keeps the header line as the first row instead (and counts it). `rowsFormat: objects` makes each row an object keyed by the header names.',
    parameters: {
      delimiter: { type: 'string', maxLength: 1, default: ',', description: 'The field separator.' },
      hasHeadersLine: FLAG('The first line holds the column names.'),
      rowsFormat: {
        type: 'string',
        enum: ['arrays', 'objects'],
        default: 'arrays',
        description:
          "'arrays': each row a list of values; 'objects': each row an object keyed by the header names.",
      },
      showColumnsCountField: FLAG('Adds `columnsCount`, the number of columns.'),
      showRowsCountField: FLAG('Adds `rowsCount`, the number of rows.'),
      showHeadersField: FLAG(
        'Adds `headers`, the column names (with a header line only); false keeps the header line in `rows`.',
      ),
    },
    input: 'text',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'CSV to rows of values',
        pipeline: 'pipeline:\n  - transform.csv.json:\n      input: "name,qty\\npen,2\\nbook,1\\n"\n',
      },
      {
        title: 'CSV to objects, no counts',
        pipeline:
          'body: "name,qty\\npen,2\\n"\npipeline:\n  - transform.csv.json:\n      rowsFormat: objects\n      showColumnsCountField: false\n      showRowsCountField: false\n',
      },
    ],
  },
  (ctx) => {
    const text = inputText(ctx.input, 'transform.csv.json', 'CSV');
    const p = ctx.params;
    const delimiter = typeof p.delimiter === 'string' && p.delimiter !== '' ? p.delimiter : ',';
    const result = Papa.parse<string[]>(text, { header: false, delimiter, skipEmptyLines: 'greedy' });
    const fatal = result.errors.find((e) => e.type === 'Quotes');
    if (fatal) {
      throw new PipeworkError('BAD_REQUEST', `transform.csv.json: ${fatal.message} (row ${fatal.row ?? 0}).`);
    }
    const lines = result.data;
    const hasHeaders = p.hasHeadersLine !== false;
    const headers = hasHeaders ? (lines[0] ?? []) : undefined;
    const values = hasHeaders ? lines.slice(1) : lines;
    const out: CsvJson = { rows: [] };
    if (p.showColumnsCountField !== false)
      out.columnsCount = headers?.length ?? lines.reduce((n, l) => Math.max(n, l.length), 0);
    if (p.rowsFormat === 'objects') {
      if (!headers) {
        throw new PipeworkError(
          'PARAM_INVALID',
          "transform.csv.json: rowsFormat 'objects' needs the header line for the keys (hasHeadersLine: true).",
          { parameter: 'rowsFormat' },
        );
      }
      if (headers.includes('__proto__')) {
        // Decision (issue 18): a row is a plain object, where this name cannot be an own key; refused clearly
        // rather than dropped silently.
        throw new PipeworkError(
          'BAD_REQUEST',
          "transform.csv.json: the column name '__proto__' cannot be a key of a row; rename the column, or keep rowsFormat 'arrays'.",
        );
      }
      out.rows = values.map((line) => Object.fromEntries(headers.map((h, i) => [h, line[i] ?? ''])));
    } else {
      out.rows = hasHeaders && p.showHeadersField === false ? lines : values;
    }
    if (p.showRowsCountField !== false) out.rowsCount = out.rows.length;
    if (headers && p.showHeadersField !== false) out.headers = headers;
    // The real product's field order.
    return {
      ...(out.columnsCount !== undefined && { columnsCount: out.columnsCount }),
      ...(out.rowsCount !== undefined && { rowsCount: out.rowsCount }),
      ...(out.headers && { headers: out.headers }),
      rows: out.rows,
    };
  },
);

function csvJsonShape(data: unknown): { rows: unknown[]; headers?: string[] } | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { rows, headers } = data as { rows?: unknown; headers?: unknown };
  if (!Array.isArray(rows)) return undefined;
  return { rows, headers: Array.isArray(headers) ? headers.map(String) : undefined };
}

function columnsOf(rows: unknown[], given: unknown): string[] | undefined {
  if (Array.isArray(given)) return given.map(String);
  if (typeof given === 'string' && given.trim() !== '') return given.split(',').map((c) => c.trim());
  if (rows.every((r) => Array.isArray(r))) return undefined;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row !== null && typeof row === 'object' && !Array.isArray(row))
      for (const k of Object.keys(row)) seen.add(k);
  }
  return [...seen];
}

export const jsonToCsv = defineCommand(
  {
    name: 'transform.json.csv',
    summary:
      'Writes a list of objects (or lists), or the form transform.csv.json gives, as CSV text with a header line.',
    description:
      'Values that a spreadsheet would run as a formula (starting with =, +, -, @) are written with a leading quote unless `escapeFormulae` is false.',
    parameters: {
      delimiter: DELIMITER,
      header: { type: 'boolean', default: true, description: 'Writes the column names as the first line.' },
      columns: {
        type: ['array', 'string'],
        items: { type: 'string' },
        description:
          'The columns and their order (a list or comma-separated); by default every key of the rows.',
      },
      escapeFormulae: {
        type: 'boolean',
        default: true,
        description: 'Guards values a spreadsheet would run as formulas.',
      },
    },
    input: 'json',
    output: 'text',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Objects to CSV',
        pipeline: 'body: [{name: pen, qty: 2}, {name: book, qty: 1}]\npipeline:\n  - transform.json.csv\n',
      },
    ],
  },
  (ctx) => {
    const data = inputJson(ctx.input, 'transform.json.csv');
    // What transform.csv.json gives ({headers, rows}) goes back as it came.
    const shaped = csvJsonShape(data);
    const rows = shaped ? shaped.rows : Array.isArray(data) ? data : [data];
    if (rows.some((r) => r === null || typeof r !== 'object')) {
      throw new PipeworkError('BAD_REQUEST', 'transform.json.csv needs a list of objects or of lists.');
    }
    const columns = columnsOf(rows, ctx.params.columns ?? shaped?.headers);
    const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
    const prepared = rows.map((row) =>
      Array.isArray(row) ? row.map(cell) : columns!.map((c) => cell((row as Record<string, unknown>)[c])),
    );
    return Papa.unparse(
      { fields: columns ?? [], data: prepared },
      {
        header: ctx.params.header !== false && columns !== undefined,
        delimiter:
          typeof ctx.params.delimiter === 'string' && ctx.params.delimiter ? ctx.params.delimiter : ',',
        escapeFormulae: ctx.params.escapeFormulae !== false,
        newline: '\n',
      },
    );
  },
);
