/** Reads the server's event stream (GET /api/v3/events, server-sent events) in tests, message by message. */

/** One message of the stream: its `id` and `event` fields as sent, its `data` parsed as JSON. */
export interface StreamedEvent<Data = unknown> {
  id: string;
  event: string;
  data: Data;
}

/**
 * Opens the stream at `url` and collects its messages into `events` as they arrive, each through `shape`,
 * until `stop()`. `response` settles once the server answered; a failed or aborted stream just ends.
 */
export function followEventStream<T = StreamedEvent>(
  url: string,
  headers: Record<string, string>,
  shape: (message: StreamedEvent) => T = (message) => message as T,
) {
  const controller = new AbortController();
  const events: T[] = [];
  const response = fetch(url, { headers, signal: controller.signal });
  const reading = response
    .then(async (answer) => {
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':') && l.includes(': '))
              .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
          );
          if (fields.data)
            events.push(shape({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) }));
        }
      }
    })
    .catch(() => undefined);
  return {
    response,
    events,
    async stop() {
      controller.abort();
      await reading;
    },
  };
}
