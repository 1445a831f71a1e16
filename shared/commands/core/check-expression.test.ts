// The validator's expression check: each distinct template is checked once, the same answer every time.
import { describe, expect, it } from 'vitest';
import { checkExpression } from './schema';

describe('checkExpression', () => {
  it('answers a template it has seen from memory, the same fault whatever text it came in', () => {
    const fault = checkExpression('total: #{@nope.x()}');
    expect(fault).toMatchObject({ offset: 9 });
    expect(checkExpression('total: #{@nope.x()}')).toBe(fault);
  });

  it('remembers a sound template as sound, and a syntax error with its offset', () => {
    expect(checkExpression('#{body.items.size() > 2}')).toBeNull();
    expect(checkExpression('#{body.items.size() > 2}')).toBeNull();
    const broken = checkExpression('#{vars.x +}');
    expect(broken).not.toBeNull();
    expect(checkExpression('#{vars.x +}')).toBe(broken);
  });
});
