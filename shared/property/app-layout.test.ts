import { describe, expect, it } from 'vitest';
import {
  appFolderOf,
  containsReservedApp,
  isAppPipelineKey,
  isReservedAppKey,
  objectKeyOf,
} from './app-layout';

describe('app layout', () => {
  it.each([
    ['global/app/inv/form/f', { folder: 'global/app/inv', name: 'inv', path: ['form', 'f'] }],
    ['global/app/inv', { folder: 'global/app/inv', name: 'inv', path: [] }],
    ['tenant/t1/app/inv/list/l', { folder: 'tenant/t1/app/inv', name: 'inv', path: ['list', 'l'] }],
    ['global/app', undefined],
    ['global/data/app/x', undefined],
    ['tenant/t1/x/app', undefined],
  ])('app folder of %s', (key, expected) => {
    expect(appFolderOf(key)).toEqual(expected);
  });

  it.each([
    ['global/app/delivery', true],
    ['global/app/delivery/form/x', true],
    ['global/app/deliveryx/form/x', false],
    ['global/app/onboarding/x', true],
    ['tenant/t/app/delivery/x', false],
    ['global/delivery', false],
  ])('reserved %s: %s', (key, expected) => {
    expect(isReservedAppKey(key)).toBe(expected);
  });

  it('knows which folders contain reserved apps', () => {
    expect(containsReservedApp('global')).toBe(true);
    expect(containsReservedApp('global/app')).toBe(true);
    expect(containsReservedApp('global/app/sop')).toBe(true);
    expect(containsReservedApp('global/app/mine')).toBe(false);
  });

  it('recognises object schemas and instances', () => {
    expect(objectKeyOf('global/app/a/object/inv/v1/instance/123')).toMatchObject({
      kind: 'instance',
      objectName: 'inv',
      version: 'v1',
      instanceId: '123',
      schemaKey: 'global/app/a/object/inv/v1/schema',
    });
    expect(objectKeyOf('global/app/a/object/inv/v1/schema')).toMatchObject({ kind: 'schema' });
    expect(objectKeyOf('global/app/a/object/inv/v1/instance')).toBeUndefined();
    expect(objectKeyOf('global/app/a/object/inv/v1/instance/1/x')).toBeUndefined();
    expect(objectKeyOf('global/app/a/form/inv')).toBeUndefined();
  });

  it('recognises stored pipelines', () => {
    expect(isAppPipelineKey('global/app/a/pipeline/submit')).toBe(true);
    expect(isAppPipelineKey('user/u/app/a/pipeline/x/y')).toBe(true);
    expect(isAppPipelineKey('global/app/a/pipeline')).toBe(false);
    expect(isAppPipelineKey('global/pipeline/x')).toBe(false);
  });
});
