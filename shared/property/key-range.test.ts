import { describe, expect, it } from 'vitest';
import { compileKeyPattern } from './key-pattern';
import { isInScope, scanRanges, type KeyScope } from './key-range';

describe('scanRanges', () => {
  it.each<[string, KeyScope, unknown[]]>([
    ['global/a/b', 'all', [{ exact: 'global/a/b' }]],
    ['global/a/**', 'all', [{ exact: 'global/a' }, { from: 'global/a/', to: 'global/a0' }]],
    ['global/a/*', 'all', [{ from: 'global/a/', to: 'global/a0' }]],
    ['global/a/**/x', 'all', [{ from: 'global/a/', to: 'global/a0' }]],
    ['global/ab*', 'all', [{ from: 'global/ab', to: 'global/ac' }]],
    ['**', 'all', [{ from: '' }]],
    [
      '**',
      ['global', 'user/u1'],
      [
        { exact: 'global' },
        { from: 'global/', to: 'global0' },
        { exact: 'user/u1' },
        { from: 'user/u1/', to: 'user/u10' },
      ],
    ],
    ['user/**', ['global', 'user/u1'], [{ exact: 'user/u1' }, { from: 'user/u1/', to: 'user/u10' }]],
    ['user/u2/**', ['global', 'user/u1'], []],
    [
      'user/u1/x/**',
      ['global', 'user/u1'],
      [{ exact: 'user/u1/x' }, { from: 'user/u1/x/', to: 'user/u1/x0' }],
    ],
    ['user/u2/x', ['global', 'user/u1'], []],
    ['global/x', ['global', 'global/app'], [{ exact: 'global/x' }]],
    [
      '*/app/**',
      ['global', 'tenant/t'],
      [
        { exact: 'global' },
        { from: 'global/', to: 'global0' },
        { exact: 'tenant/t' },
        { from: 'tenant/t/', to: 'tenant/t0' },
      ],
    ],
  ])('%s within %j', (pattern, scope, expected) => {
    expect(scanRanges(compileKeyPattern(pattern), scope)).toEqual(expected);
  });

  it('knows what is in scope', () => {
    expect(isInScope('user/u1/x', ['user/u1'])).toBe(true);
    expect(isInScope('user/u10/x', ['user/u1'])).toBe(false);
    expect(isInScope('user/u1', ['user/u1'])).toBe(true);
    expect(isInScope('anything', 'all')).toBe(true);
  });
});
