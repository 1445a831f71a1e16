/** Runs the language-neutral conformance suite: every case in cases/*.json, data only. */
import { describe, expect, it } from 'vitest';
import { isPipeworkError } from '../errors';
import {
  type PelOptions,
  type PelScope,
  compileExpression,
  compileTemplate,
  createInstanceUtility,
  createPropertyUtility,
  createUserUtility,
} from './index';

/** One case: an expression, an optional scope, and either the expected result or the expected error. */
interface ConformanceCase {
  expr: string;
  /** Evaluate as a template (text with #{...}) rather than a bare expression. */
  template?: boolean;
  scope?: Partial<PelScope>;
  result?: unknown;
  /** For results that vary (dates, uuids): the PEL type of the result and/or a regex its text matches. */
  resultType?: 'null' | 'boolean' | 'number' | 'string' | 'list' | 'map';
  matches?: string;
  error?: string;
  reason?: string;
  /** Where the error points (1-based column, 0-based offset), when the case pins it. */
  column?: number;
  offset?: number;
  /** Call assign(scope, value) instead of evaluate. */
  assign?: unknown;
  /** Parts of the scope expected after the evaluation (for assignments). */
  scopeAfter?: Partial<PelScope>;
  limits?: PelOptions['limits'];
  note?: string;
}

import { serverFixtures } from './cases/server-fixtures';

const files = import.meta.glob<string>('./cases/*.json', { eager: true, query: '?raw', import: 'default' });

/** The server-provided utilities, with fixed data, so cases can call @user, @property and @instance. */
const serverUtilities = {
  user: createUserUtility({
    username: 'jdoe',
    displayName: 'John Doe',
    email: 'jdoe@example.com',
    uuid: 'u-1',
    roles: ['ROLE_USER', 'ROLE_DEV'],
    groups: ['staff'],
  }),
  property: createPropertyUtility({
    value: (key) =>
      ({
        'global/app/demo/config/app': {
          emails: ['a@example.com', 'b@example.com'],
          recipient: 'ops@example.com',
        },
        'global/app/demo/text': 'hello',
      })[key],
  }),
  instance: createInstanceUtility({ profiles: ['dev'], name: 'pipework-test' }),
  // @iam and the uri: resolver as the server fills them, over the same fixed data (utility-iam/-resolve cases).
  ...serverFixtures,
};

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

function run(c: ConformanceCase): void {
  const scope: PelScope = { body: null, vars: {}, headers: {}, ...c.scope };
  const options: PelOptions = { utilities: serverUtilities, limits: c.limits };
  let result: unknown;
  let error: unknown;
  try {
    const compiled = c.template ? compileTemplate(c.expr) : compileExpression(c.expr);
    if ('assign' in c) compiled.assign(scope, c.assign, options);
    else result = compiled.evaluate(scope, options);
  } catch (e) {
    error = e;
  }
  if (c.error) {
    expect(
      isPipeworkError(error),
      `expected ${c.error}, got ${error ? String(error) : JSON.stringify(result)}`,
    ).toBe(true);
    if (!isPipeworkError(error)) return;
    expect(error.code, error.message).toBe(c.error);
    if (c.reason) expect(error.details.reason, error.message).toBe(c.reason);
    if (c.column !== undefined) expect(error.details.column, error.message).toBe(c.column);
    if (c.offset !== undefined) expect(error.details.offset, error.message).toBe(c.offset);
    return;
  }
  if (error) throw error;
  if ('result' in c) expect(result).toEqual(c.result);
  if (c.resultType) expect(typeName(result)).toBe(c.resultType);
  if (c.matches) expect(String(result)).toMatch(new RegExp(c.matches));
  if (c.scopeAfter) {
    for (const [k, v] of Object.entries(c.scopeAfter))
      expect((scope as unknown as Record<string, unknown>)[k]).toEqual(v);
  }
}

const all = Object.entries(files).map(([path, raw]) => [path, JSON.parse(raw) as ConformanceCase[]] as const);

describe('PEL conformance', () => {
  it('has at least 400 cases, 40 of them hostile', () => {
    expect(all.reduce((n, [, cases]) => n + cases.length, 0)).toBeGreaterThanOrEqual(400);
    expect(all.find(([p]) => p.endsWith('hostile.json'))?.[1].length ?? 0).toBeGreaterThanOrEqual(40);
  });

  for (const [path, cases] of all) {
    describe(path.replace('./cases/', ''), () => {
      cases.forEach((c, i) => {
        it(`${i + 1}: ${c.expr.length > 80 ? `${c.expr.slice(0, 77)}...` : c.expr}`, () => run(c));
      });
    });
  }
});
