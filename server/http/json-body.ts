/** Parses a JSON request body with clear errors (line and column) and a nesting limit. */
import { PipeworkError } from '../../shared/errors';
import { jsonDepthExceeds, textPosition } from '../../shared/values';

/** Deeper documents are refused: later steps (validation, copying) should never have to fear the stack. */
export const MAX_JSON_DEPTH = 256;

/** JSON.parse, but bad input becomes BAD_REQUEST with where it went wrong. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(reason)?.[1];
    const place = position === undefined ? undefined : textPosition(text, Number(position));
    const where = place ? ` at ${place.line}:${place.column}` : '';
    throw new PipeworkError(
      'BAD_REQUEST',
      `The body is not valid JSON${where}: ${reason.replace(/ in JSON at position \d+.*/, '')}`,
      place ?? {},
    );
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw new PipeworkError('BAD_REQUEST', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      limit: 'depth',
    });
  }
  return value;
}
