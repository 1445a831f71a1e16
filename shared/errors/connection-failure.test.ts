// Which errors mean "the database cannot be reached" (503, retry) rather than a bug (500).
import { describe, expect, it } from 'vitest';
import { isConnectionFailure } from './connection-failure';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionFailure', () => {
  it.each([
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    withCode('read ECONNRESET', 'ECONNRESET'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is starting up', '57P03'),
    withCode('sorry, too many clients already', '53300'),
    withCode('connection failure', '08006'),
    withCode('database "pipework" is not currently accepting connections', '55000'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
  ])('counts %s', (error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    new TypeError("Cannot read properties of undefined (reading 'x')"),
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('relation "property" does not exist', '42P01'),
    withCode('object in use', '55006'),
    'ECONNREFUSED',
    null,
  ])('does not count %s', (error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });
});
