/** docs/pel.md stays complete and true: every method and utility is documented, every `x → y` example holds. */
import { describe, expect, it } from 'vitest';
import { isPipeworkError } from '../errors';
import {
  type PelScope,
  UTILITY_SPECS,
  compileExpression,
  compileTemplate,
  createInstanceUtility,
  createPropertyUtility,
  createUserUtility,
} from './index';
import { BOOLEAN_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, STRING_METHODS } from './methods';

const docs = Object.values(
  import.meta.glob<string>('/docs/pel.md', { eager: true, query: '?raw', import: 'default' }),
)[0]!;

/** The sample scope: the first ```json block of the docs. */
const sample = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(docs)![1]!) as PelScope;

const utilities = {
  user: createUserUtility({ username: 'jdoe', displayName: 'John Doe', roles: [], groups: [] }),
  property: createPropertyUtility({ value: () => ({ recipient: 'ops@example.com' }) }),
  instance: createInstanceUtility({ profiles: ['dev'], name: 'pipework' }),
};

interface Example {
  expr: string;
  code?: string;
  reason?: string;
  result?: unknown;
}

/** `expr → result (comment)` lines of the plain code blocks whose result is JSON or an error code. */
function examples(): Example[] {
  const out: Example[] = [];
  let fence: string | null = null;
  for (const line of docs.split('\n')) {
    if (line.startsWith('```')) {
      fence = fence === null ? line.slice(3) : null;
      continue;
    }
    if (fence === '') {
      const [lhs, rhs] = line.split(' → ').map((s) => s.trim());
      if (!lhs || !rhs) continue;
      const error = /^(PEL_[A-Z]+|LIMIT_EXCEEDED)(?:\s+\(?([A-Z_]+)\b)?/.exec(rhs);
      if (error) {
        out.push({ expr: lhs, code: error[1], reason: error[2] });
        continue;
      }
      try {
        out.push({ expr: lhs, result: JSON.parse(rhs.split(/\s{2,}\(/)[0]!) });
      } catch {
        // a result told in words ("the items costing more than 10"): not checked
      }
    }
  }
  return out;
}

function run(expr: string): { value?: unknown; error?: unknown } {
  const scope = structuredClone(sample);
  try {
    const compiled = expr.includes('#{') ? compileTemplate(expr) : compileExpression(expr);
    return { value: compiled.evaluate(scope, { utilities }) };
  } catch (error) {
    return { error };
  }
}

describe('docs/pel.md', () => {
  it.each(
    [STRING_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, BOOLEAN_METHODS].flatMap((table) =>
      [...(table as ReadonlyMap<string, { signature: string }>).values()].map((m) => m.signature),
    ),
  )('documents the method %s', (signature) => {
    expect(docs).toContain(`\`${signature}\``);
  });

  it.each(UTILITY_SPECS.flatMap((s) => Object.values(s.functions).map((f) => `@${s.name}.${f.signature}`)))(
    'documents %s',
    (signature) => {
      expect(docs).toContain(`\`${signature}\``);
    },
  );

  const all = examples();
  it('has examples to check', () => {
    expect(all.length).toBeGreaterThanOrEqual(75);
  });

  it.each(all)('example $expr', ({ expr, code, reason, result }) => {
    const { value, error } = run(expr);
    if (code) {
      expect(isPipeworkError(error) && error.code, String(error ?? JSON.stringify(value))).toBe(code);
      if (reason && isPipeworkError(error)) expect(error.details.reason).toBe(reason);
    } else {
      if (error) throw error;
      expect(value).toEqual(result);
    }
  });
});
