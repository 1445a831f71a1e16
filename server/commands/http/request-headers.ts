/** The `headers` parameter of the http.* commands: a map, a list of `Name: value`, or `n1: v1, n2: v2`. */
import { PipeworkError } from '../../../shared/errors';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the client sets itself; a pipeline may not set them. */
const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

function invalid(message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter: 'headers' });
}

function pairOf(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw invalid(`A header must be written 'Name: value', got '${line}'.`);
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function pairsOf(raw: unknown): [string, string][] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') {
    // Split at the commas that start a new `Name:`, so values may hold commas themselves.
    return raw
      .split(/,\s*(?=[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:)/)
      .filter((part) => part.trim() !== '')
      .map(pairOf);
  }
  if (Array.isArray(raw)) {
    return raw.flatMap((item) => (typeof item === 'string' ? [pairOf(item)] : pairsOf(item)));
  }
  if (typeof raw === 'object') return Object.entries(raw).map(([k, v]) => [k, valueText(v)]);
  throw invalid('headers must be a map, a list of "Name: value" or a comma-separated text.');
}

/** Lower-cased header names and checked values; refuses names the client sets itself and line breaks. */
export function parseRequestHeaders(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairsOf(raw)) {
    if (!TOKEN.test(name)) throw invalid(`'${name}' is not a valid header name.`);
    if (/[\r\n\0]/.test(value)) throw invalid(`The value of header '${name}' holds a line break.`);
    // HTTP header values are bytes read as Latin-1: other characters cannot be sent (encode them first,
    // e.g. with @text.encodeURIComponent or as base64).
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
      throw invalid(
        `The value of header '${name}' holds a character outside Latin-1 (or a control character); encode it first.`,
      );
    }
    const key = name.toLowerCase();
    if (RESERVED.has(key)) throw invalid(`The header '${name}' is set by the client and cannot be given.`);
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}
