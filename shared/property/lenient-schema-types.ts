/**
 * The type names real apps' object schemas use that JSON Schema lacks (the real product reads them leniently),
 * read the same way by the server's instance validation and the workbench's forms.
 */

/** JSON Schema's own type names. */
export const JSON_SCHEMA_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'null',
]);

/**
 * What each lenient name (by its lower case) is read as. Dates and times are text or epoch milliseconds; a form
 * draws them as text (the first).
 */
export const LENIENT_SCHEMA_TYPES: Readonly<Record<string, string | readonly string[]>> = {
  datetime: ['string', 'number'],
  date: ['string', 'number'],
  time: ['string', 'number'],
  timestamp: ['string', 'number'],
  localdate: ['string', 'number'],
  localdatetime: ['string', 'number'],
  instant: ['string', 'number'],
  int: 'integer',
  long: 'integer',
  short: 'integer',
  biginteger: 'integer',
  float: 'number',
  double: 'number',
  decimal: 'number',
  bigdecimal: 'number',
  bool: 'boolean',
  text: 'string',
  email: 'string',
  uri: 'string',
  url: 'string',
  uuid: 'string',
  list: 'array',
  map: 'object',
};

/** Keywords whose values are data, not schemas: a walk over a schema never reads them as one. */
export const SCHEMA_DATA_KEYWORDS: ReadonlySet<string> = new Set([
  'enum',
  'const',
  'default',
  'examples',
  'example',
]);
