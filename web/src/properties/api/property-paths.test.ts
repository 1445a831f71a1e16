import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  isBinaryType,
  isPipelineProperty,
  isTestFolder,
  parentOf,
  toEntries,
} from './property-paths';

describe('property paths', () => {
  it('finds parents and every ancestor up to the top level', () => {
    expect(parentOf('global/app/x')).toBe('global/app');
    expect(parentOf('global')).toBeNull();
    expect(ancestorsOf('global/app/x')).toEqual(['global/app', 'global', null]);
  });

  it('reads a children listing: trailing / marks a folder, a name can be both', () => {
    expect(toEntries(['global/app', 'global/app/', 'global/b'])).toEqual([
      { path: 'global/app', name: 'app', folder: false },
      { path: 'global/app', name: 'app', folder: true },
      { path: 'global/b', name: 'b', folder: false },
    ]);
  });

  it.each([
    ['global/app/inv/test', true],
    ['tenant/123/app/inv/test', true],
    ['global/app/inv/test/sub', false],
    ['global/test', false],
    ['user/u/app/inv/test', false],
  ])('%s is a test folder: %s', (path, expected) => {
    expect(isTestFolder(path)).toBe(expected);
  });

  it('knows stored pipelines and binary values', () => {
    expect(isPipelineProperty('global/app/a/pipeline/p', 'application/yaml')).toBe(true);
    expect(isPipelineProperty('global/app/a/pipeline/p', 'application/x-yaml')).toBe(true);
    expect(isPipelineProperty('global/app/a/test/t', 'application/yaml')).toBe(true);
    expect(isPipelineProperty('global/app/a/pipeline/p', 'application/json')).toBe(true);
    expect(isPipelineProperty('global/app/a/pipeline/p', 'text/plain')).toBe(false);
    expect(isPipelineProperty('global/x', 'application/yaml;type=pipeline')).toBe(true);
    expect(isPipelineProperty('global/app/a/config/p', 'application/yaml')).toBe(false);
    expect(isBinaryType('image/png;encoding=base64')).toBe(true);
    expect(isBinaryType('text/plain')).toBe(false);
  });
});
