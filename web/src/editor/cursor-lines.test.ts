import { describe, expect, it } from 'vitest';
import { onCursorLine, publishCursorLine } from './cursor-lines';

describe('cursor lines', () => {
  it("gives a follower the model's last line at once, then each new line, until it stops", () => {
    publishCursorLine('file:///a.pi.yaml', 3);
    const seen: number[] = [];
    const stop = onCursorLine(
      (uri) => uri.endsWith('/a.pi.yaml'),
      (line) => seen.push(line),
    );
    publishCursorLine('file:///b.pi.yaml', 9);
    publishCursorLine('file:///a.pi.yaml', 4);
    publishCursorLine('file:///a.pi.yaml', 4);
    stop();
    publishCursorLine('file:///a.pi.yaml', 5);
    expect(seen).toEqual([3, 4]);
  });
});
