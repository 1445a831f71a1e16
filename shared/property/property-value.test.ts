import { describe, expect, it } from 'vitest';
import { PipeworkError } from '../errors';
import { BinaryContent } from '../values';
import { base64ToBytes, bytesToBase64 } from './base64';
import { decodePropertyValue, isBase64Type, normalizePropertyType, toStoredValue } from './property-value';

describe('toStoredValue', () => {
  it.each<[unknown, string | undefined, { value: string | null; type: string }]>([
    ['hello', undefined, { value: 'hello', type: 'text/plain' }],
    ['{"a":1}', 'application/json', { value: '{"a":1}', type: 'application/json' }],
    [{ a: 1 }, undefined, { value: '{"a":1}', type: 'application/json' }],
    [[1, 2], undefined, { value: '[1,2]', type: 'application/json' }],
    [42, undefined, { value: '42', type: 'application/json' }],
    [false, undefined, { value: 'false', type: 'application/json' }],
    [{ a: 1 }, 'application/vnd.x+json', { value: '{"a":1}', type: 'application/vnd.x+json' }],
    [null, undefined, { value: null, type: 'text/plain' }],
    [
      new Uint8Array([1, 2, 3]),
      undefined,
      { value: 'AQID', type: 'application/octet-stream;encoding=base64' },
    ],
    [new Uint8Array([1]), 'application/pdf', { value: 'AQ==', type: 'application/pdf;encoding=base64' }],
    [
      new BinaryContent(new Uint8Array([255, 0]), 'image/png'),
      undefined,
      { value: '/wA=', type: 'image/png;encoding=base64' },
    ],
  ])('%j with type %s', (value, type, expected) => {
    expect(toStoredValue(value, type)).toEqual(expected);
  });
});

describe('types', () => {
  it.each([
    ['application/json', 'application/json'],
    ['application/yaml;type=pipeline', 'application/yaml;type=pipeline'],
    ['application/pdf; encoding=base64', 'application/pdf; encoding=base64'],
    ['JSON', 'application/json'],
    ['string', 'text/plain'],
  ])('normalises %s', (raw, expected) => {
    expect(normalizePropertyType(raw)).toBe(expected);
  });

  it.each([['text'], ['a/b c'], ['a/b;x'], ['x'.repeat(300) + '/y'], ['a/b\nc']])(
    'rejects type %j',
    (raw) => {
      expect(() => normalizePropertyType(raw)).toThrow(PipeworkError);
    },
  );

  it('recognises base64 types', () => {
    expect(isBase64Type('application/pdf;encoding=base64')).toBe(true);
    expect(isBase64Type('application/pdf; encoding="base64"; name=x')).toBe(true);
    expect(isBase64Type('text/plain')).toBe(false);
  });
});

describe('decodePropertyValue', () => {
  it('parses JSON, decodes base64 and keeps text', () => {
    expect(decodePropertyValue({ value: '{"a":1}', type: 'application/json' })).toEqual({ a: 1 });
    expect(decodePropertyValue({ value: 'not json', type: 'application/json' })).toBe('not json');
    expect(decodePropertyValue({ value: 'x', type: 'text/plain' })).toBe('x');
    const bytes = decodePropertyValue({ value: 'AQID', type: 'application/pdf;encoding=base64' });
    expect(bytes).toBeInstanceOf(BinaryContent);
    expect(Array.from((bytes as BinaryContent).data)).toEqual([1, 2, 3]);
    expect((bytes as BinaryContent).mimeType).toBe('application/pdf');
  });
});

describe('base64', () => {
  it('round-trips every length and byte', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 255);
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(Array.from(base64ToBytes(text))).toEqual(Array.from(bytes));
    }
  });

  it('rejects other characters', () => {
    expect(() => base64ToBytes('ab$c')).toThrow(PipeworkError);
  });
});
