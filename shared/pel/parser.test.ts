import { describe, expect, it } from 'vitest';
import type { PelNode } from './ast';
import { parseExpression } from './parser';
import { isPipeworkError } from '../errors';

/** A compact, readable form of a tree: (op left right). */
function show(n: PelNode): string {
  switch (n.type) {
    case 'Literal':
      return JSON.stringify(n.value);
    case 'Identifier':
      return n.name;
    case 'Variable':
      return `#${n.name}`;
    case 'Utility':
      return `@${n.name}`;
    case 'Property':
      return `${show(n.object)}${n.safe ? '?.' : '.'}${n.name}`;
    case 'Index':
      return `${show(n.object)}[${show(n.index)}]`;
    case 'Call':
      return `${n.object ? `${show(n.object)}.` : ''}${n.name}(${n.args.map(show).join(', ')})`;
    case 'Selection':
      return `${show(n.object)}.${{ all: '?', first: '^', last: '$' }[n.kind]}[${show(n.predicate)}]`;
    case 'Projection':
      return `${show(n.object)}.![${show(n.mapper)}]`;
    case 'Unary':
      return `(${n.operator} ${show(n.operand)})`;
    case 'Binary':
      return `(${n.operator} ${show(n.left)} ${show(n.right)})`;
    case 'Ternary':
      return `(? ${show(n.test)} ${show(n.consequent)} ${show(n.alternate)})`;
    case 'Elvis':
      return `(?: ${show(n.left)} ${show(n.right)})`;
    case 'Assign':
      return `(= ${show(n.target)} ${show(n.value)})`;
    case 'List':
      return `{${n.elements.map(show).join(', ')}}`;
    case 'Map':
      return `{${n.entries.map((e) => `${e.key}: ${show(e.value)}`).join(', ')}}`;
  }
}

describe('parseExpression', () => {
  it.each([
    ['1 + 2 * 3', '(add 1 (mul 2 3))'],
    ['1 - 2 - 3', '(sub (sub 1 2) 3)'],
    ['2 ^ 3 ^ 2', '(pow 2 (pow 3 2))'],
    ['-2 ^ 2', '(pow (neg 2) 2)'],
    ['a or b and c', '(or a (and b c))'],
    ['not a == b', '(eq (not a) b)'],
    ['a lt b AND c ge d', '(and (lt a b) (ge c d))'],
    ['x matches y or z', '(or (matches x y) z)'],
    ['a ? b : c ? d : e', '(? a b (? c d e))'],
    ['a ?: b ?: c', '(?: a (?: b c))'],
    ['vars.x = vars.y = 1', '(= vars.x (= vars.y 1))'],
    ['a?.b.c[0]', 'a?.b.c[0]'],
    ['list.?[x > 1].![y]', 'list.?[(gt x 1)].![y]'],
    ['list?[x]', 'list.?[x]'],
    ['l.^[a].$[b]', 'l.^[a].$[b]'],
    ["@date.format(x, 'y')", '@date.format(x, "y")'],
    ['{1, {a: 2}, {:}, {}}', '{1, {a: 2}, {}, {}}'],
    ['#{ #{ body } }', 'body'],
    ['size()', 'size()'],
  ])('%s', (src, expected) => {
    expect(show(parseExpression(src))).toBe(expected);
  });

  it.each([
    ['1 +', 'PEL_SYNTAX', 'UNEXPECTED_TOKEN'],
    ['a.b(', 'PEL_SYNTAX', 'UNEXPECTED_TOKEN'],
    ['1 = 2', 'PEL_SYNTAX', 'NOT_ASSIGNABLE'],
    ['T(x)', 'PEL_SYNTAX', 'UNSUPPORTED'],
    ['@x', 'PEL_SYNTAX', 'BAD_UTILITY_USE'],
    ['('.repeat(1000) + '1' + ')'.repeat(1000), 'LIMIT_EXCEEDED', 'TOO_DEEP'],
    // A right-associative chain recursed without counting: 200,000 of them overflowed the stack.
    ['2^'.repeat(200_000) + '2', 'LIMIT_EXCEEDED', 'TOO_DEEP'],
    ['1e309', 'PEL_SYNTAX', 'BAD_NUMBER'],
  ])('rejects %s', (src, code, reason) => {
    let error: unknown;
    try {
      parseExpression(src);
    } catch (e) {
      error = e;
    }
    expect(isPipeworkError(error) && [error.code, error.details.reason]).toEqual([code, reason]);
  });

  it('records positions relative to the parsed source', () => {
    const ast = parseExpression('xx #{a.b} yy', 5, 8);
    expect(ast).toMatchObject({ type: 'Property', start: 5, end: 8, nameStart: 7 });
  });
});
