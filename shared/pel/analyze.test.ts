import { describe, expect, it } from 'vitest';
import { analyze } from './analyze';

describe('analyze', () => {
  it('classifies tokens of a template', () => {
    const a = analyze('Hi #{body.name.trim() and true} #{@date.now()}');
    expect(a.mode).toBe('template');
    expect(a.tokens.map((t) => `${t.type}:${t.value}`)).toEqual([
      'text:Hi ', 'delimiter:#{', 'root:body', 'punctuation:.', 'property:name', 'punctuation:.', 'method:trim',
      'punctuation:(', 'punctuation:)', 'operator:and', 'keyword:true', 'delimiter:}', 'text: ', 'delimiter:#{',
      'utility:@date', 'punctuation:.', 'method:now', 'punctuation:(', 'punctuation:)', 'delimiter:}',
    ]); // prettier-ignore
    expect(a.expressions.map((e) => e.ast?.type)).toEqual(['Binary', 'Call']);
    expect(a.diagnostics).toEqual([]);
  });

  it.each([
    ['#{1 +}', 'error', 'PEL_SYNTAX', 'UNEXPECTED_TOKEN', 5],
    ['a #{b', 'error', 'PEL_SYNTAX', 'UNTERMINATED_TEMPLATE', 2],
    ['#{foo}', 'warning', 'PEL_EVAL', 'UNKNOWN_NAME', 2],
    ['#{@nope.x()}', 'warning', 'PEL_EVAL', 'UNKNOWN_UTILITY', 2],
    ['#{@date.never()}', 'warning', 'PEL_EVAL', 'UNKNOWN_FUNCTION', 8],
    ["#{'open}", 'error', 'PEL_SYNTAX', 'UNTERMINATED_STRING', 2],
  ])('%s', (src, severity, code, reason, start) => {
    expect(analyze(src).diagnostics).toContainEqual(
      expect.objectContaining({ severity, code, reason, start }),
    );
  });

  it('accepts names of the current item inside selection', () => {
    expect(analyze('body.items.?[price > 1].![name]').diagnostics).toEqual([]);
  });

  it('gives line and column ranges', () => {
    const [d] = analyze('first\n#{ 1 + * }').diagnostics;
    expect(d).toMatchObject({ line: 2, column: 8, endLine: 2, endColumn: 9 });
  });

  it('never throws', () => {
    for (const src of ['', '#{', '#{}', "#{'", '#{#{#{', '}}}', '@', '#', '\u0000', '#{a.?[}']) {
      expect(() => analyze(src)).not.toThrow();
    }
  });

  it.each([
    ['a right-associative chain of 200,000', '2^'.repeat(200_000) + '2', 'TOO_DEEP'],
    ['300,000 tokens', `{${'a,'.repeat(150_000)}a}`, 'UNKNOWN_NAME'],
  ])('never throws on %s', (_what, source, reason) => {
    const a = analyze(source);
    expect(a.diagnostics.some((d) => d.reason === reason)).toBe(true);
  });
});
