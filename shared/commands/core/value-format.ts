/** The `format` parameter of `set.body` / `set.var`: turns a text value into the JSON value it spells, or not. */
import { PipeworkError } from '../../errors';
import type { JsonSchema } from '../json-schema';

export const FORMAT_PARAMETER: JsonSchema = {
  type: 'string',
  enum: ['auto', 'none', 'json', 'text'],
  default: 'auto',
  description:
    "'auto' turns text that is a JSON object, list, number, boolean or null into that value; 'none' or 'text' keeps text; 'json' requires JSON.",
};

/** Converts per the format; with 'auto', text that is not JSON stays text. */
export function convertFormat(value: unknown, format: unknown): unknown {
  if (typeof value !== 'string' || format === 'none' || format === 'text') return value;
  const trimmed = value.trim();
  if (format !== 'json' && !/^[[{"\-0-9tfn]/.test(trimmed)) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch (error) {
    if (format === 'json') {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PipeworkError('PARAM_INVALID', `The value is not JSON (format 'json'): ${reason}`, {
        parameter: 'value',
      });
    }
    return value;
  }
}
