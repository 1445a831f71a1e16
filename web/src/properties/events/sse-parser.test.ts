import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse-parser';

describe('createSseParser', () => {
  it('reads messages split anywhere across chunks, skipping comments', () => {
    const feed = createSseParser();
    const text = 'retry: 3000\n: connected\n\nid: 7\nevent: property.created\ndata: {"a":1}\n\n: ping\n\n';
    const messages = [];
    for (const ch of text) messages.push(...feed(ch));
    expect(messages).toEqual([{ id: '7', event: 'property.created', data: '{"a":1}' }]);
  });

  it('joins multi-line data and accepts CRLF', () => {
    const feed = createSseParser();
    expect(feed('data: one\r\ndata: two\r\n\r\n')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });
});
