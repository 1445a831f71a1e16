/**
 * Property-based hostile input for the parsers that take user text: whatever arrives, each one either answers
 * or throws a PipeworkError with a catalogued code (never a raw exception, which the API would turn into a 500),
 * and the positions it reports lie inside the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isPipeworkError } from '../errors';
import { compileTemplate } from '../pel';
import { parsePipeline } from '../pipeline';
import { compileKeyPattern, isValidPropertyKey, matchesKeyPattern, normalizePropertyKey } from '../property';
import {
  JSON_SEEDS,
  JSON_TOKENS,
  KEY_TOKENS,
  PEL_TOKENS,
  URI_SEEDS,
  URI_TOKENS,
  YAML_SEEDS,
  YAML_TOKENS,
  hostileText,
  mutatedText,
} from './arbitraries';

const RUNS = { numRuns: 400 };

/** Runs `fn`; a thrown value must be a catalogued PipeworkError whose line (if any) exists in `text`. */
function answersOrFailsCleanly(text: string, fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!isPipeworkError(error)) throw new Error(`raw ${String(error)} for ${JSON.stringify(text)}`);
    expect(Object.keys(ERROR_CODES)).toContain(error.code);
    const { line, column } = error.details;
    if (line !== undefined) {
      expect(line).toBeGreaterThanOrEqual(1);
      expect(line).toBeLessThanOrEqual(text.split(/\r\n|\r|\n/).length + 1);
    }
    if (column !== undefined) expect(column).toBeGreaterThanOrEqual(1);
  }
}

describe('pipeline parsers under hostile text', () => {
  it('YAML: any text parses or fails with a catalogued code and a line inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(YAML_TOKENS, 80), mutatedText(YAML_SEEDS, YAML_TOKENS)), (text) =>
        answersOrFailsCleanly(text, () => parsePipeline(text, 'yaml')),
      ),
      RUNS,
    );
  });

  it('JSON: any text parses or fails cleanly', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(JSON_TOKENS, 80), mutatedText(JSON_SEEDS, JSON_TOKENS)), (text) =>
        answersOrFailsCleanly(text, () => parsePipeline(text, 'json')),
      ),
      RUNS,
    );
  });

  it('URI: any text parses or fails cleanly', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(URI_TOKENS, 60), mutatedText(URI_SEEDS, URI_TOKENS)), (text) =>
        answersOrFailsCleanly(text, () => parsePipeline(text, 'uri')),
      ),
      RUNS,
    );
  });

  it('a YAML alias bomb is refused, not expanded', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(
        `${name}: &${name} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
    }
    const text = `vars:\n  ${levels.join('\n  ')}\npipeline:\n  - log:\n      message: hi\n`;
    let code: string | undefined;
    try {
      parsePipeline(text, 'yaml');
    } catch (error) {
      code = isPipeworkError(error) ? error.code : 'raw';
    }
    expect(code).toBeDefined();
    expect(code).not.toBe('raw');
  });
});

describe('PEL under hostile text', () => {
  it('any template compiles or fails with a catalogued code', () => {
    fc.assert(
      fc.property(hostileText(PEL_TOKENS, 40), (body) => {
        const text = `#{${body}}`;
        answersOrFailsCleanly(text, () => compileTemplate(text));
      }),
      RUNS,
    );
  });

  it('whatever compiles evaluates or fails with a catalogued code, touching nothing outside its scope', () => {
    fc.assert(
      fc.property(hostileText(PEL_TOKENS, 30), (body) => {
        const text = `#{${body}}`;
        let template;
        try {
          template = compileTemplate(text);
        } catch {
          return;
        }
        const scope = { body: { a: [1, 2, { b: 'c' }] }, vars: { x: 'y' }, headers: { h: 'v' } };
        answersOrFailsCleanly(text, () => template.evaluate(scope));
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(Object.getPrototypeOf(scope.body)).toBe(Object.prototype);
      }),
      RUNS,
    );
  });
});

describe('property keys and wildcards under hostile text', () => {
  it('a key is normalized to a valid key, idempotently, or refused cleanly', () => {
    fc.assert(
      fc.property(hostileText(KEY_TOKENS, 20), (raw) => {
        answersOrFailsCleanly(raw, () => {
          const key = normalizePropertyKey(raw);
          expect(isValidPropertyKey(key)).toBe(true);
          expect(normalizePropertyKey(key)).toBe(key);
          expect(key.split('/')).not.toContain('..');
        });
      }),
      RUNS,
    );
  });

  it('a pattern compiles or is refused cleanly; a valid key matches itself as a pattern', () => {
    fc.assert(
      fc.property(hostileText(KEY_TOKENS, 20), (raw) => {
        answersOrFailsCleanly(raw, () => compileKeyPattern(raw));
        if (isValidPropertyKey(raw)) {
          const key = normalizePropertyKey(raw);
          expect(matchesKeyPattern(key, key)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
