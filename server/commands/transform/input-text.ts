/** The input of a text conversion: text as it is, bytes decoded as UTF-8; anything else is refused. */
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent } from '../../../shared/values';

/** Text a conversion reads at most (characters), so one request cannot build an enormous structure. */
export const MAX_CONVERSION_TEXT = 20 * 1024 * 1024;

export function inputText(input: unknown, command: string, what: string): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else if (isBinaryContent(input)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input.data);
    } catch {
      throw new PipeworkError(
        'BAD_REQUEST',
        `${command} needs ${what} as UTF-8 text; the input bytes are not.`,
      );
    }
  } else if (input instanceof Uint8Array) text = new TextDecoder().decode(input);
  else {
    throw new PipeworkError(
      'BAD_REQUEST',
      `${command} needs ${what} as text in the body (or input); it got ${input === null || input === undefined ? 'nothing' : Array.isArray(input) ? 'a list' : typeof input === 'object' ? 'a map' : typeof input}.`,
    );
  }
  if (text.length > MAX_CONVERSION_TEXT) {
    throw new PipeworkError(
      'PAYLOAD_TOO_LARGE',
      `${command} reads at most ${MAX_CONVERSION_TEXT} characters.`,
    );
  }
  return text.replace(/^\uFEFF/, '');
}

/** A JSON input: structures as they are; text (or bytes) parsed as JSON. */
export function inputJson(input: unknown, command: string): unknown {
  if (
    input !== null &&
    typeof input === 'object' &&
    !isBinaryContent(input) &&
    !(input instanceof Uint8Array)
  ) {
    return input;
  }
  if (typeof input === 'number' || typeof input === 'boolean') return input;
  const text = inputText(input, command, 'JSON');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PipeworkError(
      'BAD_REQUEST',
      `${command}: the input is not JSON (${(error as Error).message}).`,
    );
  }
}
