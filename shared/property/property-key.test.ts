import { describe, expect, it } from 'vitest';
import { PipeworkError } from '../errors';
import {
  checkAttachmentName,
  nameOfKey,
  normalizePropertyKey,
  parentKeyOf,
  parsePropertyKey,
} from './property-key';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof PipeworkError ? error.code : 'NOT_PIPEWORK';
  }
}

describe('parsePropertyKey', () => {
  it.each([
    ['global/app/x', 'global/app/x'],
    ['/global/app/x', 'global/app/x'],
    ['user/u-1/notes', 'user/u-1/notes'],
    ['tenant/T.1/app/a_b/form/f', 'tenant/T.1/app/a_b/form/f'],
    ['group/g/x...y', 'group/g/x...y'],
    [`global/${'a'.repeat(1017)}`, `global/${'a'.repeat(1017)}`],
  ])('accepts %s', (raw, key) => {
    expect(normalizePropertyKey(raw)).toBe(key);
  });

  it.each([
    ['empty', ''],
    ['only a slash', '/'],
    ['a root alone', 'global'],
    ['unknown root', 'other/x'],
    ['double slash', 'global//x'],
    ['two leading slashes', '//global/x'],
    ['trailing slash', 'global/x/'],
    ['dot segment', 'global/./x'],
    ['dot-dot segment', 'global/../user/x'],
    ['dot-dot at the end', 'global/app/..'],
    ['encoded dot-dot', 'global/%2e%2e/x'],
    ['NUL', 'global/a\u0000b'],
    ['newline', 'global/a\nb'],
    ['space', 'global/a b'],
    ['backslash', 'global\\a'],
    ['unicode', 'global/ä'],
    ['wildcard', 'global/*'],
    ['5,000 characters', `global/${'a'.repeat(5000)}`],
    ['1,025 characters', `global/${'a'.repeat(1018)}`],
    ['not a string', 42],
  ])('rejects %s with KEY_INVALID', (_name, raw) => {
    expect(codeOf(() => parsePropertyKey(raw))).toBe('KEY_INVALID');
  });

  it('names the owner folder of group, tenant and user keys', () => {
    expect(parsePropertyKey('user/u1/x').owner).toBe('u1');
    expect(parsePropertyKey('group/g1').owner).toBe('g1');
    expect(parsePropertyKey('global/a').owner).toBeUndefined();
  });

  it('never echoes control characters in the message', () => {
    try {
      parsePropertyKey('global/a\u0000b');
    } catch (error) {
      expect((error as Error).message).not.toContain('\u0000');
    }
  });
});

describe('key helpers', () => {
  it('finds parents and names', () => {
    expect(parentKeyOf('global/a/b')).toBe('global/a');
    expect(parentKeyOf('global')).toBeUndefined();
    expect(nameOfKey('global/a/b')).toBe('b');
  });

  it.each([['a.pdf'], ['Rechnung März 2024.pdf'], ['x'.repeat(255)]])(
    'accepts attachment name %s',
    (name) => {
      expect(checkAttachmentName(name)).toBe(name);
    },
  );

  it.each([[''], ['.'], ['..'], ['a/b'], ['a\\b'], ['a\u0000'], ['x'.repeat(256)], [7]])(
    'rejects attachment name %j',
    (name) => {
      expect(codeOf(() => checkAttachmentName(name))).toBe('PARAM_INVALID');
    },
  );
});
