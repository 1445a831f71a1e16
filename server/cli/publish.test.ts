import { describe, expect, it } from 'vitest';
import { changedProperties, listingPatterns, toProperty } from './publish';

describe('publish', () => {
  it.each([
    [
      'global/app/a/pipeline/submit.pi.yaml',
      'pipeline:\n  - log\n',
      'global/app/a/pipeline/submit',
      'application/yaml;type=pipeline',
    ],
    ['global/app/a/config/app.json', '{}', 'global/app/a/config/app', 'application/json'],
    [
      'global/app/a/script/hello.js',
      'function command() {}',
      'global/app/a/script/hello',
      'application/javascript',
    ],
    ['global/app/a/workflow/flow.bpmn', '<x/>', 'global/app/a/workflow/flow', 'application/xml;type=bpmn'],
    ['global/app/a/notes/readme', 'plain words', 'global/app/a/notes/readme', 'text/plain'],
  ])('%s becomes %s', (path, content, key, type) => {
    const property = toProperty(path, path, Buffer.from(content));
    expect(property).toMatchObject({ key, type, value: content });
  });

  it('stores binary files as base64 marked in their type', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    expect(toProperty('x', 'global/img/logo.png', bytes)).toMatchObject({
      key: 'global/img/logo',
      type: 'image/png;encoding=base64',
      value: bytes.toString('base64'),
    });
    expect(toProperty('x', 'global/blob/data', bytes).type).toBe('application/octet-stream;encoding=base64');
  });

  it('uploads only new and changed properties', () => {
    const local = [
      { key: 'global/a', value: '1', type: 'text/plain', file: 'a' },
      { key: 'global/b', value: '2', type: 'text/plain', file: 'b' },
      { key: 'global/c', value: '3', type: 'application/json', file: 'c' },
    ];
    const remote = new Map([
      ['global/a', { value: '1', type: null }],
      ['global/b', { value: 'old', type: 'text/plain' }],
    ]);
    expect(changedProperties(local, remote).map((p) => p.key)).toEqual(['global/b', 'global/c']);
    expect(listingPatterns(local)).toEqual(['global/a/**', 'global/b/**', 'global/c/**']);
  });
});
