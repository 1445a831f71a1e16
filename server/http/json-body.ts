/** Parses a JSON request body with clear errors (line and column) and a nesting limit. */
import { PipeworkError } from '../../shared/errors';
import { jsonDepthExceeds } from '../../shared/values';

/** Deeper documents are refused: later steps (validation, copying) should never have to fear the stack. */
export const MAX_JSON_DEPTH = 256;

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** JSON.parse, but bad input becomes BAD_REQUEST with where it went wrong. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(reason)?.[1];
    const place = position === undefined ? undefined : lineAndColumn(text, Number(position));
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
