import { describe, expect, it } from 'vitest';
import { complete } from './complete';

const scope = {
  body: { target: { key: 'k', value: { action: 'block' } }, items: [{ price: 1, name: 'pen' }] },
  vars: { protocol: { action: 'opened' }, count: 1 },
};

const labels = (src: string, offset = src.length): string[] =>
  complete(src, offset, scope).items.map((i) => i.label);

describe('complete', () => {
  it.each([
    ['#{', ['body', 'vars', 'headers']],
    ['#{bo', ['body']],
    ['#{body.', ['target', 'items', 'size']],
    ['#{body.target.va', ['value', 'values']],
    ['#{body.target.key.sta', ['startsWith']],
    ['#{vars.', ['protocol', 'count']],
    ['#{#', ['this', 'root', 'protocol', 'count']],
    ['#{@d', ['@data', '@date']],
    ['#{@date.f', ['format', 'fromSeconds']],
    ['#{body.items.?[pr', ['price', '@property']],
    ['#{body.items[0].', ['price', 'name']],
    ['plain #{vars.protocol.', ['action']],
  ])('%s', (src, expected) => {
    expect(labels(src)).toEqual(expect.arrayContaining(expected));
  });

  it('replaces the word being typed', () => {
    expect(complete('#{body.tar', 10, scope)).toMatchObject({ from: 7, to: 10 });
  });

  it('gives signatures of utility functions', () => {
    const item = complete('#{@date.', 8, scope).items.find((i) => i.label === 'format');
    expect(item).toMatchObject({
      kind: 'function',
      detail: '@date.format(inputDate, inputFormat, outputFormat)',
      insertText: 'format(',
    });
  });

  it('proposes nothing outside #{...} in a template', () => {
    expect(complete('text #{x} more', 3, scope).items).toEqual([]);
  });

  it('works on bare expressions', () => {
    expect(complete('body.', 5, scope, 'expression').items.map((i) => i.label)).toContain('target');
  });

  it.each([1e9, -5, Number.NaN, 3.7])('clamps the offset %s to the text', (offset) => {
    const started = performance.now();
    const result = complete('body.', offset, scope);
    expect(result.from).toBeGreaterThanOrEqual(0);
    expect(result.to).toBeLessThanOrEqual(5);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
