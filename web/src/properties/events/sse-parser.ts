/** Reads a Server-Sent Events stream chunk by chunk (fetch streaming: EventSource cannot send a Bearer token). */

export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Returns a feeder: give it decoded text as it arrives; it returns the messages completed by that text. */
export function createSseParser(): (text: string) => SseMessage[] {
  let buffer = '';
  let event = '';
  let id: string | undefined;
  let data: string[] = [];
  return (text) => {
    buffer += text;
    const out: SseMessage[] = [];
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) out.push({ id, event: event || 'message', data: data.join('\n') });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
    }
    return out;
  };
}
