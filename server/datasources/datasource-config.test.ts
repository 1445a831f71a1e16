import { describe, expect, it } from 'vitest';
import { readSqlConfig } from './datasource-config';
import { namedValues, toPositional } from './named-placeholders';

describe('readSqlConfig', () => {
  it('reads named sources, their kind and whether they may write', () => {
    const config = readSqlConfig({
      PIPEWORK_DATASOURCE_SHOP_URL: 'postgres://u@db:5432/shop',
      PIPEWORK_DATASOURCE_SHOP_WRITE: 'true',
      PIPEWORK_DATASOURCE_MY_FILE_URL: 'sqlite:/tmp/x.db',
      PIPEWORK_DATASOURCE_PLAIN_URL: '/tmp/plain.sqlite',
      PIPEWORK_SQL_MAX_ROWS: '5',
    });
    expect(config.dataSources.shop).toEqual({
      name: 'shop',
      kind: 'postgres',
      location: 'postgres://u@db:5432/shop',
      writable: true,
    });
    expect(config.dataSources.my_file).toMatchObject({
      kind: 'sqlite',
      location: '/tmp/x.db',
      writable: false,
    });
    expect(config.dataSources.plain).toMatchObject({ kind: 'sqlite', location: '/tmp/plain.sqlite' });
    expect(config.maxRows).toBe(5);
    expect(config.timeoutMillis).toBe(30_000);
  });

  it('names the installation secret a PostgreSQL source logs in with', () => {
    const config = readSqlConfig({
      PIPEWORK_DATASOURCE_SHOP_URL: 'postgres://db:5432/shop',
      PIPEWORK_DATASOURCE_SHOP_SECRET: ' shop-login ',
    });
    expect(config.dataSources.shop).toMatchObject({ kind: 'postgres', secret: 'shop-login' });
    expect(() =>
      readSqlConfig({ PIPEWORK_DATASOURCE_X_URL: '/a.db', PIPEWORK_DATASOURCE_X_SECRET: 'login' }),
    ).toThrow(/only a PostgreSQL data source/);
    expect(() => readSqlConfig({ PIPEWORK_DATASOURCE_X_SECRET: 'login' })).toThrow(
      /SECRET is set without its _URL/,
    );
  });

  it('refuses what it cannot serve', () => {
    expect(() => readSqlConfig({ PIPEWORK_DATASOURCE_X_URL: 'mysql://h/db' })).toThrow(/only postgres/);
    expect(() => readSqlConfig({ PIPEWORK_DATASOURCE_X_WRITE: 'true' })).toThrow(/without its _URL/);
    expect(() =>
      readSqlConfig({ PIPEWORK_DATASOURCE_X_URL: '/a.db', PIPEWORK_DATASOURCE_X_WRITE: 'yes' }),
    ).toThrow(/true or false/);
    expect(() => readSqlConfig({ PIPEWORK_SQL_TIMEOUT_MILLIS: '0' })).toThrow(/positive/);
  });
});

describe('toPositional', () => {
  it('numbers named placeholders, reusing a name’s number', () => {
    expect(toPositional('SELECT * FROM t WHERE a = :a AND b = :b OR a2 = :a')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b = $2 OR a2 = $1',
      names: ['a', 'b'],
    });
  });

  it('leaves literals, quoted names, dollar bodies, comments and casts alone', () => {
    const sql = `SELECT ':a', "x:b", $q$ :c $q$, x::int /* :d */ -- :e\nFROM t WHERE y = :f`;
    expect(toPositional(sql)).toEqual({ text: sql.replace(':f', '$1'), names: ['f'] });
  });

  it('needs a value for every name', () => {
    expect(() => namedValues(['a', 'b'], { a: 1 })).toThrow(/:b/);
    expect(namedValues(['b', 'a'], { a: 1, b: 2 })).toEqual([2, 1]);
  });
});
