// PIPEWORK_DATABASE_URL: unset means SQLite; a PostgreSQL URL is taken with its pool settings; anything else
// stops the start with a message naming the setting.
import { describe, expect, it } from 'vitest';
import { loadPostgresDatabaseConfig } from './database-config';

describe('loadPostgresDatabaseConfig', () => {
  it('answers undefined (SQLite) when unset or blank', () => {
    expect(loadPostgresDatabaseConfig({})).toBeUndefined();
    expect(loadPostgresDatabaseConfig({ PIPEWORK_DATABASE_URL: '  ' })).toBeUndefined();
  });

  it('takes postgres:// and postgresql:// URLs with the pool settings', () => {
    expect(
      loadPostgresDatabaseConfig({
        PIPEWORK_DATABASE_URL: 'postgresql://app:secret@db:5432/pipework',
        PIPEWORK_DATABASE_POOL_MAX: '4',
      }),
    ).toEqual({ url: 'postgresql://app:secret@db:5432/pipework', poolMax: 4, connectTimeoutMs: 5_000 });
  });

  it.each([
    ['mysql://x@db/pipework', "must be a postgres:// URL; 'mysql:' is not supported"],
    ['not a url', 'is not a URL'],
  ])('refuses %s', (url, message) => {
    expect(() => loadPostgresDatabaseConfig({ PIPEWORK_DATABASE_URL: url })).toThrow(message);
  });

  it('refuses a pool size that is not a positive integer', () => {
    expect(() =>
      loadPostgresDatabaseConfig({
        PIPEWORK_DATABASE_URL: 'postgres://db/x',
        PIPEWORK_DATABASE_POOL_MAX: '0',
      }),
    ).toThrow('PIPEWORK_DATABASE_POOL_MAX must be a positive integer');
  });
});
