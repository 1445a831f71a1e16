import { describe, expect, it } from 'vitest';
import { parseStagingKey, stagingKeyOf } from './form-files';

describe('staging keys of form uploads', () => {
  it('reads back what stagingKeyOf makes', () => {
    expect(parseStagingKey(stagingKeyOf('u-1', 'up_2'))).toEqual({ user: 'u-1', uploadId: 'up_2' });
  });

  it.each([
    'user/u/staging/../x',
    'user/u/staging/a/b',
    'user/u/staging/',
    'user//staging/x',
    'global/u/staging/x',
    'user/u/other/x',
    'user/u/staging/a b',
    'user/u/staging/x%2F..',
    `user/u/staging/${'x'.repeat(65)}`,
  ])('refuses %s', (key) => {
    expect(parseStagingKey(key)).toBeUndefined();
  });
});
