/** Editor support: completion proposals at a cursor (roots, vars, body fields, methods, utilities). */
import { type Token, tokenize } from './lexer';
import { BOOLEAN_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, STRING_METHODS } from './methods';
import type { MethodTable } from './methods';
import { isMapLike, ownKeys, readOwn } from './safety';
import { findTemplateSlots } from './template';
import { ROOT_NAMES } from './types';
import { UTILITY_SPECS, type UtilitySpec, signaturesOf } from './utilities';

/** What the workbench knows about the scope: sample values (or just names) of the roots. */
export interface CompletionScope {
  /** A sample body (e.g. the last run's or the pipeline's `body:` section). */
  body?: unknown;
  /** Known vars: sample values, or names only. */
  vars?: Record<string, unknown> | readonly string[];
  headers?: Record<string, unknown> | readonly string[];
  /** Extra utilities to propose (server-provided ones are proposed anyway). */
  utilities?: readonly UtilitySpec[];
}

export type CompletionKind = 'root' | 'variable' | 'field' | 'method' | 'utility' | 'function' | 'keyword';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** The signature (methods and functions) or the sample value's type (fields). */
  detail?: string;
  documentation?: string;
  insertText: string;
}

export interface CompletionResult {
  /** The range the chosen item replaces (the partly typed word). */
  from: number;
  to: number;
  items: CompletionItem[];
}

const UNKNOWN = Symbol('unknown');

function asSample(v: Record<string, unknown> | readonly string[] | undefined): Record<string, unknown> {
  if (!v) return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((name: string) => [name, UNKNOWN]));
  return v as Record<string, unknown>;
}

function typeLabel(v: unknown): string {
  if (v === UNKNOWN) return '';
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

function methodItems(table: MethodTable<never>): CompletionItem[] {
  return [...table].map(([name, m]) => ({
    label: name,
    kind: 'method' as const,
    detail: m.signature,
    documentation: m.doc,
    insertText: m.maxArgs === 0 ? `${name}()` : `${name}(`,
  }));
}

function methodsFor(v: unknown): CompletionItem[] {
  if (typeof v === 'string') return methodItems(STRING_METHODS as MethodTable<never>);
  if (typeof v === 'number') return methodItems(NUMBER_METHODS as MethodTable<never>);
  if (typeof v === 'boolean') return methodItems(BOOLEAN_METHODS as MethodTable<never>);
  if (Array.isArray(v)) return methodItems(LIST_METHODS as MethodTable<never>);
  if (isMapLike(v)) return methodItems(MAP_METHODS as MethodTable<never>);
  // Unknown type: every method once.
  const seen = new Set<string>();
  return [STRING_METHODS, LIST_METHODS, MAP_METHODS]
    .flatMap((t) => methodItems(t as MethodTable<never>))
    .filter((i) => !seen.has(i.label) && seen.add(i.label) !== undefined);
}

function fieldItems(v: unknown): CompletionItem[] {
  if (!isMapLike(v)) return [];
  return ownKeys(v)
    .filter((k) => /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(k))
    .map((k) => ({ label: k, kind: 'field' as const, detail: typeLabel(readOwn(v, k)), insertText: k }));
}

/** The receiver chain before a `.`: tokens back to a root, #var or utility, or null when it cannot be followed. */
function resolveChain(
  tokens: Token[],
  end: number,
  roots: Record<string, unknown>,
  lambdaItem: unknown,
): unknown {
  const steps: (string | number)[] = [];
  let i = end;
  for (;;) {
    const t = tokens[i];
    if (!t) return UNKNOWN;
    if (t.kind === 'punct' && t.value === ']') {
      const key = tokens[i - 1];
      const open = tokens[i - 2];
      if (!key || !open || open.kind !== 'punct' || (open.value !== '[' && open.value !== '?.'))
        return UNKNOWN;
      if (key.kind === 'string') steps.unshift(key.value);
      else if (key.kind === 'number') steps.unshift(key.number!);
      else return UNKNOWN;
      i -= 3;
      if (tokens[i]?.kind === 'punct' && tokens[i]!.value === '?.') i--;
      continue;
    }
    let base: unknown;
    if (t.kind === 'identifier') {
      const before = tokens[i - 1];
      if (before?.kind === 'punct' && (before.value === '.' || before.value === '?.')) {
        steps.unshift(t.value);
        i -= 2;
        continue;
      }
      base =
        lambdaItem !== UNKNOWN && isMapLike(lambdaItem) && readOwn(lambdaItem, t.value) !== null
          ? readOwn(lambdaItem, t.value)
          : Object.hasOwn(roots, t.value)
            ? roots[t.value]
            : UNKNOWN;
    } else if (t.kind === 'variable') {
      base =
        t.value === 'this' ? lambdaItem : t.value === 'root' ? roots : readOwn(roots.vars as object, t.value);
    } else return UNKNOWN;
    let v = base;
    for (const step of steps) {
      if (v === UNKNOWN) return UNKNOWN;
      if (Array.isArray(v) && typeof step === 'number') v = v[step];
      else if (isMapLike(v)) v = readOwn(v, String(step));
      else return UNKNOWN;
    }
    return v === undefined ? UNKNOWN : v;
  }
}

/** The current item inside an open `.?[`/`.![` before the cursor (the first item of the sample list). */
function lambdaItemAt(tokens: Token[], roots: Record<string, unknown>): unknown {
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if (['[', '?[', '^[', '$[', '!['].includes(t.value)) open.push(i);
    else if (t.value === ']') open.pop();
  });
  for (let k = open.length - 1; k >= 0; k--) {
    const at = open[k]!;
    if (tokens[at]!.value === '[') continue;
    const receiverEnd =
      tokens[at - 1]?.kind === 'punct' && ['.', '?.'].includes(tokens[at - 1]!.value) ? at - 2 : at - 1;
    const list = resolveChain(tokens, receiverEnd, roots, UNKNOWN);
    if (Array.isArray(list)) return list.length > 0 ? list[0] : UNKNOWN;
    return UNKNOWN;
  }
  return UNKNOWN;
}

