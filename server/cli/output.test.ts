import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output, type Streams } from './output';

/** An Output writing into a buffer, as on a terminal of `columns` characters or in a pipe. */
function outputTo(columns: number | undefined): { out: Output; text: () => string } {
  const stdout = Object.assign(new PassThrough(), { isTTY: columns !== undefined, columns });
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const streams: Streams = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { NO_COLOR: '1' },
  };
  return { out: new Output(streams, false), text: () => text };
}

const rows = [['a1', 'x'.repeat(200)]];

describe('pi tables', () => {
  it('cut the last column to the width of the terminal', () => {
    const { out, text } = outputTo(60);
    out.table(['id', 'error'], rows);
    const lines = text().trimEnd().split('\n');
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    expect(lines[1]!.endsWith('…')).toBe(true);
  });

  it('cut nothing in a pipe', () => {
    const { out, text } = outputTo(undefined);
    out.table(['id', 'error'], rows);
    expect(text()).toContain('x'.repeat(200));
  });
});
