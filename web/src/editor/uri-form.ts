/**
 * Writes a pipeline document as a pipeline URI (`datetime?format=dd.MM.yyyy|log`), the inverse of
 * shared/pipeline/parse-uri: values are percent-encoded where the parser would split or decode them;
 * `#{...}` expressions stay readable (only `%` and line breaks in them are encoded).
 */
import { splitOutsideExpressions } from '../../../shared/pipeline/parse-uri';

export interface UriFormOptions {
  /** The default parameter of a command, for the short form `- name: value` (none: the step cannot be a URI). */
  defaultParameter?(command: string): string | undefined;
}

/** Thrown when a pipeline cannot be written in the requested form; the message says why. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/** Characters the URI parser splits at or trims, when they are outside `#{...}` (inside, it keeps them). */
const SEPARATORS = ['|', '&', ' ', '\t'];
/** Characters that are encoded wherever they are: `%` (decoded even inside `#{...}`) and control characters. */
const ALWAYS = /[%\p{Cc}]/u;

function percent(ch: string): string {
  return encodeURIComponent(ch);
}

/**
 * Percent-encodes a value (or, with `key`, a parameter name) for the URI form, so that the parser reads back
 * exactly `text`. Inside and outside of `#{...}` are told apart by the URI parser's own splitter.
 */
export function encodeUriValue(text: string, key = false): string {
  const outside = new Set<number>();
  for (const separator of SEPARATORS) {
    const parts = splitOutsideExpressions(text, separator, 0, text.length);
    for (const [, end] of parts.slice(0, -1)) outside.add(end);
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    out += outside.has(i) || ALWAYS.test(ch) || (key && ch === '=') ? percent(ch) : ch;
  }
  return out;
}

function scalarText(command: string, key: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ConversionError(
    `The parameter '${key}' of '${command}' is ${Array.isArray(value) ? 'a nested list' : 'a map'}, which a pipeline URI cannot hold.`,
  );
}

function parameterPairs(command: string, params: Record<string, unknown>): string[] {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values)
      pairs.push(`${encodeUriValue(key, true)}=${encodeUriValue(scalarText(command, key, item))}`);
  }
  return pairs;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stepText(item: unknown, index: number, options: UriFormOptions): string {
  if (typeof item === 'string') return item;
  if (!isMap(item) || Object.keys(item).length !== 1) {
    throw new ConversionError(`Command ${index + 1} is not a command name with its parameters.`);
  }
  const [command, value] = Object.entries(item)[0]!;
  if (value === null || value === undefined) return command;
  let params: Record<string, unknown>;
  if (isMap(value)) params = value;
  else {
    const name = options.defaultParameter?.(command);
    if (!name) {
      throw new ConversionError(
        `Command ${index + 1} ('${command}') uses the short form; write its parameter by name for the URI form.`,
      );
    }
    params = { [name]: value };
  }
  const pairs = parameterPairs(command, params);
  return pairs.length === 0 ? command : `${command}?${pairs.join('&')}`;
}

/** The URI form of a pipeline document; throws ConversionError for what a URI cannot hold (headers, vars, body). */
export function documentToUri(document: unknown, options: UriFormOptions = {}): string {
  if (!isMap(document)) throw new ConversionError('The pipeline is not a map with a pipeline list.');
  for (const section of ['headers', 'vars', 'body'] as const) {
    const value = document[section];
    const empty = value === undefined || value === null || (isMap(value) && Object.keys(value).length === 0);
    if (!empty)
      throw new ConversionError(`A pipeline URI cannot hold the '${section}' section; remove it first.`);
  }
  const steps = document.pipeline;
  if (!Array.isArray(steps) || steps.length === 0) return '';
  return steps.map((item, index) => stepText(item, index, options)).join('|');
}