function utilityItems(specs: readonly UtilitySpec[], withAt: boolean): CompletionItem[] {
  return specs.map((s) => ({
    label: `@${s.name}`,
    kind: 'utility' as const,
    documentation: s.doc,
    insertText: withAt ? `@${s.name}.` : `${s.name}.`,
  }));
}

/**
 * Proposals at `offset` of a template (or bare expression): after `@` the utilities, after `@name.` their
 * functions, after `x.` the fields of the sample and the methods of its type, elsewhere roots, vars, keywords.
 */
export function complete(
  source: string,
  offset: number,
  scope: CompletionScope = {},
  mode?: 'template' | 'expression',
): CompletionResult {
  offset = Math.max(0, Math.min(Math.trunc(offset) || 0, source.length));
  const none: CompletionResult = { from: offset, to: offset, items: [] };
  const isTemplate = mode ? mode === 'template' : source.includes('#{');
  let start = 0;
  if (isTemplate) {
    const slot = findTemplateSlots(source, true).find((s) => offset >= s.start && offset <= s.end);
    if (!slot) return none;
    start = slot.start;
  }
  const tokens = tokenize(source, start, offset).filter((t) => t.kind !== 'eof');
  const specs = [...UTILITY_SPECS, ...(scope.utilities ?? [])];
  const roots: Record<string, unknown> = {
    body: scope.body === undefined ? UNKNOWN : scope.body,
    vars: asSample(scope.vars),
    headers: asSample(scope.headers),
    request: UNKNOWN,
    exception: UNKNOWN,
  };

  let last = tokens[tokens.length - 1];
  let from = offset;
  let prefix = '';
  if (
    last &&
    last.end === offset &&
    (last.kind === 'identifier' || last.kind === 'utility' || last.kind === 'variable')
  ) {
    prefix = last.value;
    from = last.kind === 'identifier' ? last.start : last.start + 1;
    if (last.kind === 'utility')
      return filter({ from, to: offset, items: utilityItems(specs, false) }, prefix);
    if (last.kind === 'variable') return filter({ from, to: offset, items: variableItems(roots) }, prefix);
    tokens.pop();
    last = tokens[tokens.length - 1];
  } else if (
    last &&
    last.kind === 'error' &&
    last.end === offset &&
    (source[last.start] === '@' || source[last.start] === '#')
  ) {
    const items = source[last.start] === '@' ? utilityItems(specs, false) : variableItems(roots);
    return { from: offset, to: offset, items };
  }

  if (last?.kind === 'punct' && (last.value === '.' || last.value === '?.')) {
    const receiver = tokens[tokens.length - 2];
    if (receiver?.kind === 'utility') {
      const spec = specs.find((s) => s.name === receiver.value);
      const items: CompletionItem[] = spec
        ? Object.entries(spec.functions).map(([name, f]) => ({
            label: name,
            kind: 'function' as const,
            detail: `@${spec.name}.${f.signature}`,
            documentation: f.overloads ? `${f.doc} Also: ${f.overloads.join(', ')}.` : f.doc,
            insertText: signaturesOf(f).every((s) => s.endsWith('()')) ? `${name}()` : `${name}(`,
          }))
        : [];
      return filter({ from, to: offset, items }, prefix);
    }
    const lambdaItem = lambdaItemAt(tokens, roots);
    const value = resolveChain(tokens, tokens.length - 2, roots, lambdaItem);
    return filter({ from, to: offset, items: [...fieldItems(value), ...methodsFor(value)] }, prefix);
  }

  const lambdaItem = lambdaItemAt(tokens, roots);
  const items: CompletionItem[] = [
    ...(lambdaItem !== UNKNOWN ? fieldItems(lambdaItem) : []),
    ...ROOT_NAMES.map((r) => ({
      label: r,
      kind: 'root' as const,
      detail: typeLabel(roots[r]),
      insertText: r,
    })),
    ...['true', 'false', 'null', 'not'].map((k) => ({ label: k, kind: 'keyword' as const, insertText: k })),
    ...utilityItems(specs, true),
  ];
  return filter({ from, to: offset, items }, prefix);
}

function variableItems(roots: Record<string, unknown>): CompletionItem[] {
  const vars = roots.vars as Record<string, unknown>;
  return [
    {
      label: 'this',
      kind: 'variable',
      documentation: 'The current item in selection and projection.',
      insertText: 'this',
    },
    { label: 'root', kind: 'variable', documentation: 'The scopes as one map.', insertText: 'root' },
    ...ownKeys(vars).map((k) => ({
      label: k,
      kind: 'variable' as const,
      detail: typeLabel(vars[k]),
      insertText: k,
    })),
  ];
}

function filter(result: CompletionResult, prefix: string): CompletionResult {
  if (prefix === '') return result;
  const p = prefix.toLowerCase();
  const items = result.items.filter((i) => i.label.replace(/^@/, '').toLowerCase().startsWith(p));
  return { ...result, items };
}
