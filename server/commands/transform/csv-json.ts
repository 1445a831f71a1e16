/** `transform.csv.json` and `transform.json.csv`: CSV text to a list of rows and back (papaparse). */
import Papa from 'papaparse';
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { inputJson, inputText } from './input-text';

const DELIMITER = {
  type: 'string',
  maxLength: 1,
  description: 'The field separator; empty: guessed from the text (reading) or a comma (writing).',
} as const;

export const csvToJson = defineCommand(
  {
    name: 'transform.csv.json',
    summary: 'Reads CSV text into a list of rows: objects by the header line, or lists of values.',
    parameters: {
      delimiter: DELIMITER,
      header: {
        type: 'boolean',
        default: true,
        description:
          'The first line names the columns: each row becomes an object. False: each row is a list.',
      },
      types: {
        type: 'boolean',
        default: false,
        description: 'Reads numbers and true/false as such; false keeps every value as text.',
      },
    },
    input: 'text',
    output: 'json',
    effect: 'read',
    examples: [
      {
        title: 'CSV to objects',
        pipeline:
          'body: "name,qty\\npen,2\\nbook,1\\n"\npipeline:\n  - transform.csv.json:\n      types: true\n',
      },
    ],
  },
  (ctx) => {
    const text = inputText(ctx.input, 'transform.csv.json', 'CSV');
    const header = ctx.params.header !== false;
    const result = Papa.parse<unknown>(text, {
      header,
      delimiter: typeof ctx.params.delimiter === 'string' ? ctx.params.delimiter : '',
      dynamicTyping: ctx.params.types === true,
      skipEmptyLines: 'greedy',
    });
    const fatal = result.errors.find((e) => e.type === 'Quotes' || (e.type === 'FieldMismatch' && !header));
    if (fatal) {
      throw new PipeworkError('BAD_REQUEST', `transform.csv.json: ${fatal.message} (row ${fatal.row ?? 0}).`);
    }
    if (header && result.meta.fields?.includes('__proto__')) {
      // Decision (issue 18): a row is a plain object, where this name cannot be an own key; refused clearly
      // rather than dropped silently.
      throw new PipeworkError(
        'BAD_REQUEST',
        "transform.csv.json: the column name '__proto__' cannot be a key of a row; rename the column, or read the rows as lists with header: false.",
      );
    }
    if (header) {
      // A row with more fields than the header gets them under __parsed_extra: keep rows plain.
      for (const row of result.data as Record<string, unknown>[]) delete row.__parsed_extra;
    }
    return result.data;
  },
);

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
    summary: 'Writes a list of objects (or lists) as CSV text, with a header line.',
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
    examples: [
      {
        title: 'Objects to CSV',
        pipeline: 'body: [{name: pen, qty: 2}, {name: book, qty: 1}]\npipeline:\n  - transform.json.csv\n',
      },
    ],
  },
  (ctx) => {
    const data = inputJson(ctx.input, 'transform.json.csv');
    const rows = Array.isArray(data) ? data : [data];
    if (rows.some((r) => r === null || typeof r !== 'object')) {
      throw new PipeworkError('BAD_REQUEST', 'transform.json.csv needs a list of objects or of lists.');
    }
    const columns = columnsOf(rows, ctx.params.columns);
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
