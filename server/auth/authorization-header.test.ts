// Parsing of the Authorization header, table-driven.
import { describe, expect, it } from 'vitest';
import { parseAuthorization } from './authorization-header';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseAuthorization', () => {
  it.each([
    ['Basic', `Basic ${b64('ann:pw')}`, { primary: { scheme: 'basic', username: 'ann', password: 'pw' } }],
    [
      'a password with colons',
      `basic ${b64('ann:a:b:c')}`,
      { primary: { scheme: 'basic', username: 'ann', password: 'a:b:c' } },
    ],
    [
      'an empty password',
      `BASIC ${b64('ann:')}`,
      { primary: { scheme: 'basic', username: 'ann', password: '' } },
    ],
    ['Bearer', 'Bearer a.b.c', { primary: { scheme: 'bearer', token: 'a.b.c' } }],
    ['Refresh', 'refresh xyz', { primary: { scheme: 'refresh', token: 'xyz' } }],
    [
      'Bearer then RunAs',
      'Bearer a.b.c, RunAs bob',
      { primary: { scheme: 'bearer', token: 'a.b.c' }, runAs: 'bob' },
    ],
    [
      'extra spaces',
      '  Bearer   a.b.c ,  runas   bob ',
      { primary: { scheme: 'bearer', token: 'a.b.c' }, runAs: 'bob' },
    ],
  ])('reads %s', (_name, header, expected) => {
    expect(parseAuthorization(header)).toEqual(expected);
  });

  it.each([
    ['nothing', undefined, 'UNAUTHENTICATED'],
    ['blank', '   ', 'UNAUTHENTICATED'],
    ['a scheme alone', 'Bearer', 'UNAUTHENTICATED'],
    ['an unknown scheme', 'Negotiate abc', 'UNAUTHENTICATED'],
    ['Basic without colon', `Basic ${b64('ann')}`, 'UNAUTHENTICATED'],
    ['Basic with an empty username', `Basic ${b64(':pw')}`, 'UNAUTHENTICATED'],
    ['Basic not base64', 'Basic ***', 'UNAUTHENTICATED'],
    ['RunAs alone', 'RunAs bob', 'UNAUTHENTICATED'],
    ['RunAs first', 'RunAs bob, Bearer a.b.c', 'UNAUTHENTICATED'],
    ['two credentials', 'Bearer a.b.c, Bearer d.e.f', 'UNAUTHENTICATED'],
    ['nested RunAs', 'Bearer a.b.c, RunAs bob, RunAs eve', 'FORBIDDEN'],
    ['a huge header', `Bearer ${'a'.repeat(20_000)}`, 'UNAUTHENTICATED'],
  ])('refuses %s', (_name, header, code) => {
    expect(() => parseAuthorization(header)).toThrow(expect.objectContaining({ code }));
  });
});
