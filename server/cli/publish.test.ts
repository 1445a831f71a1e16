import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appsWithTests,
  changedProperties,
  keyPrefixOf,
  listingPatterns,
  planPublish,
  readFolder,
  toProperty,
  valueHash,
} from './publish';

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

  it('publishes a workspace as it is, an app folder inside one below its path, and refuses any other folder', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'pi-publish-'));
    try {
      const app = join(workspace, 'global', 'app', 'invoiceform');
      mkdirSync(join(app, 'pipeline'), { recursive: true });
      writeFileSync(join(app, 'pipeline', 'submit.pi.yaml'), 'pipeline:\n  - log\n');
      const keys = (folder: string) => readFolder(folder).map((p) => p.key);
      expect(keys(workspace)).toEqual(['global/app/invoiceform/pipeline/submit']);
      expect(keys(app)).toEqual(['global/app/invoiceform/pipeline/submit']);
      expect(keys(join(app, 'pipeline'))).toEqual(['global/app/invoiceform/pipeline/submit']);
      const stray = mkdtempSync(join(tmpdir(), 'pi-stray-'));
      expect(keyPrefixOf(stray)).toBeUndefined();
      expect(() => readFolder(stray)).toThrow(/workspace folder/);
      rmSync(stray, { recursive: true });
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
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

  it('uploads only new and changed properties, compared by the hash of the value and the type', () => {
    const local = [
      { key: 'global/a', value: '1', type: 'text/plain', file: 'a' },
      { key: 'global/b', value: '2', type: 'text/plain', file: 'b' },
      { key: 'global/c', value: '3', type: 'application/json', file: 'c' },
      { key: 'global/d', value: '4', type: 'application/json', file: 'd' },
    ];
    const remote = new Map([
      ['global/a', { hash: valueHash('1'), type: null }],
      ['global/b', { hash: valueHash('old'), type: 'text/plain' }],
      ['global/d', { hash: valueHash('4'), type: 'text/plain' }],
    ]);
    expect(planPublish(local, remote).map((p) => [p.key, p.change])).toEqual([
      ['global/a', 'unchanged'],
      ['global/b', 'updated'],
      ['global/c', 'created'],
      ['global/d', 'updated'],
    ]);
    expect(changedProperties(local, remote).map((p) => p.key)).toEqual(['global/b', 'global/c', 'global/d']);
    expect(valueHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('lists what the server has per app folder, else per top two segments; finds the apps with tests', () => {
    const at = (key: string) => ({ key, value: '', type: 'text/plain', file: key });
    const local = [
      at('global/app/a/pipeline/x'),
      at('global/app/a/test/t1'),
      at('global/app/b/config/app'),
      at('tenant/t1/app/c/test/t2'),
      at('global/data/z'),
    ];
    expect(listingPatterns(local)).toEqual([
      'global/app/a/**',
      'global/app/b/**',
      'tenant/t1/app/c/**',
      'global/data/**',
    ]);
    expect(appsWithTests(local)).toEqual(['global/app/a', 'tenant/t1/app/c']);
  });
});
